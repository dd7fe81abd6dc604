// fuzz-sources: core/codebook/codebook_file.cpp core/io/safetensors.cpp
// fuzz-sources: core/io/finite_values.cpp core/io/dtype.cpp core/io/mapped_file.cpp
// fuzz-sources: core/util/error.cpp core/util/atomic_file.cpp core/util/regular_file.cpp
// libFuzzer target for codebook-file validation (what Codebook::load checks before it makes the
// tensor): tensor choice, shape, type, the dim/size metadata and finite values. Any byte string
// either yields a 2-D floating tensor of K, D >= 1 or throws OnceError.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "codebook/codebook_file.h"
#include "io/safetensors.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const once::SafetensorsHeader h = once::parseSafetensors({data, size}, "fuzz.safetensors");
        // The first byte picks a --key: none, "codebook" or the first tensor's name.
        std::string key;
        if (size > 8 && data[8] % 3 == 1) {
            key = "codebook";
        } else if (size > 8 && data[8] % 3 == 2 && !h.tensors.empty()) {
            key = h.tensors.front().name;
        }
        const once::TensorEntry& e = once::checkCodebookFile(h, {data, size}, key, "fuzz");
        if (e.shape.size() != 2 || e.shape[0] < 1 || e.shape[1] < 1 ||
            !once::dtypeIsFloat(e.dtype)) {
            std::abort();
        }
    } catch (const once::OnceError&) {
    }
    return 0;
}
