#pragma once
// Stage B (paper §"Balanced Global Codebook Fitting", appendix configuration table): effective
// weights, weighted-sample + spherical-Lloyd initialisation, mini-batch log-domain Sinkhorn with
// straight-through Gumbel-Softmax assignments, hand-written gradients and AdamW, epochs with
// patience and checkpoint selection; or the `hard-lloyd` control. docs/training.md defines every
// choice the paper leaves open. Bit-reproducible on the CPU for a fixed seed and thread count.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "util/progress.h"

namespace once {

struct SketchCache;
class CacheReader;

struct FitConfig {
    std::int64_t codewords = 8192;         ///< K
    std::string method = "sinkhorn";       ///< "sinkhorn" | "hard-lloyd"
    std::string weights = "source-count";  ///< "source-count" | "uniform"
    double alpha = 0.5;                    ///< long-tail exponent (0: off)
    std::string init = "refined";          ///< "refined" | "sampled"
    std::int64_t candidates = 65536;
    int initIterations = 3;
    std::int64_t batch = 65536;
    double epsilon = 0.05;
    int sinkhornIterations = 5;
    double lr = 1e-3, weightDecay = 1e-2, beta1 = 0.9, beta2 = 0.999, adamEps = 1e-8;
    double gradClip = 1.0;
    double commitment = 0.25, usage = 0.01;
    double tauStart = 1.0, tauMin = 0.01, tauDecay = 0.999;
    int epochs = 5, patience = 2;
    int lloydIterations = 20;  ///< hard-lloyd rounds after the initialiser
    std::uint64_t seed = 42;
    std::string selection = "weighted-cosine-error";

    std::string toJson() const;  ///< every field, for the codebook metadata
    /// OnceError naming the option (as the CLI spells it) on a meaningless value: NaN or
    /// infinite reals, lr/epsilon/adam-eps/tau ≤ 0, betas outside [0, 1), tau-decay outside
    /// (0, 1], negative weights of loss terms, K/batch/candidates/patience < 1, negative counts.
    void validate() const;
};

/// ω_u = w_u · p_{g_u}^{−α} ("source-count"; p_g = share of representatives in category g,
/// factor 1 for category −1) or ω = 1 ("uniform"). Returns F64 [U].
at::Tensor effectiveWeights(const at::Tensor& weights, const at::Tensor& category,
                            const std::string& mode, double alpha);

/// One Stage-B step's loss terms and the gradient with respect to the codebook parameter.
struct StepResult {
    at::Tensor grad;  ///< [K, D] F32
    double loss = 0, reconstruction = 0, commitment = 0, usage = 0;
};
/// x [B, D] unit rows, a [B] row marginal (Σ = 1), codebook [K, D] (the raw parameter; the
/// codewords are its normalised rows), gumbel [B, K] standard Gumbel noise, temperature τ.
StepResult stageBStep(const at::Tensor& x, const at::Tensor& a, const at::Tensor& codebook,
                      const at::Tensor& gumbel, double tau, const FitConfig& config);

/// ω-weighted mean of 1 − max_k cos(r_u, c_k): the checkpoint-selection criterion.
double weightedCosineError(const at::Tensor& repsUnitOrBf16, const at::Tensor& omega,
                           const at::Tensor& codebook);

struct FitResult {
    at::Tensor codebook;  ///< [K, D] F32 unit rows of the selected epoch
    int selectedEpoch = 0;
    std::vector<double> criterion;                ///< per evaluated epoch (0 = initialiser)
    std::string historyJson;                      ///< per-epoch losses and criterion
    std::string dataSha256;                       ///< trainingDataSha256 of the inputs
    bool resumed = false;                         ///< continued from a saved state
    std::map<std::string, std::string> metadata;  ///< for Codebook::save (no path, no time)
};

/// SHA-256 over the dtype, shape and bytes of reps, weights and category: what a fit depends
/// on, independent of where the cache lies (provenance and resume checks).
std::string trainingDataSha256(const at::Tensor& reps, const at::Tensor& weights,
                               const at::Tensor& category);

/// Fits on raw cache tensors (reps [U, D] any float dtype, weights/category [U]).
/// `resumeState` (optional file): after the initialiser and after every finished epoch (or
/// hard-Lloyd round) the whole optimiser state is written there atomically; a later call with
/// the same file, configuration and data continues from it and returns the bits an
/// uninterrupted run would (noise and batches depend only on seed, epoch and step). A state of
/// other options or data is refused naming the differing option, and so is one whose counters or
/// tensors this fit could not have written (train/fit_state.h). The caller deletes the file once
/// the codebook is saved; a state this call created is removed when the fit fails.
/// A loss or criterion that is not a finite number (divergence) is an OnceError naming `lr`.
/// Cancellation: `progress` throws Cancelled at the next step (the state is kept).
FitResult fitCodebook(const at::Tensor& reps, const at::Tensor& weights, const at::Tensor& category,
                      const FitConfig& config, Progress* progress = nullptr,
                      const std::string& resumeState = {});
FitResult fitCodebook(const SketchCache& cache, const FitConfig& config,
                      Progress* progress = nullptr, const std::string& resumeState = {});
/// The same fit streamed from a mapped cache (train/cache_reader.h): mini-batches and the
/// criterion's tiles are copied out of the shard files as they are needed, so memory is bounded
/// by the mini-batch (B×K and B×D working matrices, docs/training.md "Memory") plus O(U) small
/// columns, not by the corpus. Returns the bits fitCodebook(SketchCache::load(dir), ...)
/// returns, metadata and resume states included. `hard-lloyd` (the control) still reads every
/// row into memory.
FitResult fitCodebook(const CacheReader& cache, const FitConfig& config,
                      Progress* progress = nullptr, const std::string& resumeState = {});
/// trainingDataSha256 of the loaded cache's reps, weights and category, hashed shard by shard.
std::string trainingDataSha256(const CacheReader& cache);

}  // namespace once
