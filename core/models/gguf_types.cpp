// ggml type sizes, without LibTorch, so the GGUF header parser can be fuzzed on its own.
#include "models/gguf_types.h"

namespace once {

std::optional<GgmlTypeTraits> ggmlTypeTraits(std::uint32_t type) {
    // Sizes of every type gguf-py knows, so a header using one validates even when this build
    // cannot de-quantise it (the error then names the type, not a corrupt file).
    switch (type) {
        case 0:
            return GgmlTypeTraits{"F32", 1, 4, true};
        case 1:
            return GgmlTypeTraits{"F16", 1, 2, true};
        case 2:
            return GgmlTypeTraits{"Q4_0", 32, 18, true};
        case 3:
            return GgmlTypeTraits{"Q4_1", 32, 20, true};
        case 6:
            return GgmlTypeTraits{"Q5_0", 32, 22, true};
        case 7:
            return GgmlTypeTraits{"Q5_1", 32, 24, true};
        case 8:
            return GgmlTypeTraits{"Q8_0", 32, 34, true};
        case 9:
            return GgmlTypeTraits{"Q8_1", 32, 40, false};
        case 10:
            return GgmlTypeTraits{"Q2_K", 256, 84, false};
        case 11:
            return GgmlTypeTraits{"Q3_K", 256, 110, false};
        case 12:
            return GgmlTypeTraits{"Q4_K", 256, 144, true};
        case 13:
            return GgmlTypeTraits{"Q5_K", 256, 176, true};
        case 14:
            return GgmlTypeTraits{"Q6_K", 256, 210, true};
        case 15:
            return GgmlTypeTraits{"Q8_K", 256, 292, false};
        case 16:
            return GgmlTypeTraits{"IQ2_XXS", 256, 66, false};
        case 17:
            return GgmlTypeTraits{"IQ2_XS", 256, 74, false};
        case 18:
            return GgmlTypeTraits{"IQ3_XXS", 256, 98, false};
        case 19:
            return GgmlTypeTraits{"IQ1_S", 256, 50, false};
        case 20:
            return GgmlTypeTraits{"IQ4_NL", 32, 18, false};
        case 21:
            return GgmlTypeTraits{"IQ3_S", 256, 110, false};
        case 22:
            return GgmlTypeTraits{"IQ2_S", 256, 82, false};
        case 23:
            return GgmlTypeTraits{"IQ4_XS", 256, 136, false};
        case 24:
            return GgmlTypeTraits{"I8", 1, 1, false};
        case 25:
            return GgmlTypeTraits{"I16", 1, 2, false};
        case 26:
            return GgmlTypeTraits{"I32", 1, 4, false};
        case 27:
            return GgmlTypeTraits{"I64", 1, 8, false};
        case 28:
            return GgmlTypeTraits{"F64", 1, 8, false};
        case 29:
            return GgmlTypeTraits{"IQ1_M", 256, 56, false};
        case 30:
            return GgmlTypeTraits{"BF16", 1, 2, true};
        case 34:
            return GgmlTypeTraits{"TQ1_0", 256, 54, false};
        case 35:
            return GgmlTypeTraits{"TQ2_0", 256, 66, false};
        case 39:
            return GgmlTypeTraits{"MXFP4", 32, 17, false};
        default:
            return std::nullopt;
    }
}

std::string ggmlTypeName(std::uint32_t type) {
    auto t = ggmlTypeTraits(type);
    return t ? std::string(t->name) : "type " + std::to_string(type);
}

}  // namespace once
