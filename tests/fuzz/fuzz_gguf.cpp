// fuzz-sources: core/models/gguf_header.cpp core/models/gguf_types.cpp core/util/error.cpp
// libFuzzer target for the GGUF header parser (metadata and tensor infos): any byte string either
// parses into a header whose tensors lie inside the buffer, within the stated limits, or throws
// OnceError. Crashes, other exceptions, huge allocations (-rss_limit_mb) and sanitizer reports
// are bugs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "models/gguf_header.h"
#include "models/gguf_types.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const once::GgufHeader h = once::parseGgufHeader({data, size}, "fuzz.gguf");
        if (h.kv.size() > once::kMaxGgufMetadataKeys || h.tensors.size() > once::kMaxGgufTensors) {
            std::abort();
        }
        for (const auto& [key, v] : h.kv) {
            if (v.arraySize() > once::kMaxGgufArrayElements) {
                std::abort();
            }
        }
        for (const once::GgufTensorInfo& t : h.tensors) {
            const auto traits = once::ggmlTypeTraits(t.type);
            if (!traits || t.dims.empty() || t.dims.size() > 4) {
                std::abort();
            }
            if (t.offset > size || h.dataOffset > size - t.offset ||
                t.bytes > size - h.dataOffset - t.offset) {
                std::abort();  // a validated tensor outside the buffer
            }
            // Touch the first and last byte: AddressSanitizer reports any read outside.
            if (t.bytes > 0) {
                volatile std::uint8_t x = data[h.dataOffset + t.offset];
                x = data[h.dataOffset + t.offset + t.bytes - 1];
                (void)x;
            }
        }
    } catch (const once::OnceError&) {
    }
    return 0;
}
