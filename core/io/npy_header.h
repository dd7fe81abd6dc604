#pragma once
// The header of a NumPy .npy file (format versions 1–3), parsed without LibTorch so that the
// parser can be fuzzed on its own (tests/fuzz/fuzz_npy.cpp). io/npy.h turns it into a tensor.
//   "\x93NUMPY" | major | minor | header length (u16 for 1.x, u32 for 2.x/3.x) |
//   header: a Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
//   padded with spaces and a newline | raw array data.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "io/dtype.h"

namespace once {

/// Largest header accepted: any header NumPy writes in format 1.0 (u16 length), so a file whose
/// header claims more is refused before the header is read.
constexpr std::size_t kMaxNpyHeaderBytes = 65535;
/// Most dimensions accepted (NumPy 2's NPY_MAXDIMS).
constexpr std::size_t kMaxNpyDims = 64;

struct NpyHeader {
    DType dtype = DType::F32;
    std::string descr;  ///< as written, e.g. "<f4"
    std::vector<std::int64_t> shape;
    std::uint64_t elements = 0;    ///< product of shape
    std::uint64_t dataOffset = 0;  ///< where the array data starts
    std::uint64_t dataBytes = 0;   ///< elements × item size (== file size − dataOffset)
};

/// Parses and validates the header of a whole .npy image: magic, version, header length under
/// kMaxNpyHeaderBytes and inside the file, exactly the keys descr/fortran_order/shape, a
/// little-endian float16/32/64, int32/64 or uint8 descr, C order, a shape of non-negative
/// integers whose product × item size does not overflow and equals the bytes after the header.
/// Throws OnceError naming `source`, the field, what was expected and what was found.
NpyHeader parseNpyHeader(std::span<const std::uint8_t> bytes, const std::string& source);

}  // namespace once
