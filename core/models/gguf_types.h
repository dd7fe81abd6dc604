#pragma once
// ggml tensor types and their block sizes (ggml.h enum ggml_type, ggml-common.h block layouts),
// used to validate a GGUF header. No LibTorch here: the header parser is fuzzed on its own.
#include <cstdint>
#include <optional>
#include <string>

namespace once {

/// ggml type ids as stored in GGUF tensor infos (ggml.h enum ggml_type).
enum class GgmlType : std::uint32_t {
    F32 = 0,
    F16 = 1,
    Q4_0 = 2,
    Q4_1 = 3,
    Q5_0 = 6,
    Q5_1 = 7,
    Q8_0 = 8,
    Q8_1 = 9,
    Q2_K = 10,
    Q3_K = 11,
    Q4_K = 12,
    Q5_K = 13,
    Q6_K = 14,
    Q8_K = 15,
    BF16 = 30,
};

struct GgmlTypeTraits {
    const char* name;
    std::int64_t blockElements;  ///< values per block (1 for plain types)
    std::int64_t blockBytes;     ///< bytes per block
    bool dequantizable;          ///< dequantizeGgml supports it
};

/// Traits of a ggml type id, or nullopt for an id this build does not know (or a removed one).
std::optional<GgmlTypeTraits> ggmlTypeTraits(std::uint32_t type);
/// "Q4_1", or "type 42" for an unknown id.
std::string ggmlTypeName(std::uint32_t type);

}  // namespace once
