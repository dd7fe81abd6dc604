#include "models/gguf_dequant.h"

#include <ATen/ATen.h>
#include <c10/util/Half.h>

#include <cstring>

#include "util/error.h"

namespace once {
namespace {

// Every block layout below is ggml's (ggml-common.h block_q*, ggml-quants.c dequantize_row_*),
// including the order of float operations: d * q + m, (d * scale) * q, (d * sc) * q - dmin * m.
// Scalar loops keep that order exact; the build targets baseline x86-64 (no FMA contraction),
// so the values equal gguf-py's numpy de-quantisation bit for bit.

float f16(const std::uint8_t* p) {
    std::uint16_t bits;
    std::memcpy(&bits, p, 2);
    return static_cast<float>(c10::Half(bits, c10::Half::from_bits()));
}

float bf16(const std::uint8_t* p) {
    std::uint16_t bits;
    std::memcpy(&bits, p, 2);
    const std::uint32_t wide = std::uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &wide, 4);
    return f;
}

constexpr std::int64_t QK = 32, QK_K = 256;

void q4_0(const std::uint8_t* b, float* y) {  // {f16 d; u8 qs[16]}
    const float d = f16(b);
    const std::uint8_t* qs = b + 2;
    for (int j = 0; j < QK / 2; ++j) {
        y[j] = float((qs[j] & 0x0F) - 8) * d;
        y[j + QK / 2] = float((qs[j] >> 4) - 8) * d;
    }
}

void q4_1(const std::uint8_t* b, float* y) {  // {f16 d; f16 m; u8 qs[16]}
    const float d = f16(b), m = f16(b + 2);
    const std::uint8_t* qs = b + 4;
    for (int j = 0; j < QK / 2; ++j) {
        y[j] = float(qs[j] & 0x0F) * d + m;
        y[j + QK / 2] = float(qs[j] >> 4) * d + m;
    }
}

void q5_0(const std::uint8_t* b, float* y) {  // {f16 d; u8 qh[4]; u8 qs[16]}
    const float d = f16(b);
    std::uint32_t qh;
    std::memcpy(&qh, b + 2, 4);
    const std::uint8_t* qs = b + 6;
    for (int j = 0; j < QK / 2; ++j) {
        const std::uint8_t h0 = std::uint8_t(((qh >> j) << 4) & 0x10);
        const std::uint8_t h1 = std::uint8_t((qh >> (j + 12)) & 0x10);
        y[j] = float(((qs[j] & 0x0F) | h0) - 16) * d;
        y[j + QK / 2] = float(((qs[j] >> 4) | h1) - 16) * d;
    }
}

void q5_1(const std::uint8_t* b, float* y) {  // {f16 d; f16 m; u8 qh[4]; u8 qs[16]}
    const float d = f16(b), m = f16(b + 2);
    std::uint32_t qh;
    std::memcpy(&qh, b + 4, 4);
    const std::uint8_t* qs = b + 8;
    for (int j = 0; j < QK / 2; ++j) {
        const std::uint8_t h0 = std::uint8_t(((qh >> j) << 4) & 0x10);
        const std::uint8_t h1 = std::uint8_t((qh >> (j + 12)) & 0x10);
        y[j] = float((qs[j] & 0x0F) | h0) * d + m;
        y[j + QK / 2] = float((qs[j] >> 4) | h1) * d + m;
    }
}

void q8_0(const std::uint8_t* b, float* y) {  // {f16 d; i8 qs[32]}
    const float d = f16(b);
    for (int j = 0; j < QK; ++j) {
        y[j] = float(static_cast<std::int8_t>(b[2 + j])) * d;
    }
}

// The 6-bit scale and min of sub-block j of a Q4_K/Q5_K super-block (ggml get_scale_min_k4).
void scaleMinK4(int j, const std::uint8_t* q, std::uint8_t& sc, std::uint8_t& m) {
    if (j < 4) {
        sc = q[j] & 63;
        m = q[j + 4] & 63;
    } else {
        sc = std::uint8_t((q[j + 4] & 0x0F) | ((q[j - 4] >> 6) << 4));
        m = std::uint8_t((q[j + 4] >> 4) | ((q[j] >> 6) << 4));
    }
}

// Q4_K and Q5_K: a super-block of 8 sub-blocks of 32 values, each with a 6-bit scale and min
// (scaleMinK4), value = d·scale·q − dmin·min. `quant(pair, l, high)` is the unsigned quant of
// value l of the first (high false) or second half of the pair-th 64 values.
template <class Quant>
void superBlockWithMins(const std::uint8_t* b, float* y, Quant quant) {
    const float d = f16(b), dmin = f16(b + 2);
    const std::uint8_t* scales = b + 4;
    for (int pair = 0; pair < QK_K / 64; ++pair) {
        for (int half = 0; half < 2; ++half) {
            std::uint8_t sc, m;
            scaleMinK4(2 * pair + half, scales, sc, m);
            const float scale = d * float(sc), min = dmin * float(m);
            for (int l = 0; l < 32; ++l) {
                *y++ = scale * float(quant(pair, l, half == 1)) - min;
            }
        }
    }
}

void q4_k(const std::uint8_t* b, float* y) {  // {f16 d; f16 dmin; u8 scales[12]; u8 qs[128]}
    const std::uint8_t* q = b + 16;
    superBlockWithMins(b, y, [q](int pair, int l, bool high) {
        const std::uint8_t v = q[32 * pair + l];
        return high ? v >> 4 : v & 0x0F;
    });
}

// {f16 d; f16 dmin; u8 scales[12]; u8 qh[32]; u8 qs[128]}: the fifth bit of value l of
// sub-block j is bit j of qh[l].
void q5_k(const std::uint8_t* b, float* y) {
    const std::uint8_t* qh = b + 16;
    const std::uint8_t* ql = b + 48;
    superBlockWithMins(b, y, [qh, ql](int pair, int l, bool high) {
        const std::uint8_t v = ql[32 * pair + l];
        const int bit = 1 << (2 * pair + (high ? 1 : 0));
        return (high ? v >> 4 : v & 0x0F) + (qh[l] & bit ? 16 : 0);
    });
}

void q6_k(const std::uint8_t* b, float* y) {  // {u8 ql[128]; u8 qh[64]; i8 scales[16]; f16 d}
    const float d = f16(b + 208);
    const std::uint8_t* ql = b;
    const std::uint8_t* qh = b + 128;
    const auto* sc = reinterpret_cast<const std::int8_t*>(b + 192);
    for (int n = 0; n < QK_K; n += 128) {
        for (int l = 0; l < 32; ++l) {
            const int is = l / 16;
            const int q1 = int((ql[l] & 0x0F) | (((qh[l] >> 0) & 3) << 4)) - 32;
            const int q2 = int((ql[l + 32] & 0x0F) | (((qh[l] >> 2) & 3) << 4)) - 32;
            const int q3 = int((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
            const int q4 = int((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
            y[l] = d * float(sc[is + 0]) * float(q1);
            y[l + 32] = d * float(sc[is + 2]) * float(q2);
            y[l + 64] = d * float(sc[is + 4]) * float(q3);
            y[l + 96] = d * float(sc[is + 6]) * float(q4);
        }
        y += 128;
        ql += 64;
        qh += 32;
        sc += 8;
    }
}

using BlockFn = void (*)(const std::uint8_t*, float*);

BlockFn blockFunction(GgmlType t) {
    switch (t) {
        case GgmlType::Q4_0:
            return q4_0;
        case GgmlType::Q4_1:
            return q4_1;
        case GgmlType::Q5_0:
            return q5_0;
        case GgmlType::Q5_1:
            return q5_1;
        case GgmlType::Q8_0:
            return q8_0;
        case GgmlType::Q4_K:
            return q4_k;
        case GgmlType::Q5_K:
            return q5_k;
        case GgmlType::Q6_K:
            return q6_k;
        default:
            return nullptr;
    }
}

}  // namespace

at::Tensor dequantizeGgml(std::uint32_t type, const std::uint8_t* data, std::int64_t numel,
                          const std::string& file, const std::string& tensor) {
    auto traits = ggmlTypeTraits(type);
    if (!traits || !traits->dequantizable) {
        fail("this tensor type cannot be de-quantised", file, tensor,
             "F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q4_K, Q5_K or Q6_K",
             ggmlTypeName(type));
    }
    if (numel % traits->blockElements != 0) {
        fail("the tensor does not hold whole blocks", file, tensor,
             "a multiple of " + std::to_string(traits->blockElements) + " values",
             std::to_string(numel));
    }
    at::Tensor out = at::empty({numel}, at::kFloat);
    float* y = out.data_ptr<float>();
    const auto t = static_cast<GgmlType>(type);
    if (t == GgmlType::F32) {
        std::memcpy(y, data, std::size_t(numel) * 4);
    } else if (t == GgmlType::F16) {
        for (std::int64_t i = 0; i < numel; ++i) {
            y[i] = f16(data + 2 * i);
        }
    } else if (t == GgmlType::BF16) {
        for (std::int64_t i = 0; i < numel; ++i) {
            y[i] = bf16(data + 2 * i);
        }
    } else {
        const BlockFn fn = blockFunction(t);
        const std::int64_t blocks = numel / traits->blockElements;
        // Blocks are independent; large embeddings (tens of millions of values) split over
        // LibTorch's intra-op threads.
        at::parallel_for(0, blocks, 1024, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) {
                fn(data + i * traits->blockBytes, y + i * traits->blockElements);
            }
        });
    }
    return out;
}

}  // namespace once
