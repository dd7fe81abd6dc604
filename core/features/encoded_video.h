#pragma once
// One video after its frozen visual encoder: the one type that every part of the product passes
// around. Encoders produce it (models/visual_encoder.h), the feature file serialises it
// (features/feature_file.h), the compressors take it (compress/token_compressor.h), the pipeline
// session keeps it, Stage A sketches it (train/sketch_cache.h), and the studio wraps it with its
// pictures (widgets/session/video_data.h).
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace once {

/// The most video frames one feature frame may stand for (EncodedVideo::temporalPatchSize), as
/// read from a feature file or a model's config.
constexpr int kMaxTemporalPatchSize = 64;

struct EncodedVideo {
    EncodedVideo() = default;
    /// Content tokens only; everything else unknown (tests, tools).
    explicit EncodedVideo(at::Tensor content) : features(std::move(content)) {}

    at::Tensor features;  ///< [T, P, D] content tokens, frame-major (any float dtype, any device)
    /// [n, D] special/layout tokens the backbone adds back after compression and never
    /// compresses (LLaVA-OneVision's image_newline); undefined or [0, D] when there are none.
    at::Tensor layoutTokens;
    /// [T, P] F32 attention each content token received in the vision tower (pooled like the
    /// features), for the peers that rank tokens by it; undefined when the backbone has none.
    at::Tensor attention;
    /// [T, G] optional per-frame global descriptor (e.g. SigLIP's pooled head). Undefined: the
    /// methods that need one use the frame's mean token.
    at::Tensor frameGlobals;
    /// [T] seconds of each feature frame in the source video; empty when unknown (frame index).
    std::vector<double> frameTimes;
    int gridH = 0, gridW = 0;   ///< P = gridH × gridW; 0 × 0 when unknown
    /// Video frames merged into one feature frame by the encoder (Qwen3.5's temporal patch: 2,
    /// ceil(frames / 2) feature frames, the last pair padded); 1 for every other encoder.
    /// 1 … kMaxTemporalPatchSize; feature files: "temporal_patch_size".
    int temporalPatchSize = 1;
    std::string backbone;       ///< encoder name, checked against a codebook's
    std::string featureSource;  ///< e.g. "projected patch grid"

    // Provenance, written into feature files (DESIGN §2).
    std::string sampling;      ///< sampling rule, e.g. "uniform:32"
    std::string source;        ///< file name of the source video
    std::string sourceSha256;  ///< of the source video (encode/encode_job.h sourceSha256)
    std::map<std::string, std::string> extra;  ///< free-form metadata (frame indices, fps, …)

    bool empty() const { return !features.defined(); }
    std::int64_t numFrames() const { return features.defined() ? features.size(0) : 0; }
    std::int64_t patchesPerFrame() const { return features.defined() ? features.size(1) : 0; }
    std::int64_t numTokens() const { return numFrames() * patchesPerFrame(); }
    std::int64_t dim() const { return features.defined() ? features.size(2) : 0; }
    std::int64_t layoutTokenCount() const {
        return layoutTokens.defined() && layoutTokens.dim() == 2 ? layoutTokens.size(0) : 0;
    }
    /// frameTimes as a [T] F64 CPU tensor; undefined when unknown.
    at::Tensor frameTimesTensor() const;
    /// "27x27", or "" when the grid is unknown.
    std::string gridText() const;
    /// Sets an unknown grid to the most square gridH × gridW = P (LLaVA's grids are square);
    /// a known grid is kept.
    void fillUnknownGrid();
};

/// The most square factorisation h × w = patches with h <= w (1 × patches for a prime).
std::pair<int, int> mostSquareGrid(std::int64_t patches);

}  // namespace once
