#include "compress/top_l_scan.h"

// GCC 12 reports its own _mm512_undefined_* placeholders inside the intrinsics as possibly
// uninitialised; the warning is about the header, not this code.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <cstring>
#include <limits>

namespace once {
namespace {

inline float widen(float v) {
    return v;
}
inline float widen(c10::BFloat16 v) {
    // BF16 is the upper half of an IEEE float: widening is a shift.
    const std::uint32_t bits = std::uint32_t(v.x) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

// The running list of one row. Ids arrive in increasing order and only strictly greater
// scores move up, so on equal scores the lower id stays ahead.
struct TopList {
    int l, count = 0;
    std::int32_t* ids;
    float* scores;
    float threshold = -std::numeric_limits<float>::infinity();

    void offer(float v, std::int64_t j) {
        if (count == l && !(v > threshold)) {
            return;
        }
        int p = count < l ? count++ : l - 1;
        while (p > 0 && scores[p - 1] < v) {
            scores[p] = scores[p - 1];
            ids[p] = ids[p - 1];
            --p;
        }
        scores[p] = v;
        ids[p] = std::int32_t(j);
        if (count == l) {
            threshold = scores[l - 1];
        }
    }
};

template <typename T>
void scalarScan(const T* row, std::int64_t k, int l, std::int32_t* ids, float* scores) {
    TopList top{l, 0, ids, scores};
    constexpr std::int64_t kBlock = 16;
    for (std::int64_t c = 0; c < k; c += kBlock) {
        const std::int64_t end = std::min(k, c + kBlock);
        if (top.count == l) {
            // Cheap block test first: most blocks hold nothing above the current L-th best.
            float m = widen(row[c]);
            for (std::int64_t j = c + 1; j < end; ++j) {
                const float v = widen(row[j]);
                m = v > m ? v : m;
            }
            if (!(m > top.threshold)) {
                continue;
            }
        }
        for (std::int64_t j = c; j < end; ++j) {
            top.offer(widen(row[j]), j);
        }
    }
}

__attribute__((target("avx512f,avx512bw"))) inline __m512 load16(const float* p) {
    return _mm512_loadu_ps(p);
}
__attribute__((target("avx512f,avx512bw"))) inline __m512 load16(const c10::BFloat16* p) {
    const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

template <typename T>
__attribute__((target("avx512f,avx512bw"))) void vectorScan(const T* row, std::int64_t k, int l,
                                                            std::int32_t* ids, float* scores) {
    TopList top{l, 0, ids, scores};
    std::int64_t j = 0;
    for (; j < k && top.count < l; ++j) {
        top.offer(widen(row[j]), j);
    }
    for (; j < k && (j & 15) != 0; ++j) {  // to a 16-aligned index, so blocks stay in step
        top.offer(widen(row[j]), j);
    }
    for (; j + 16 <= k; j += 16) {
        __mmask16 above =
            _mm512_cmp_ps_mask(load16(row + j), _mm512_set1_ps(top.threshold), _CMP_GT_OQ);
        while (above) {
            const int b = __builtin_ctz(above);
            top.offer(widen(row[j + b]), j + b);  // re-checks: the threshold may have risen
            above = __mmask16(above & (above - 1));
        }
    }
    for (; j < k; ++j) {
        top.offer(widen(row[j]), j);
    }
}

bool detectAvx512() {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
}

const bool kAvx512 = detectAvx512();

}  // namespace

bool scanTopLVectorized() {
    return kAvx512;
}

void scanTopLScalar(const float* row, std::int64_t k, int l, std::int32_t* ids, float* scores) {
    scalarScan(row, k, l, ids, scores);
}
void scanTopLScalar(const c10::BFloat16* row, std::int64_t k, int l, std::int32_t* ids,
                    float* scores) {
    scalarScan(row, k, l, ids, scores);
}

void scanTopL(const float* row, std::int64_t k, int l, std::int32_t* ids, float* scores) {
    kAvx512 ? vectorScan(row, k, l, ids, scores) : scalarScan(row, k, l, ids, scores);
}
void scanTopL(const c10::BFloat16* row, std::int64_t k, int l, std::int32_t* ids, float* scores) {
    kAvx512 ? vectorScan(row, k, l, ids, scores) : scalarScan(row, k, l, ids, scores);
}

}  // namespace once
