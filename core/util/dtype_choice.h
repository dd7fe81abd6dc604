#pragma once
// The compute dtype of the models (encoder and LLM), with "auto" resolved in one place for the
// CLI, the studio and the benchmarks: BF16 where it is computed natively — on a GPU, or on a CPU
// with AVX512-BF16 or AMX (measured: the LLaVA-OneVision-0.5B vision encoder 4.8× faster than F32
// on such a CPU, docs/performance.md) — and F32 elsewhere, where BF16 is emulated and slower.
// Explicit names are validated and made canonical; the numerics each dtype is held to are in
// docs/performance.md ("Tolerances per dtype").
#include <string>

namespace once {

/// What the processor offers for BF16 arithmetic (cpuid; x86-64 only, false elsewhere).
struct CpuBf16Support {
    bool avx512bf16 = false;  ///< AVX512_BF16: VDPBF16PS dot products
    bool amxBf16 = false;     ///< AMX-BF16: tile matrix multiply (and the OS lets us use it)
    bool native() const { return avx512bf16 || amxBf16; }
};
CpuBf16Support cpuBf16Support();

/// One resolved choice, with the reason to show beside it (`once … --json`, studio statistics).
struct DtypeChoice {
    std::string requested;  ///< as given: "auto", "bf16", "float32", …
    std::string resolved;   ///< "float32", "float16" or "bfloat16"
    std::string reason;     ///< e.g. "auto: CPU has AVX512-BF16 and AMX-BF16"
};

/// Resolves a compute dtype name for a device name ("cpu", "cuda", "cuda:N"; "auto" counts as a
/// GPU when one is usable here). Accepts auto, float32/f32/fp32, float16/f16/fp16/half,
/// bfloat16/bf16; throws OnceError naming `field` for anything else.
DtypeChoice chooseComputeDtype(const std::string& requested, const std::string& device,
                               const std::string& field = "dtype");
/// chooseComputeDtype(…).resolved.
std::string resolveComputeDtype(const std::string& requested, const std::string& device,
                                const std::string& field = "dtype");

}  // namespace once
