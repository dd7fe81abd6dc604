// The decoder layer's fused parts on CUDA (models/decoder_kernels.h), registered with core/ at
// load time: RMSNorm, rotary embedding with the key/value store and the SiLU-gated product as one
// kernel each (decoder_kernels.cu), and a decoding step's attention as FlashAttention's
// variable-length kernel reading the cache's length on the device. A tensor a kernel does not
// take (another type, another layout) runs the reference, so every call has an answer.
//
// Why the flash kernel: a captured step has fixed shapes, so it attends over the whole capacity
// and, through SDPA, needs a mask, which excludes the flash kernel; the masked kernels spread one
// query row over too few blocks and cost 22.7 against 14.6 ms a token for Dense at 23k positions
// on an H100 (docs/performance.md). The variable-length form takes the used length as a device
// tensor (seqused_k) and, for one query row with grouped heads, splits the keys over the SMs.
#include <ATen/ATen.h>
#include <cuda_runtime_api.h>

#include <atomic>
#include <cmath>
#include <mutex>
#include <string>

#include "kernels.h"
#include "models/decoder_kernels.h"
#include "tensor_glue.h"

namespace once::gpu {
namespace {

const DecoderKernels& reference() {
    return referenceDecoderKernels();
}

at::Tensor cudaRmsNorm(const at::Tensor& x, const at::Tensor& w, double eps) {
    const std::int64_t n = x.dim() > 0 ? x.size(-1) : 0;
    if (!hasKernelType(x) || !x.is_contiguous() || w.scalar_type() != x.scalar_type() ||
        !w.is_contiguous() || w.device() != x.device() || w.numel() != n || n == 0) {
        return reference().rmsNorm(x, w, eps);
    }
    at::Tensor out = at::empty_like(x, at::MemoryFormat::Contiguous);
    launchRmsNorm(x.data_ptr(), w.data_ptr(), out.data_ptr(), elementType(x), x.numel() / n, n,
                  float(eps), streamOf(x));
    return out;
}

void cudaRotaryStore(const RotaryStoreArgs& a) {
    const at::Tensor& qkv = a.qkv;
    const at::Tensor &ks = a.keyStore, &vs = a.valueStore;
    const std::int64_t hd = ks.dim() == 4 ? ks.size(3) : 0;
    const bool same = a.queries.scalar_type() == qkv.scalar_type() &&
                      ks.scalar_type() == qkv.scalar_type() &&
                      vs.scalar_type() == qkv.scalar_type();
    const bool layout =
        qkv.dim() == 2 && qkv.stride(1) == 1 && qkv.size(1) == (a.heads + 2 * a.kvHeads) * hd &&
        a.queries.is_contiguous() && vs.sizes() == ks.sizes() && ks.stride(3) == 1 &&
        vs.strides() == ks.strides() && a.invFreq.scalar_type() == at::kFloat &&
        a.invFreq.is_contiguous() && a.invFreq.device() == qkv.device() &&
        a.invFreq.numel() == hd / 2 && hd % 2 == 0;
    const bool position =
        !a.position.defined() || (a.position.scalar_type() == at::kLong &&
                                  a.position.device() == qkv.device() && a.position.numel() >= 1);
    if (!hasKernelType(qkv) || !same || !layout || !position || hd == 0) {
        reference().rotaryStore(a);
        return;
    }
    RotaryStoreParams p;
    p.qkv = qkv.data_ptr();
    p.qkvRowStride = qkv.stride(0);
    p.rows = qkv.size(0);
    p.heads = int(a.heads);
    p.kvHeads = int(a.kvHeads);
    p.headDim = int(hd);
    p.invFreq = a.invFreq.data_ptr<float>();
    p.firstPosition = a.firstPosition;
    p.position = a.position.defined() ? a.position.data_ptr<std::int64_t>() : nullptr;
    p.queries = a.queries.data_ptr();
    p.keyStore = ks.data_ptr();
    p.valueStore = vs.data_ptr();
    p.storeHeadStride = ks.stride(1);
    p.storeRowStride = ks.stride(2);
    p.capacity = ks.size(2);
    launchRotaryStore(p, elementType(qkv), streamOf(qkv));
}

at::Tensor cudaSwiglu(const at::Tensor& gateUp) {
    const std::int64_t width = gateUp.dim() > 0 ? gateUp.size(-1) / 2 : 0;
    if (!hasKernelType(gateUp) || !gateUp.is_contiguous() || width == 0 ||
        gateUp.size(-1) % 2 != 0) {
        return reference().swiglu(gateUp);
    }
    std::vector<std::int64_t> shape = gateUp.sizes().vec();
    shape.back() = width;
    at::Tensor out = at::empty(shape, gateUp.options());
    launchSwiglu(gateUp.data_ptr(), 2 * width, gateUp.numel() / (2 * width), width, out.data_ptr(),
                 elementType(gateUp), streamOf(gateUp));
    return out;
}

bool flashCapable(const at::Device& device) {
    int major = 0;
    return cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device.index()) ==
               cudaSuccess &&
           major >= 8;
}

// Set when the flash kernel refused a call it was given (a check of the library's that this
// file's conditions missed): later calls run the reference, and fallbackReason reports it.
std::mutex flashMutex;
std::string flashProblem;
std::atomic<bool> flashRefused{false};

std::string cudaFallbackReason() {
    const std::lock_guard lock(flashMutex);
    return flashProblem.empty() ? std::string()
                                : "cacheAttention: the flash kernel failed (" + flashProblem +
                                      "); the masked SDPA reference runs instead";
}

at::Tensor cudaCacheAttention(const at::Tensor& q, const at::Tensor& keyStore,
                              const at::Tensor& valueStore, const CacheLength& length) {
    const std::int64_t heads = q.size(1), hd = q.size(2), kvHeads = keyStore.size(1);
    const at::ScalarType type = q.scalar_type();
    const bool flash = (type == at::kHalf || type == at::kBFloat16) &&
                       keyStore.scalar_type() == type && valueStore.scalar_type() == type &&
                       hd % 8 == 0 && hd <= 256 && heads % kvHeads == 0 && q.is_contiguous() &&
                       keyStore.stride(3) == 1 && valueStore.stride(3) == 1 &&
                       length.used.defined() && flashCapable(q.device());
    if (flash && !flashRefused.load()) {
        // [capacity, kvHeads, headDim] views of the stores: the kernel takes row and head
        // strides.
        const at::Tensor keys = keyStore.select(0, 0).transpose(0, 1);
        const at::Tensor values = valueStore.select(0, 0).transpose(0, 1);
        try {
            const auto out = at::_flash_attention_forward(
                q, keys, values, length.queryRows, length.cacheRows, /*max_q=*/1,
                /*max_k=*/keyStore.size(2), /*dropout_p=*/0.0, /*is_causal=*/false,
                /*return_debug_mask=*/false, std::optional<double>(1.0 / std::sqrt(double(hd))),
                std::nullopt, std::nullopt, length.used);
            return std::get<0>(out).reshape({1, heads * hd});
        } catch (const std::exception& e) {
            const std::lock_guard lock(flashMutex);
            flashProblem = e.what();
            flashRefused = true;
        }
    }
    return reference().cacheAttention(q, keyStore, valueStore, length);
}

const bool registered = [] {
    registerDecoderKernels(c10::DeviceType::CUDA, {cudaRmsNorm, cudaRotaryStore, cudaSwiglu,
                                                   cudaCacheAttention, cudaFallbackReason});
    return true;
}();

}  // namespace
}  // namespace once::gpu
