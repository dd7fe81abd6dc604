// ONCE behind the TokenCompressor interface: prepare() is step 1 (the assignment, once per
// video), compress() is steps 2–5 for a budget. Parameters: variant (any of variantNames())
// and rounds (Q).
#include <ATen/ATen.h>

#include <algorithm>
#include <limits>

#include "codebook/codebook.h"
#include "compress/token_compressor.h"
#include "util/error.h"

namespace once {
namespace {

class OnceCompressor final : public TokenCompressor {
  public:
    explicit OnceCompressor(const CompressorSpec& spec)
        : codebook_(*spec.codebook), assignOptions_(spec.assign) {
        const CompressorParams& d = compressorInfo("once").defaults;
        options_.variant = parseVariant(paramString("once", spec.params, d, "variant"));
        // Checked before narrowing: 2^32 + 1 must not wrap around to a valid-looking 1.
        const std::int64_t rounds = paramInt("once", spec.params, d, "rounds");
        if (rounds < 1 || rounds > std::numeric_limits<int>::max()) {
            fail("parameter of method 'once' out of range", {}, "rounds",
                 "1.." + std::to_string(std::numeric_limits<int>::max()), std::to_string(rounds));
        }
        options_.rounds = int(rounds);
    }

    std::string method() const override { return "once"; }

    void prepare(const EncodedVideo& video, Progress* progress) override {
        features_ = video.features;
        assignment_ = assignTokens(features_, codebook_, assignOptions_, progress);
        prepared_ = true;
    }

    CompressionResult compress(std::int64_t budget, std::uint64_t seed) override {
        if (!prepared_) {
            fail("compress() called before prepare()", {}, "once");
        }
        CompressOptions o = options_;
        o.budget = budget;
        o.seed = seed;
        CompressionResult r = compressAssigned(features_, assignment_, codebook_, o);
        r.seconds.assign = assignment_.seconds;
        return r;
    }

  private:
    const Codebook& codebook_;
    AssignOptions assignOptions_;
    CompressOptions options_;
    at::Tensor features_;
    Assignment assignment_;
    bool prepared_ = false;
};

const bool registered = [] {
    registerCompressor(
        {"once",
         "ONCE: nearest codewords of a global codebook, B most used kept, tokens "
         "reassigned and mean-pooled (the paper's rule)",
         "paper/ONCE.tex, method section; docs/algorithm.md",
         {{"variant", "full"}, {"rounds", "1"}},
         /*needsCodebook=*/true,
         "ONCE",
         /*hasVariants=*/true,
         [](const BudgetShape& s, const CompressorParams&) {
             // B codewords at most: a budget above K (or above the tokens) keeps every used one.
             const std::int64_t k = s.codebookSize > 0 ? s.codebookSize : s.tokens();
             return BudgetRange{1, std::min(k, s.tokens()),
                                "the B most used codewords, one pooled token each"};
         }},
        [](const CompressorSpec& spec) { return std::make_unique<OnceCompressor>(spec); });
    return true;
}();

}  // namespace
}  // namespace once
