// Demo encoder: see demo_encoder.h for the descriptor layout.
#include "models/demo_encoder.h"

#include <ATen/ATen.h>

#include "models/visual_encoder.h"
#include "util/error.h"

namespace once {
namespace {

constexpr int G = kDemoEncoderGrid;
constexpr int S = kDemoEncoderPatch;
constexpr int kSide = G * S;        // 378
constexpr std::int64_t kChunk = 8;  // frames per batch: bounds memory (≈ 60 MB per chunk)

/// Mean over each patch: [T, C, 378, 378] -> [T, C, 27, 27].
at::Tensor patchMean(const at::Tensor& x) {
    return at::avg_pool2d(x, {S, S}, {S, S});
}

/// Per-patch means of `cells`×`cells` sub-blocks, as [T, C·cells², 27, 27] (channel-major).
at::Tensor subBlocks(const at::Tensor& x, int cells) {
    const auto t = x.size(0), c = x.size(1);
    at::Tensor p = at::adaptive_avg_pool2d(x, {G * cells, G * cells});  // [T, C, 27c, 27c]
    p = p.view({t, c, G, cells, G, cells}).permute({0, 1, 3, 5, 2, 4});
    return p.reshape({t, c * cells * cells, G, G});
}

/// Histogram per pixel as channels: out[:, b] = weight where bin == b.
at::Tensor binned(const at::Tensor& bins, const at::Tensor& weight, int nbins) {
    auto sizes = weight.sizes().vec();
    sizes[1] = nbins;
    return at::zeros(sizes, weight.options()).scatter_(1, bins, weight);
}

class DemoEncoder : public VisualEncoder {
  public:
    explicit DemoEncoder(const EncoderOptions& o) : options_(o) {
        // "auto" means the CPU here: the descriptors are cheap and weight-free.
        if (o.device != "cpu" && o.device != "auto") {
            fail("the demo encoder runs on the CPU only", {}, "device", "cpu or auto", o.device);
        }
        if (o.poolStride != 1 && o.poolStride != 2) {
            fail("pool stride must be 1 or 2", {}, "pool-stride", "1 or 2",
                 std::to_string(o.poolStride));
        }
    }
    std::string backbone() const override { return "demo"; }
    std::string featureSource() const override {
        return options_.poolStride == 2 ? "demo patch descriptors, bilinear 14x14"
                                        : "demo patch descriptors";
    }
    std::int64_t dim() const override { return kDemoEncoderDim; }

  protected:
    EncodedVideo encodeFrames(const at::Tensor& frames, Progress* progress) override {
        if (frames.dim() != 4 || frames.size(3) != 3 || frames.scalar_type() != at::kByte) {
            fail("the demo encoder takes uint8 RGB frames [T, H, W, 3]", {}, "frames",
                 "uint8 [T, H, W, 3]",
                 frames.toString() + " " + std::to_string(frames.dim()) + "-D");
        }
        const std::int64_t t = frames.size(0);
        if (progress) {
            progress->begin("encoding (demo)", double(t));
        }
        std::vector<at::Tensor> parts;
        at::Tensor prevY, prevRgb;
        for (std::int64_t from = 0; from < t; from += kChunk) {
            const std::int64_t to = std::min(t, from + kChunk);
            parts.push_back(encodeChunk(frames.slice(0, from, to), prevY, prevRgb));
            if (progress) {
                progress->update(double(to));
            }
        }
        at::Tensor f = t > 0 ? at::cat(parts, 0)
                             : at::zeros({0, G, G, kDemoEncoderDim}, at::kFloat);  // [T,G,G,D]
        EncodedVideo out;
        out.gridH = out.gridW = G;
        if (options_.poolStride == 2) {
            // LLaVA-OneVision's get_2dPool: bilinear 27×27 -> 14×14.
            f = at::upsample_bilinear2d(f.permute({0, 3, 1, 2}), {14, 14}, false)
                    .permute({0, 2, 3, 1});
            out.gridH = out.gridW = 14;
        }
        out.features =
            f.reshape({t, std::int64_t(out.gridH) * out.gridW, kDemoEncoderDim}).contiguous();
        out.layoutTokens = at::zeros({0, kDemoEncoderDim}, at::kFloat);
        return out;
    }

  private:
    /// frames uint8 [t, H, W, 3] -> descriptors [t, 27, 27, 64]. prevY/prevRgb carry the last
    /// frame of the previous chunk (luminance image and patch-mean colours).
    static at::Tensor encodeChunk(const at::Tensor& frames, at::Tensor& prevY,
                                  at::Tensor& prevRgb) {
        const auto t = frames.size(0);
        // Resize while still uint8: ATen's antialiased bilinear has a vectorised uint8
        // channels-last path (frames [T, H, W, 3] permuted are channels-last already) that is
        // >10x faster than the float one on 720p input; the result is rounded to the 8-bit
        // grid the pixels came on.
        at::Tensor u8 = frames.permute({0, 3, 1, 2});
        if (u8.size(2) != kSide || u8.size(3) != kSide) {
            u8 = at::_upsample_bilinear2d_aa(u8, {kSide, kSide}, false);
        }
        at::Tensor x = u8.to(at::kFloat).div_(255.f).contiguous();
        at::Tensor r = x.select(1, 0), g = x.select(1, 1), b = x.select(1, 2);
        at::Tensor y = (0.299f * r + 0.587f * g + 0.114f * b).unsqueeze(1);  // [t,1,378,378]

        // Colour.
        at::Tensor meanRgb = patchMean(x);
        at::Tensor stdRgb = (patchMean(x * x) - meanRgb * meanRgb).clamp_min_(0.f).sqrt_();
        at::Tensor mx = std::get<0>(x.max(1)), mn = std::get<0>(x.min(1));
        at::Tensor delta = mx - mn;
        at::Tensor sat = (delta / mx.clamp_min(1e-6f)).unsqueeze(1);
        at::Tensor d = delta.clamp_min(1e-6f);
        at::Tensor hue = at::where(mx == r, at::fmod((g - b) / d + 6.f, 6.f),
                                   at::where(mx == g, (b - r) / d + 2.f, (r - g) / d + 4.f));
        at::Tensor hueBin = (hue * (8.f / 6.f)).floor_().clamp_(0, 7).to(at::kLong).unsqueeze(1);
        at::Tensor hueHist = patchMean(binned(hueBin, sat, 8));

        // Luminance layout.
        at::Tensor meanY = patchMean(y);
        at::Tensor layout = subBlocks(y, 4) - meanY;

        // Gradients (central differences, replicated border).
        at::Tensor yp = at::replication_pad2d(y, {1, 1, 1, 1});
        at::Tensor gx = yp.slice(3, 2).slice(2, 1, -1) - yp.slice(3, 0, -2).slice(2, 1, -1);
        at::Tensor gy = yp.slice(2, 2).slice(3, 1, -1) - yp.slice(2, 0, -2).slice(3, 1, -1);
        at::Tensor mag = (gx * gx + gy * gy).sqrt_();
        at::Tensor theta = at::atan2(gy, gx);
        theta = at::where(theta < 0, theta + float(M_PI), theta);  // unsigned: [0, π]
        at::Tensor bin8 = (theta * float(8 / M_PI)).floor_().clamp_(0, 7).to(at::kLong);
        at::Tensor orient = patchMean(binned(bin8, mag, 8));
        at::Tensor cells = subBlocks(binned(at::floor_divide(bin8, 2), mag, 4), 2);

        // Texture.
        at::Tensor lap = 4 * y - yp.slice(3, 2).slice(2, 1, -1) -
                         yp.slice(3, 0, -2).slice(2, 1, -1) - yp.slice(2, 2).slice(3, 1, -1) -
                         yp.slice(2, 0, -2).slice(3, 1, -1);
        at::Tensor texture = at::cat({patchMean(mag), patchMean(lap.abs()),
                                      (patchMean(y * y) - meanY * meanY).clamp_min_(0.f).sqrt_(),
                                      patchMean((mag > 0.1f).to(at::kFloat))},
                                     1);

        // Motion against the previous frame.
        at::Tensor prevYs =
            at::cat({prevY.defined() ? prevY : y.slice(0, 0, 1), y.slice(0, 0, t - 1)}, 0);
        at::Tensor prevRgbs = at::cat(
            {prevRgb.defined() ? prevRgb : meanRgb.slice(0, 0, 1), meanRgb.slice(0, 0, t - 1)}, 0);
        at::Tensor motion = at::cat({patchMean((y - prevYs).abs()), meanRgb - prevRgbs}, 1);
        prevY = y.slice(0, t - 1, t).clone();
        prevRgb = meanRgb.slice(0, t - 1, t).clone();

        at::Tensor value = patchMean(mx.unsqueeze(1));
        at::Tensor desc =
            at::cat({(meanRgb - 0.5f) * 2.f, stdRgb * 2.f, hueHist, layout * 4.f, orient * 4.f,
                     cells * 4.f, texture * 2.f, motion * 2.f, patchMean(sat) - 0.3f, value - 0.5f},
                    1);  // [t, 64, 27, 27]
        return desc.permute({0, 2, 3, 1}).contiguous();
    }

    EncoderOptions options_;
};

[[maybe_unused]] const bool registered = [] {
    registerVisualEncoder("demo", [](const EncoderOptions& o) -> std::unique_ptr<VisualEncoder> {
        return std::make_unique<DemoEncoder>(o);
    });
    return true;
}();

}  // namespace
}  // namespace once
