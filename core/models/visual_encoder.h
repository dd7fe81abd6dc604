#pragma once
// A frozen visual front end: RGB frames in, projected visual tokens out (DESIGN §4), made by a
// factory registered by name: each backbone's registerBackbone registers its makeEncoder
// (models/backbone.h: "llava-onevision", "qwen3.5"); the demo encoder, which has no language
// side, calls registerVisualEncoder itself.
#include <ATen/core/Tensor.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "features/encoded_video.h"
#include "util/progress.h"

namespace once {

struct EncoderOptions {
    std::string modelDir;           ///< Hugging Face folder (unused by "demo")
    std::string device = "cpu";     ///< "cpu" or "cuda"
    std::string dtype = "float32";  ///< "float32", "float16", "bfloat16"
    int poolStride = 1;             ///< 1: all 27×27 patches (the paper); 2: bilinear 14×14
    int threads = 0;                ///< 0: library default
};

class VisualEncoder {
  public:
    virtual ~VisualEncoder() = default;
    virtual std::string backbone() const = 0;       ///< name written into feature files
    virtual std::string featureSource() const = 0;  ///< e.g. "projected patch grid"
    virtual std::int64_t dim() const = 0;           ///< D
    /// frames: uint8 RGB [T, H, W, 3] (any H, W: the encoder does its own preprocessing).
    /// Fills the features, layout tokens, grid and attention; encode() of this base class adds
    /// backbone() and featureSource(). Frame times and provenance are the decoder's
    /// (encode/decode_encode.h).
    EncodedVideo encode(const at::Tensor& frames, Progress* progress = nullptr);
    /// What the user should know about how the model folder was read: settings it lacked and
    /// the defaults used instead (printed by `once encode`, shown by the studio).
    virtual std::vector<std::string> notices() const { return {}; }
    /// Seconds of each feature frame, from the sampled frames' times, their indices in the
    /// video and the video's frame rate (0 when unknown). One feature frame per frame (the
    /// default) keeps the times; Qwen3.5's temporal pairs take the mean time of each pair, as
    /// its processor writes them into the prompt.
    virtual std::vector<double> featureFrameTimes(const std::vector<double>& frameTimes,
                                                  const std::vector<std::int64_t>& frameIndices,
                                                  double fps) const {
        (void)frameIndices;
        (void)fps;
        return frameTimes;
    }

  protected:
    virtual EncodedVideo encodeFrames(const at::Tensor& frames, Progress* progress) = 0;
};

using VisualEncoderFactory = std::function<std::unique_ptr<VisualEncoder>(const EncoderOptions&)>;

void registerVisualEncoder(const std::string& backbone, VisualEncoderFactory factory);
/// Throws OnceError listing the known backbones when `backbone` is unknown.
std::unique_ptr<VisualEncoder> makeVisualEncoder(const std::string& backbone,
                                                 const EncoderOptions& options);
std::vector<std::string> visualEncoderNames();

}  // namespace once
