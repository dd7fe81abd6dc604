#include "io/npy.h"

#include <ATen/ATen.h>

#include <cstring>
#include <regex>

#include "io/mapped_file.h"
#include "util/error.h"

namespace once {

at::Tensor readNpy(const std::string& path) {
    auto file = MappedFile::open(path);
    const std::uint8_t* p = file->data();
    const std::size_t size = file->size();
    if (size < 10 || std::memcmp(p, "\x93NUMPY", 6) != 0) {
        fail("not a .npy file", path, "magic", "\\x93NUMPY", "other bytes");
    }
    const int major = p[6];
    std::size_t headerLen = 0, pos = 0;
    if (major == 1) {
        headerLen = std::size_t(p[8]) | (std::size_t(p[9]) << 8);
        pos = 10;
    } else if (major == 2 || major == 3) {
        if (size < 12) {
            fail("truncated .npy header", path, "header length");
        }
        headerLen = std::size_t(p[8]) | (std::size_t(p[9]) << 8) | (std::size_t(p[10]) << 16) |
                    (std::size_t(p[11]) << 24);
        pos = 12;
    } else {
        fail("unsupported .npy version", path, "version", "1, 2 or 3", std::to_string(major));
    }
    if (headerLen > size - pos) {
        fail("truncated .npy header", path, "header length", "<= " + std::to_string(size - pos),
             std::to_string(headerLen));
    }
    const std::string header(reinterpret_cast<const char*>(p + pos), headerLen);
    std::smatch m;
    if (!std::regex_search(header, m, std::regex(R"('descr'\s*:\s*'([^']*)')"))) {
        fail("no descr in .npy header", path, "descr");
    }
    const std::string descr = m[1];
    if (std::regex_search(header, m, std::regex(R"('fortran_order'\s*:\s*(True|False))")) &&
        m[1] == "True") {
        fail("Fortran-ordered arrays are not supported", path, "fortran_order", "False", "True");
    }
    if (!std::regex_search(header, m, std::regex(R"('shape'\s*:\s*\(([^)]*)\))"))) {
        fail("no shape in .npy header", path, "shape");
    }
    std::vector<std::int64_t> shape;
    const std::string dims = m[1];
    const std::regex digits(R"(\d+)");
    std::sregex_iterator it(dims.begin(), dims.end(), digits), end;
    for (; it != end; ++it) {
        shape.push_back(std::stoll(it->str()));
    }
    at::ScalarType type;
    if (descr == "<f4") {
        type = at::kFloat;
    } else if (descr == "<f2") {
        type = at::kHalf;
    } else if (descr == "<f8") {
        type = at::kDouble;
    } else if (descr == "<i4") {
        type = at::kInt;
    } else if (descr == "<i8") {
        type = at::kLong;
    } else if (descr == "|u1") {
        type = at::kByte;
    } else {
        fail("unsupported .npy dtype", path, "descr", "<f2, <f4, <f8, <i4, <i8 or |u1", descr);
    }
    at::Tensor t = at::empty(shape, at::TensorOptions().dtype(type));
    const std::size_t bytes = std::size_t(t.nbytes());
    const std::size_t dataPos = pos + headerLen;
    if (size - dataPos != bytes) {
        fail(".npy data size does not match its shape", path, "data",
             std::to_string(bytes) + " bytes", std::to_string(size - dataPos) + " bytes");
    }
    if (bytes) {
        std::memcpy(t.data_ptr(), p + dataPos, bytes);
    }
    return t;
}

}  // namespace once
