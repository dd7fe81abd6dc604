// fuzz-sources: core/features/feature_check.cpp core/io/safetensors.cpp
// fuzz-sources: core/io/finite_values.cpp core/io/dtype.cpp core/io/mapped_file.cpp
// fuzz-sources: core/util/error.cpp core/util/atomic_file.cpp core/util/regular_file.cpp
// libFuzzer target for feature-file validation (what FeatureFile::load checks before it makes any
// tensor): a safetensors image is parsed and checked as a feature file. It must either pass (then
// its tensors have the documented shapes and finite values) or throw OnceError.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "features/feature_check.h"
#include "io/safetensors.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const once::SafetensorsHeader h = once::parseSafetensors({data, size}, "fuzz.safetensors");
        once::checkFeatureFile(h, {data, size}, "fuzz.safetensors");
        const once::TensorEntry* f = nullptr;
        for (const auto& t : h.tensors) {
            if (t.name == "features") {
                f = &t;
            }
        }
        if (!f || f->shape.size() != 3 || !once::dtypeIsFloat(f->dtype)) {
            std::abort();  // accepted without valid features
        }
    } catch (const once::OnceError&) {
    }
    return 0;
}
