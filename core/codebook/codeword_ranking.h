#pragma once
// Codewords ranked by cosine to one direction — the order step 1 of ONCE uses (best first, ties
// to the lower codeword index), for the views that show a ranking: the patch inspector (a
// token's nearest codewords, the rank of its group's codeword) and the codebook projector (a
// codeword's most similar codewords). In F32 from the normalised codebook, one K×D product.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace once {

class Codebook;

struct NearestCodeword {
    std::int64_t id = -1;
    float cosine = 0;  ///< ν(v)·ν(c_id)
};

class CodewordRanking {
  public:
    /// Cosines of every codeword to `vector` [D] (any float dtype, CPU). Throws OnceError when
    /// D differs from the codebook's (naming both).
    CodewordRanking(const Codebook& codebook, const at::Tensor& vector);

    /// The first `k` codewords (clamped to [0, K]), best first; `skip` (e.g. the codeword asked
    /// about itself) is left out.
    std::vector<NearestCodeword> nearest(std::int64_t k, std::int64_t skip = -1) const;
    /// 0-based position of `codeword` in the whole ranking.
    std::int64_t rankOf(std::int64_t codeword) const;
    float cosine(std::int64_t codeword) const;
    std::int64_t size() const { return static_cast<std::int64_t>(scores_.size()); }

  private:
    /// Strict weak order: higher cosine first, a NaN (non-finite input) last, then lower id.
    bool before(std::int64_t a, std::int64_t b) const;

    std::vector<float> scores_;
};

}  // namespace once
