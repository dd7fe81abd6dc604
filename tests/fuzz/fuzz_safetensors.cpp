// libFuzzer target for the safetensors header parser: any byte string must either parse into a
// header whose spans lie inside the buffer, or throw OnceError. Crashes, other exceptions and
// sanitizer reports are bugs.
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
        }
    } catch (const once::OnceError&) {
    }
    return 0;
}
