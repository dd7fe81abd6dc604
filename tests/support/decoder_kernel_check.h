#pragma once
// A decoder-kernel set (models/decoder_kernels.h) against the ATen reference on the same device
// and inputs: the case of the backend loop (backend_check.h) for the decoder seam. Qt-free:
// compress_test_backends_<device backend> asserts on it, `bench_gpu check` prints it on the GPU
// machine, and models_test_decoder_kernels runs the harness itself on the CPU (the reference
// passes, a perturbed kernel fails).
//
// Inputs have the published head geometry scaled down in width (14 query and 2 key/value heads of
// 64, Qwen2-0.5B's grouping; 3584-wide rows, the 7B model's hidden size, for the norm). How far a
// kernel may be from the reference (KernelRule), with ε the type's machine epsilon (2⁻⁷ BF16,
// 2⁻¹⁰ F16, 2⁻²³ F32):
// - SameRoundings (rotary store, SiLU product): the same operations rounded in the same order,
//   so in BF16/F16 identical but where another library's cos/sin/exp moves one rounding: at most
//   1 % of the elements, by at most ε; in F32, with no rounding to absorb those, within 8ε of the
//   output's scale (x₁c − x₂s cancels);
// - SumOrder (RMSNorm): the mean of squares summed in another order: in BF16/F16 at most 2 % of
//   the elements differ, by at most 3ε (the normalised value and the product may each round the
//   other way, 2ε, measured up to 1.8ε on the CPU); in F32 within 1e-5 relative;
// - Attention (a decoding step's cached attention): within 4ε of the output's scale (1e-5 in
//   F32; flash kernels take no F32, which falls back to the reference).
// The rotary store is also checked to write exactly the rows of its positions.
#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

#include "models/decoder_kernels.h"
#include "support/backend_check.h"

namespace once::test {

enum class KernelRule { SameRoundings, SumOrder, Attention };

/// How far `got` is from `want` (same shape, any device and type).
struct Comparison {
    double scale = 0;          ///< max |want|
    double worstRelative = 0;  ///< max |got − want| / max(|want|, 1e-3 · scale)
    double worstScaled = 0;    ///< max |got − want| / scale
    double differing = 0;      ///< fraction of elements not identical
    std::string text() const;
};
Comparison compareOutputs(const at::Tensor& got, const at::Tensor& want);
/// Whether `c` is within `rule` for outputs of `type` (the rules above).
bool withinRule(const Comparison& c, KernelRule rule, at::ScalarType type);

/// Runs every case for `kernels` (every member filled) on `device`, seeded.
std::vector<BackendCheck> checkDecoderKernels(const DecoderKernels& kernels,
                                              const std::string& device);

}  // namespace once::test
