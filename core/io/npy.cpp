#include "io/npy.h"

#include <ATen/ATen.h>

#include <cstring>

#include "io/mapped_file.h"
#include "io/npy_header.h"
#include "io/tensor_io.h"

namespace once {

at::Tensor readNpy(const std::string& path) {
    auto file = MappedFile::open(path);
    // The header is validated against the file size before anything is allocated.
    const NpyHeader h = parseNpyHeader({file->data(), file->size()}, path);
    at::Tensor t = at::empty(h.shape, at::TensorOptions().dtype(toScalarType(h.dtype)));
    if (h.dataBytes) {
        std::memcpy(t.data_ptr(), file->data() + h.dataOffset, std::size_t(h.dataBytes));
    }
    return t;
}

}  // namespace once
