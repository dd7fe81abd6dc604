#pragma once
// Feature file (DESIGN §2): cached encoder output of one video.
//   tensors: features [T, P, D] (BF16 or F32), frame_times [T] F64 seconds, and optionally
//            layout_tokens [n, D] (special tokens the backbone adds back after compression,
//            e.g. LLaVA-OneVision's image_newline; never compressed) and attention [T, P] F32
//            (the attention each token received in the vision tower, for FastVID's salient
//            tokens and VisionZip's dominant ones; absent for backbones without attention)
//   metadata: format once-features/1, backbone, grid "HxW", sampling, source, source_sha256,
//             feature_source, plus free-form extras.
#include <ATen/core/Tensor.h>

#include <map>
#include <string>

namespace once {

struct FeatureFile {
    static constexpr const char* kFormat = "once-features/1";

    at::Tensor features;    ///< [T, P, D]
    at::Tensor frameTimes;  ///< [T] float64 seconds
    /// [n, D] layout tokens in the features' dtype; undefined or [0, D] when the backbone has
    /// none (the demo encoder).
    at::Tensor layoutTokens;
    /// [T, P] F32 attention received per content token; undefined when the file has none.
    at::Tensor attention;
    std::string backbone;
    std::string grid;  ///< "27x27"
    std::string sampling;
    std::string source;
    std::string sourceSha256;
    std::string featureSource;
    std::map<std::string, std::string> extra;

    /// Loads and validates (checkFeatureFile in feature_check.h: shapes, types, grid, no NaN or
    /// Inf). Throws OnceError naming the file and field. The features tensor maps the file.
    static FeatureFile load(const std::string& path);
    /// Writes atomically.
    void save(const std::string& path) const;
};

}  // namespace once
