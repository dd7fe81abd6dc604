// Qwen3.5's visual front end as the VisualEncoder "qwen3.5": the video processor and the vision
// tower of the folder (qwen3_5_encoder.h). One feature frame per temporal group of two frames,
// the merged grid (h/2 × w/2 cells of 32 × 32 resized pixels) as the token grid, and the mean
// time of each pair as the frame time, which is the timestamp the prompt writes before the
// group. Content tokens only: Qwen's layout tokens are text (models/qwen3_5/qwen3_5_backbone.cpp).
#include "models/qwen3_5/qwen3_5_visual_encoder.h"

#include <ATen/ATen.h>

#include "models/qwen3_5/qwen3_5_encoder.h"
#include "util/error.h"

namespace once {
namespace {

class Qwen3_5VisualEncoder : public VisualEncoder {
  public:
    explicit Qwen3_5VisualEncoder(const EncoderOptions& o)
        : encoder_(requireFolder(o.modelDir), o.device, o.dtype), options_(o) {}

    std::string backbone() const override { return "qwen3.5"; }
    std::string featureSource() const override { return "merged patch grid (2x2 merger output)"; }
    std::int64_t dim() const override { return encoder_.config().vision.outHiddenSize; }

    std::vector<std::string> notices() const override {
        std::vector<std::string> n;
        if (!encoder_.settings().notice.empty()) {
            n.push_back(encoder_.settings().notice);
        }
        if (options_.poolStride != 1) {
            n.push_back("--pool-stride " + std::to_string(options_.poolStride) +
                        " applies to LLaVA-OneVision only: Qwen3.5's vision tower merges 2x2 "
                        "patches itself");
        }
        return n;
    }

    std::vector<double> featureFrameTimes(const std::vector<double>& times,
                                          const std::vector<std::int64_t>& indices,
                                          double fps) const override {
        const std::int64_t tp = encoder_.settings().temporalPatchSize;
        // transformers' processor: frame index / video fps, the mean of each pair's first and
        // last; the decoded times when the rate is unknown.
        if (fps > 0 && !indices.empty()) {
            return qwen3_5GroupTimestamps(indices, fps, tp);
        }
        return times.empty() ? times : qwen3_5GroupTimestamps(times, tp);
    }

  protected:
    EncodedVideo encodeFrames(const at::Tensor& frames, Progress* progress) override {
        if (progress) {
            progress->begin("encoding " + std::to_string(frames.size(0)) + " frames",
                            double(frames.size(0)));
        }
        Qwen3_5PixelValues pv = qwen3_5Preprocess(frames, encoder_.settings());
        const std::int64_t m = encoder_.config().vision.spatialMergeSize;
        EncodedVideo out;
        at::Tensor f = encoder_.encodePixels(pv);
        out.features = f.view({pv.grid.t, (pv.grid.h / m) * (pv.grid.w / m), f.size(-1)});
        out.layoutTokens = at::zeros({0, f.size(-1)}, f.options());
        out.gridH = int(pv.grid.h / m);
        out.gridW = int(pv.grid.w / m);
        // What the overlay and the prompt need to map a token back: each feature frame is a
        // pair of frames, each cell 2x2 patches of 16 pixels of the resized frame.
        out.temporalPatchSize = int(encoder_.settings().temporalPatchSize);
        out.extra["spatial_merge_size"] = std::to_string(m);
        out.extra["patch_grid"] = std::to_string(pv.grid.t) + "x" + std::to_string(pv.grid.h) +
                                  "x" + std::to_string(pv.grid.w);
        out.extra["frames_in"] = std::to_string(frames.size(0));
        if (progress) {
            progress->update(double(frames.size(0)));
        }
        return out;
    }

  private:
    static const std::string& requireFolder(const std::string& dir) {
        if (dir.empty()) {
            fail("the qwen3.5 backbone needs its model folder", {}, "model",
                 "--model DIR (a Qwen3.5 Hugging Face folder)", "none");
        }
        return dir;
    }

    Qwen3_5VideoEncoder encoder_;
    EncoderOptions options_;
};

}  // namespace

std::unique_ptr<VisualEncoder> makeQwen3_5VisualEncoder(const EncoderOptions& options) {
    return std::make_unique<Qwen3_5VisualEncoder>(options);
}

}  // namespace once
