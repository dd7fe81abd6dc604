#pragma once
// Compression result file (DESIGN §2): tokens [M, D] F32, codeword_ids [M] I64 (output order),
// group_sizes [M] I64, group_of_token [N] I64 (−1 = dropped); metadata N, M, budget, coverage,
// method, variant and codebook SHA-256 (ONCE only).
#include <string>

#include "compress/compression.h"
#include "util/atomic_file.h"

namespace once {

/// Writes atomically; `codebookSha` (empty: none) and `source` are recorded in the metadata.
void saveCompressionResult(const CompressionResult& r, const std::string& path,
                           const std::string& codebookSha, const std::string& source,
                           OutputReplace replace = OutputReplace::regularFile);

/// One-object JSON summary (N, M, coverage, timings, group size stats) for `--json` output.
std::string compressionSummaryJson(const CompressionResult& r);

}  // namespace once
