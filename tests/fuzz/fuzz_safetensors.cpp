// fuzz-sources: core/io/safetensors.cpp core/io/dtype.cpp core/io/mapped_file.cpp
// fuzz-sources: core/util/regular_file.cpp
// fuzz-sources: core/util/error.cpp core/util/atomic_file.cpp
// libFuzzer target for the safetensors header parser: any byte string must either parse into a
// header whose spans lie inside the buffer and match shape x element size, or throw OnceError.
// Crashes, other exceptions and sanitizer reports are bugs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "io/safetensors.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        auto h = once::parseSafetensors({data, size}, "fuzz");
        for (const auto& t : h.tensors) {
            if (h.dataOffset + t.end > size || t.begin > t.end) {
                std::abort();  // a validated span outside the buffer
            }
            if (t.shape.size() > once::kMaxSafetensorsRank) {
                std::abort();
            }
            // The byte span must equal shape x element size (no overflow hidden in numel()).
            std::uint64_t n = 1;
            for (auto d : t.shape) {
                if (d < 0) {
                    std::abort();
                }
                n *= std::uint64_t(d);
            }
            if (n * once::dtypeSize(t.dtype) != t.end - t.begin) {
                std::abort();
            }
        }
    } catch (const once::OnceError&) {
    }
    return 0;
}
