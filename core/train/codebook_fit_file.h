#pragma once
// Stage B to a codebook file: what `once train fit` and the studio's trainer both run after
// Stage A, written once. The fit, the diagnostics, the corpus usage and the exemplars all read
// the mapped cache a tile at a time (memory bounded by the mini-batch and the tiles, not by the
// corpus: docs/cluster.md), and the metadata describe the codebook as stored (BF16 rounding
// included), as `once diagnose` sees it.
#include <map>
#include <string>

#include "train/codebook_metadata.h"
#include "train/exemplar_selection.h"
#include "train/stage_b.h"
#include "util/atomic_file.h"

namespace once {

class CacheReader;
class Progress;

struct CodebookFileRequest {
    std::string output;              ///< the codebook file (written to a temporary, then renamed)
    std::string state;               ///< the fit's resume state (saved after every epoch)
    std::string storeDtype = "F32";  ///< F32 or BF16
    OutputReplace replace = OutputReplace::regularFile;  ///< what may stand at `output`
    CodebookMetadataOptions metadata;
    ExemplarOptions exemplars;
};

struct CodebookFileResult {
    FitResult fit;  ///< fit.metadata["diagnostics"] holds the stored diagnostics
    CodebookExemplarTables exemplars;
};

/// Fits, describes and writes the codebook. The resume state goes after success; on an error
/// (OnceError) it goes only if this call created it, so no `.fit-state` stays beside a codebook
/// that was never written while the state of an earlier stopped run survives. A cancel
/// (once::Cancelled) keeps it for resuming. The store dtype is checked before fitting.
CodebookFileResult fitCodebookFile(const CacheReader& cache, const FitConfig& config,
                                   const CodebookFileRequest& request,
                                   Progress* progress = nullptr);

}  // namespace once
