#pragma once
// The element-wise parts of a decoder layer a device backend may fuse, behind a seam (as
// step_graph.h and compress/device_compress.h's pooling kernel): core computes each with ATen
// operations (the reference, and what the CPU runs); a device's module (gpu/, registered when it
// loads) replaces any of them with one kernel of the same rule and rounding.
//
// Why: a captured 7B decoding step on an H100 streamed its weights at 2.6–2.9 TB/s but ran at
// 50 % of the bandwidth roofline, because ~530 small kernels a token (RMSNorm as 8 ATen
// operations, rotary embedding as 6 for each of q and k, the cache writes, SiLU and the product)
// added ~3 ms to 5.6 ms of GEMVs (docs/performance.md, "Measurements on a GPU"). And a captured
// step attended over the whole cache with a mask, which excludes the flash kernel (22.7 against
// 14.6 ms a token for Dense at 23k positions).
//
// Every function follows transformers' order of operations and roundings (Qwen2RMSNorm,
// apply_rotary_pos_emb, SiLU then the product), so a fused kernel differs from the reference
// only where it sums in another order (the RMSNorm's mean of squares, attention):
// tests/support/backend_check.cpp checks every registered set against this reference.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>

namespace once {

/// One row block of a fused q/k/v projection and where its parts go.
struct RotaryStoreArgs {
    /// [n, (heads + 2·kvHeads)·headDim]: each row is q | k | v of one position (any row stride,
    /// columns contiguous): the output of one linear over the concatenated weights.
    at::Tensor qkv;
    std::int64_t heads = 0, kvHeads = 0;
    /// Inverse rotary frequencies [headDim / 2] F32 on qkv's device.
    at::Tensor invFreq;
    /// Row r is at position firstPosition + r, or position[0] + r when `position` is defined (a
    /// [1] int64 tensor on the device, written in place before each replay of a captured step).
    std::int64_t firstPosition = 0;
    at::Tensor position;
    /// Optional: cos and sin of these rows' positions × invFreq [n, headDim / 2] in qkv's type,
    /// when the caller has them for every layer (the reference then uses them instead of
    /// computing them per layer; a fused kernel computes its own).
    at::Tensor cos, sin;
    /// Rotated queries [1, n, heads, headDim] (contiguous).
    at::Tensor queries;
    /// The layer's key/value stores [1, kvHeads, capacity, headDim]: rotated keys and values are
    /// written at rows = their positions.
    at::Tensor keyStore, valueStore;
};

/// How long the cache is in a decoding step, in the forms attention kernels read on the device
/// (the cumulative row bounds and used lengths of FlashAttention's variable-length interface).
/// Made once per decoder; `used` is rewritten by each step, so a captured step follows the
/// position written before each replay.
struct CacheLength {
    at::Tensor position;   ///< [1] int64: the step's position (where its key is stored)
    at::Tensor used;       ///< [1] int32: position + 1, the positions the step attends to
    at::Tensor queryRows;  ///< [2] int32: {0, 1}, the one query row
    at::Tensor cacheRows;  ///< [2] int32: {0, capacity}, the rows of the stores
    /// For `position` on its device and stores of `capacity` rows.
    static CacheLength make(const at::Tensor& position, std::int64_t capacity);
    /// Rewrites `used` from `position` (once per step, before the layers).
    void update();
};

/// The fusable parts of a decoder layer on one device type. A member left empty runs the
/// reference.
struct DecoderKernels {
    /// w ⊙ cast(x · rsqrt(mean(x²) + eps)) over the last dimension, normalised in F32 and cast
    /// back to x's type before the scale (Qwen2RMSNorm); x has contiguous rows.
    std::function<at::Tensor(const at::Tensor& x, const at::Tensor& w, double eps)> rmsNorm;
    /// Rotary embedding of q and k (x·cos + rotate_half(x)·sin, cos/sin of position × invFreq
    /// rounded to the model's type, one rounding per product and per sum) and the store of the
    /// keys and values.
    std::function<void(const RotaryStoreArgs& args)> rotaryStore;
    /// silu(gate) ⊙ up for gateUp [n, 2·I] = gate | up per row → [n, I] (SiLU rounded to the
    /// type, then the product).
    std::function<at::Tensor(const at::Tensor& gateUp)> swiglu;
    /// One query row q [1, heads, headDim] (contiguous) against positions 0 … position of the
    /// stores [1, kvHeads, capacity, headDim] (query head j reads key/value head j / (heads /
    /// kvHeads)), scaled by 1/√headDim → [1, heads·headDim]. Fixed shapes (the capacity), the
    /// length read on the device: what a captured decoding step attends with.
    std::function<at::Tensor(const at::Tensor& q, const at::Tensor& keyStore,
                             const at::Tensor& valueStore, const CacheLength& length)>
        cacheAttention;
    /// Why a registered kernel ran the reference instead of itself on a call it should have
    /// taken (a library kernel that refused at run time), or "" — so that a fallback is reported
    /// (the backend check fails, the decoder's note says it) rather than silent. Empty: never.
    std::function<std::string()> fallbackReason;
};

/// cos and sin [n, headDim/2] of `positions` [n] (F32) × `invFreq`, computed in F32 and cast to
/// `type`: transformers' rotary tables (which repeat this half twice).
std::pair<at::Tensor, at::Tensor> rotaryTables(const at::Tensor& positions,
                                               const at::Tensor& invFreq, at::ScalarType type);

/// Registers `kernels` for a device type (the gpu/ module does for CUDA when it loads).
void registerDecoderKernels(c10::DeviceType type, DecoderKernels kernels);
/// The set in use on `device`: every kernel filled, the registered one where there is one
/// (after loadDeviceRuntime for the device), else the reference.
const DecoderKernels& decoderKernels(const at::Device& device);
/// The ATen reference of every member (what the CPU runs and what a kernel is checked against).
const DecoderKernels& referenceDecoderKernels();
/// True when a module registered at least one kernel for `device`'s type.
bool hasDeviceDecoderKernels(const at::Device& device);

}  // namespace once
