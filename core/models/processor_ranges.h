#pragma once
// The limits every backbone's processor reader applies to a model folder's untrusted processor
// files (LLaVA-OneVision's SigLIP settings, Qwen3.5's video processor): one range per setting,
// one error for a value outside it.
#include <cstddef>
#include <cstdint>
#include <string>

namespace once {

/// Largest processor file read (bytes): they are a few kilobytes; anything this large is not one.
constexpr std::size_t kMaxProcessorFileBytes = std::size_t(4) << 20;

/// Largest processor image side accepted from a file (pixels): far above any published model
/// (SigLIP 384, 512), small enough that one resized frame stays a few hundred megabytes.
constexpr std::int64_t kMaxProcessorSide = 8192;

/// Ranges of a processor file's normalisation, which turns a pixel x in [0, 255] into
/// (x · rescale_factor − mean) / std: every published processor lies well inside (rescale 1/255
/// or 1/127.5, CLIP/SigLIP/ImageNet statistics, even in 0-255 units), and inside them no input
/// overflows F32 or BF16 (|value| <= 5.1e5), so a mean of 1e300 or a std of 1e-300 cannot turn
/// the features into NaN.
constexpr double kMinRescaleFactor = 1e-6, kMaxRescaleFactor = 1.0;
constexpr double kMaxAbsImageMean = 255.0;
constexpr double kMinImageStd = 1e-3, kMaxImageStd = 255.0;

/// Throws OnceError naming `file` and `field` unless `value` lies in [lo, hi] (NaN never does).
void checkProcessorRange(double value, double lo, double hi, const std::string& file,
                         const std::string& field);

}  // namespace once
