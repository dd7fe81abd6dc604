#pragma once
// One interface for every visual-token compressor: ONCE (with its variants) and the peer
// baselines (core/compress/baselines/). The GUI, the CLI, the evaluation harness and the
// benchmarks pick compressors by name from this registry, so a new method is one new file that
// registers itself.
//
// The work is split like ONCE's: prepare() does the budget-independent part once per video
// (ONCE's first assignment, a baseline's segmentation or similarity graph) and compress() turns
// a budget into output tokens, so budget sweeps and the GUI's slider re-use the prepared state.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compress/compression.h"
#include "features/encoded_video.h"

namespace once {

class Codebook;

/// Hyper-parameters by name, as given on a command line (`--param key=value`) or in a config.
using CompressorParams = std::map<std::string, std::string>;

struct CompressorSpec {
    std::string method = "once";         ///< registry name
    CompressorParams params;             ///< method-specific; unknown keys are an error
    const Codebook* codebook = nullptr;  ///< needed where CompressorInfo::needsCodebook
    AssignOptions assign;                ///< used where CompressorInfo::hasAssignment
    /// An assignment of the video to `codebook` made earlier (by a compressor of the same method
    /// with other parameters): prepare() adopts it instead of assigning again. Methods with
    /// CompressorInfo::hasAssignment only; others ignore it.
    std::shared_ptr<const Assignment> assignment;
};

class TokenCompressor {
  public:
    virtual ~TokenCompressor() = default;
    virtual std::string method() const = 0;
    /// Budget-independent work for one video: its features [T, P, D] and the side inputs the
    /// method uses (attention, frame globals, grid; 1 × P when the grid is unknown). Throws
    /// OnceError on bad features.
    virtual void prepare(const EncodedVideo& video, Progress* progress = nullptr) = 0;
    /// At most `budget` output tokens (M <= budget) for the prepared video. Fills `tokens`,
    /// `groupSizes`, `groupOfToken` (−1 for a dropped token), `numTokens`, `numOutputs`,
    /// `budget`, `coverage` and the timings; `codewordIds` is −1 for methods without codewords.
    /// Deterministic for a given seed. Throws OnceError when prepare() was not called or
    /// budget < 1.
    virtual CompressionResult compress(std::int64_t budget, std::uint64_t seed = 42) = 0;
    /// The codeword assignment of the prepared video (step 1 of ONCE) for a method with
    /// CompressorInfo::hasAssignment; null otherwise or before prepare().
    virtual std::shared_ptr<const Assignment> assignment() const { return nullptr; }
};

/// What a method's budget rule depends on: the video's shape (and the codebook's size for ONCE).
struct BudgetShape {
    std::int64_t frames = 0, patches = 0;  ///< T, P
    int gridH = 0, gridW = 0;              ///< 0: unknown (1 × P)
    std::int64_t codebookSize = 0;         ///< K; 0 without a codebook
    std::int64_t tokens() const { return frames * patches; }
    /// The shape of `video` (an empty video: all 0) with a codebook of `codebookSize` rows.
    static BudgetShape of(const EncodedVideo& video, std::int64_t codebookSize = 0);
};

/// The budgets a method can honour on a video, stated by the method (the GUI's slider and the
/// CLI's warnings read it instead of knowing each method).
struct BudgetRange {
    std::int64_t min = 1;  ///< smallest budget that gives any output token
    /// Largest budget that still changes the output (a larger one gives the same tokens).
    std::int64_t max = 0;
    /// What the method does with a budget, one sentence for the GUI (empty: "at most B tokens").
    std::string rule;
};
using BudgetRangeFn = std::function<BudgetRange(const BudgetShape&, const CompressorParams&)>;

/// A method as the registry describes it. Its capabilities are the fields the CLI, the
/// evaluation harness and the studio read instead of comparing method names: a new method
/// states them where it registers.
struct CompressorInfo {
    std::string method;
    std::string summary;        ///< one line for --help and the GUI's tooltip
    std::string source;         ///< public code the method follows (file in its repository)
    CompressorParams defaults;  ///< every accepted parameter with its default value
    /// Needs a codebook (CompressorSpec::codebook): no budget without one, budgets up to K.
    bool needsCodebook = false;
    std::string title;          ///< display name ("ONCE", "Spatial pooling"); empty: method
    bool hasVariants = false;   ///< takes the ablation variants of compression.h (ONCE)
    BudgetRangeFn budgetRange;  ///< empty: every budget from 1 to the token count
    /// Its prepared state is a codeword assignment (TokenCompressor::assignment(): each token's
    /// nearest codewords, which views overlay and chart), it adopts one made earlier
    /// (CompressorSpec::assignment), its results count used codewords, and its compress() times
    /// the select, reassign and pool stages apart.
    bool hasAssignment = false;
};

using CompressorFactory =
    std::function<std::unique_ptr<TokenCompressor>(const CompressorSpec& spec)>;

/// Called by static registrars in each method's file.
void registerCompressor(const CompressorInfo& info, CompressorFactory factory);
/// Throws OnceError naming the known methods for an unknown name, and naming the parameter for
/// an unknown parameter key (checked against info.defaults) or a missing codebook.
std::unique_ptr<TokenCompressor> makeCompressor(const CompressorSpec& spec);
std::vector<CompressorInfo> compressorInfos();
const CompressorInfo& compressorInfo(const std::string& method);
/// The display title of a method (CompressorInfo::title, or its name).
std::string compressorTitle(const std::string& method);
/// The method's budget range on a video of `shape` (min clamped to >= 1, max to >= min).
BudgetRange budgetRange(const std::string& method, const BudgetShape& shape,
                        const CompressorParams& params = {});

/// Parameter helpers for factories: the value of `key` in `params`, else the registered default;
/// a value that does not parse is an OnceError naming method, key, expected and found.
double paramDouble(const std::string& method, const CompressorParams& params,
                   const CompressorParams& defaults, const std::string& key);
std::int64_t paramInt(const std::string& method, const CompressorParams& params,
                      const CompressorParams& defaults, const std::string& key);
std::string paramString(const std::string& method, const CompressorParams& params,
                        const CompressorParams& defaults, const std::string& key);

/// Fills the result fields every method shares from `tokens` [M, D] and `groupOfToken` [N]
/// (−1 = dropped): groupSizes, numTokens, numOutputs, coverage, codewordIds (−1), and the
/// cosine of each output to its group's source mean (outputCosine). `features` is [N, D].
void finishResult(CompressionResult& result, const at::Tensor& features, std::int64_t budget);

}  // namespace once
