#include "util/dtype_choice.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "util/device.h"
#include "util/error.h"

namespace once {
namespace {

#if defined(__x86_64__)
// XCR0: which register states the OS saves on a context switch. AVX-512 needs opmask, ZMM
// upper halves and ZMM16-31 (bits 5–7) besides SSE/AVX (1–2); AMX needs TILECFG and TILEDATA
// (bits 17–18). Without them the instructions fault even though cpuid lists them.
std::uint64_t xcr0() {
    std::uint32_t eax = 0, edx = 0;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return (std::uint64_t(edx) << 32) | eax;
}
#endif

}  // namespace

CpuBf16Support cpuBf16Support() {
    CpuBf16Support s;
#if defined(__x86_64__)
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) {  // OSXSAVE: xgetbv is allowed
        return s;
    }
    const std::uint64_t os = xcr0();
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
        return s;
    }
    const bool avx512f = (b >> 16) & 1u;
    const bool amxBf16 = (d >> 22) & 1u, amxTile = (d >> 24) & 1u;
    const bool avx512State = (os & 0xE6) == 0xE6;
    const bool tileState = (os & (3ull << 17)) == (3ull << 17);
    unsigned a1 = 0, b1 = 0, c1 = 0, d1 = 0;
    const bool leaf1 = __get_cpuid_count(7, 1, &a1, &b1, &c1, &d1);
    s.avx512bf16 = avx512f && avx512State && leaf1 && ((a1 >> 5) & 1u);
    // Linux enables TILEDATA per process on request (arch_prctl), which oneDNN makes before its
    // first AMX kernel; XCR0 already lists it where the kernel supports AMX.
    s.amxBf16 = amxBf16 && amxTile && tileState;
#endif
    return s;
}

DtypeChoice chooseComputeDtype(const std::string& requested, const std::string& device,
                               const std::string& field) {
    DtypeChoice c;
    c.requested = requested;
    if (requested == "float32" || requested == "f32" || requested == "fp32") {
        c.resolved = "float32";
    } else if (requested == "float16" || requested == "f16" || requested == "fp16" ||
               requested == "half") {
        c.resolved = "float16";
    } else if (requested == "bfloat16" || requested == "bf16") {
        c.resolved = "bfloat16";
    } else if (requested != "auto") {
        fail("unsupported dtype", {}, field, "auto, float32, float16 or bfloat16", requested);
    }
    if (!c.resolved.empty()) {
        c.reason = "requested";
        return c;
    }
    const bool gpu = device.rfind("cuda", 0) == 0 || (device == "auto" && cudaDeviceAvailable());
    if (gpu) {
        c.resolved = "bfloat16";
        c.reason = "auto: GPU";
        return c;
    }
    const CpuBf16Support s = cpuBf16Support();
    if (s.native()) {
        c.resolved = "bfloat16";
        c.reason =
            std::string("auto: CPU has ") + (s.avx512bf16 && s.amxBf16 ? "AVX512-BF16 and AMX-BF16"
                                             : s.avx512bf16            ? "AVX512-BF16"
                                                                       : "AMX-BF16");
    } else {
        c.resolved = "float32";
        c.reason = "auto: CPU without native BF16 (no AVX512-BF16 or AMX)";
    }
    return c;
}

std::string resolveComputeDtype(const std::string& requested, const std::string& device,
                                const std::string& field) {
    return chooseComputeDtype(requested, device, field).resolved;
}

}  // namespace once
