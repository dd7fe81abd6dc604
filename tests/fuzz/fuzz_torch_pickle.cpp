// fuzz-sources: core/io/torch_pickle.cpp core/io/pickle_scan.cpp core/io/mapped_file.cpp
// fuzz-sources: core/util/regular_file.cpp core/io/tensor_io.cpp core/io/finite_values.cpp core/io/safetensors.cpp
// fuzz-sources: core/util/atomic_file.cpp
// fuzz-sources: core/io/dtype.cpp core/util/error.cpp
// fuzz-needs: torch
// libFuzzer target for PyTorch .pt files (readTorchStateDict: zip, pickle scan, the tensors built
// from the scan, tensor checks). The first byte picks what the rest is:
//   even: a whole .pt file (the zip container is fuzzed);
//   odd:  the data.pkl of a well-formed zip whose storages data/0..data/2 hold 24, 8 and 0
//         bytes (the pickle is fuzzed deep inside a valid container).
// Every accepted tensor is read element by element through its strides here, in instrumented
// code, so AddressSanitizer reports a tensor reaching outside its storage.
#include <ATen/ATen.h>
#include <caffe2/serialize/inline_container.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "io/torch_pickle.h"
#include "util/error.h"

namespace {

std::vector<std::uint8_t> wrapPickle(const std::uint8_t* data, std::size_t size) {
    std::vector<std::uint8_t> out;
    caffe2::serialize::PyTorchStreamWriter writer([&](const void* p, std::size_t n) {
        const auto* b = static_cast<const std::uint8_t*>(p);
        out.insert(out.end(), b, b + n);
        return n;
    });
    static const float storage0[6] = {1, 2, 3, 4, 5, 6};
    static const std::int64_t storage1[1] = {7};
    writer.writeRecord("data.pkl", data, size);
    writer.writeRecord("data/0", storage0, sizeof storage0);
    writer.writeRecord("data/1", storage1, sizeof storage1);
    writer.writeRecord("data/2", storage0, 0);
    writer.writeEndOfFile();
    return out;
}

// Reads every element of t through its sizes, strides and offset.
void touch(const at::Tensor& t) {
    if (t.numel() == 0 || t.numel() > (1 << 16)) {
        return;
    }
    const auto* base = static_cast<const std::uint8_t*>(t.storage().data());
    const std::int64_t item = t.element_size();
    std::vector<std::int64_t> index(std::size_t(t.dim()), 0);
    volatile std::uint8_t sink = 0;
    for (std::int64_t n = 0; n < t.numel(); ++n) {
        std::int64_t offset = t.storage_offset();
        for (std::int64_t d = 0; d < t.dim(); ++d) {
            offset += index[std::size_t(d)] * t.stride(d);
        }
        for (std::int64_t b = 0; b < item; ++b) {
            sink = sink + base[offset * item + b];
        }
        for (std::int64_t d = t.dim() - 1; d >= 0; --d) {
            if (++index[std::size_t(d)] < t.size(d)) {
                break;
            }
            index[std::size_t(d)] = 0;
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) {
        return 0;
    }
    std::vector<std::uint8_t> file;
    if (data[0] % 2 == 1) {
        file = wrapPickle(data + 1, size - 1);
    } else {
        file.assign(data + 1, data + size);
    }
    try {
        for (const auto& [name, t] : once::readTorchStateDict(file, "fuzz.pt")) {
            touch(t);
        }
    } catch (const once::OnceError&) {
    }
    return 0;
}
