#pragma once
// The demo encoder (DESIGN §4): weight-free, deterministic patch descriptors on LLaVA-OneVision's
// 27×27 grid, so every feature of the app works without a checkpoint. Registered as backbone
// "demo"; it has no LLM.
//
// Each frame is resized (antialiased bilinear, aspect ratio not kept, as SigLIP) to 378×378 and
// cut into 27×27 patches of 14×14 pixels. A patch becomes D = 64 numbers, in this order:
//   [0, 3)   mean R, G, B, centred: 2·(m − 0.5)
//   [3, 6)   standard deviation of R, G, B (×2)
//   [6, 14)  hue histogram, 8 bins, saturation-weighted (mean over the patch pixels)
//   [14, 30) luminance layout: 4×4 sub-block means minus the patch mean (×4)
//   [30, 38) gradient-orientation histogram, 8 unsigned bins over [0, π), magnitude-weighted (×4)
//   [38, 54) the same with 4 bins in each 2×2 quadrant of the patch (×4)
//   [54, 58) texture: mean gradient magnitude, mean |Laplacian|, luminance std, share of
//            pixels with gradient magnitude > 0.1 (×2)
//   [58, 62) motion: mean |ΔY| and ΔR, ΔG, ΔB of the patch means against the previous frame of
//            the clip (0 for the first frame) (×2)
//   [62, 64) mean saturation − 0.3, mean value (max channel) − 0.5
// Luminance Y = 0.299 R + 0.587 G + 0.114 B in [0, 1]; gradients are central differences.
// The centring and the group weights keep cosine similarity (what ONCE uses) sensitive to
// colour, layout and texture alike. Deterministic for a given thread count.
#include <cstdint>

namespace once {

constexpr std::int64_t kDemoEncoderDim = 64;
constexpr int kDemoEncoderGrid = 27;
constexpr int kDemoEncoderPatch = 14;

}  // namespace once
