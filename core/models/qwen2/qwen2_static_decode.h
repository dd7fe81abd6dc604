#pragma once
// Decoding with fixed shapes: every step of a generation runs the same kernels on the same
// tensors. The token id and its position are inputs written in place, the key/value stores have
// their final capacity from the first step, and attention covers the whole capacity with the
// positions not yet written masked out. A step can then be captured once and replayed
// (models/step_graph.h: CUDA graphs), the way vLLM, llama.cpp and gpt-fast decode on GPUs.
//
// The layer's element-wise parts and its attention over the fixed capacity go through
// decoder_kernels.h: ATen operations on the CPU (attention as SDPA with a mask over the capacity,
// what keeps the shapes fixed), one kernel each where a device module registers them (gpu/: the
// flash kernel reading the length on the device instead of a mask). In F32 a step equals
// Qwen2Model::forward's to rounding; in BF16 to the rounding of another fused kernel
// (tests/models/test_qwen2_static_decode.cpp).
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/decoder_kernels.h"

namespace once {

class Qwen2Model;
class StepGraph;
struct KvCache;

class Qwen2StaticDecoder {
  public:
    /// Takes over `cache`, filled by a prefill, for decoding up to `capacity` positions in all
    /// (prompt included). `graph`: capture the step on its first use and replay it where the
    /// device can (else run it eagerly; note() says why).
    Qwen2StaticDecoder(const Qwen2Model& model, KvCache& cache, std::int64_t capacity, bool graph);
    /// Leaves the cache as Qwen2Model::forward would: its length and views cover every decoded
    /// position, so a later forward() continues from it.
    ~Qwen2StaticDecoder();
    Qwen2StaticDecoder(const Qwen2StaticDecoder&) = delete;
    Qwen2StaticDecoder& operator=(const Qwen2StaticDecoder&) = delete;

    /// Logits [1, vocab] F32 after token `id` at the next position: a tensor this object owns,
    /// overwritten by the next step. Throws OnceError for an id outside the vocabulary or a full
    /// cache.
    at::Tensor step(std::int64_t id);
    /// "graph" (replayed), "static" (fixed shapes, run eagerly).
    const std::string& mode() const noexcept { return mode_; }
    /// Why a requested graph is not in use, and which fused kernel fell back to its reference
    /// (decoder_kernels.h); empty otherwise.
    const std::string& note() const noexcept { return note_; }

  private:
    void run();  // the step itself, on the tensors below: what a graph captures

    const Qwen2Model& model_;
    KvCache& cache_;
    std::int64_t capacity_;
    bool wantGraph_, triedGraph_ = false, reportedFallback_ = false;
    std::string mode_ = "static", note_;
    std::vector<at::Tensor> keys_, values_;  // [1, kvHeads, capacity, headDim] views of the stores
    at::Tensor token_, position_;            // [1] int64 on the device: the step's inputs
    at::Tensor queries_;                     // [1, 1, heads, headDim]: rotated, per layer
    CacheLength length_;                     // position_ as the attention kernels read it
    at::Tensor logits_;                      // [1, vocab] F32: the step's output
    std::unique_ptr<StepGraph> graph_;
};

}  // namespace once
