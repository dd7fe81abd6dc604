// fuzz-sources: core/io/npy_header.cpp core/io/dtype.cpp core/util/error.cpp
// libFuzzer target for the .npy header parser: any byte string either parses into a header
// whose data area is exactly the rest of the buffer and whose shape multiplies to the element
// count, or throws OnceError. Crashes, other exceptions and sanitizer reports are bugs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "io/npy_header.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const once::NpyHeader h = once::parseNpyHeader({data, size}, "fuzz.npy");
        std::uint64_t n = 1;
        for (std::int64_t d : h.shape) {
            if (d < 0) {
                std::abort();
            }
            n *= std::uint64_t(d);
        }
        if (n != h.elements || h.shape.size() > once::kMaxNpyDims ||
            h.dataOffset + h.dataBytes != size ||
            h.dataBytes != h.elements * once::dtypeSize(h.dtype)) {
            std::abort();
        }
    } catch (const once::OnceError&) {
    }
    return 0;
}
