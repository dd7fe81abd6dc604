#pragma once
// The scan half of step 1: the L best (score, codeword) of one row of similarity scores, best
// first, ties to the lower codeword index. Scores come as F32 (exact precision) or BF16 (the
// production order). The AVX-512 version tests 16 scores against the current L-th best with one
// compare and visits only the few that beat it; it gives the same lists as the scalar one,
// which stays the reference (and runs on CPUs without AVX-512).
#include <c10/util/BFloat16.h>

#include <cstdint>

namespace once {

/// Fills ids[0..l) and scores[0..l) from row[0..k) (k >= l >= 1).
void scanTopL(const float* row, std::int64_t k, int l, std::int32_t* ids, float* scores);
void scanTopL(const c10::BFloat16* row, std::int64_t k, int l, std::int32_t* ids, float* scores);

/// The portable scalar scans (the reference of the vector ones).
void scanTopLScalar(const float* row, std::int64_t k, int l, std::int32_t* ids, float* scores);
void scanTopLScalar(const c10::BFloat16* row, std::int64_t k, int l, std::int32_t* ids,
                    float* scores);

/// True when scanTopL uses the AVX-512 path on this CPU.
bool scanTopLVectorized();

}  // namespace once
