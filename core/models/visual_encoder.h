#pragma once
// A frozen visual front end: RGB frames in, projected visual tokens out (DESIGN §4). Backbones
// register a factory by name ("demo", "llava-onevision"), so a new backbone is one new file.
#include <ATen/core/Tensor.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "util/progress.h"

namespace once {

struct EncoderOptions {
    std::string modelDir;           ///< Hugging Face folder (unused by "demo")
    std::string device = "cpu";     ///< "cpu" or "cuda"
    std::string dtype = "float32";  ///< "float32", "float16", "bfloat16"
    int poolStride = 1;             ///< 1: all 27×27 patches (the paper); 2: bilinear 14×14
    int threads = 0;                ///< 0: library default
};

struct EncodedVideo {
    at::Tensor features;      ///< [T, P, D] content tokens, frame-major
    at::Tensor layoutTokens;  ///< [n, D] special/layout tokens kept apart (e.g. image_newline); may
                              ///< be [0, D]
    int gridH = 0, gridW = 0;  ///< P = gridH × gridW
    /// [T, P] F32 attention each content token received in the vision tower (pooled like the
    /// features), for the peers that rank tokens by it; undefined when the backbone has none.
    at::Tensor attention;
};

class VisualEncoder {
  public:
    virtual ~VisualEncoder() = default;
    virtual std::string backbone() const = 0;       ///< name written into feature files
    virtual std::string featureSource() const = 0;  ///< e.g. "projected patch grid"
    virtual std::int64_t dim() const = 0;           ///< D
    /// frames: uint8 RGB [T, H, W, 3] (any H, W: the encoder does its own preprocessing).
    virtual EncodedVideo encode(const at::Tensor& frames, Progress* progress = nullptr) = 0;
    /// What the user should know about how the model folder was read: settings it lacked and
    /// the defaults used instead (printed by `once encode`, shown by the studio).
    virtual std::vector<std::string> notices() const { return {}; }
};

using VisualEncoderFactory = std::function<std::unique_ptr<VisualEncoder>(const EncoderOptions&)>;

void registerVisualEncoder(const std::string& backbone, VisualEncoderFactory factory);
/// Throws OnceError listing the known backbones when `backbone` is unknown.
std::unique_ptr<VisualEncoder> makeVisualEncoder(const std::string& backbone,
                                                 const EncoderOptions& options);
std::vector<std::string> visualEncoderNames();

}  // namespace once
