#pragma once
// LLaVA-OneVision's prompt (LLaVA-NeXT conv "qwen_1_5": Qwen ChatML with the system turn) and
// the splice of visual embeddings at the placeholder. Positions are simply re-packed 0..L-1 over
// the spliced sequence, as LLaVA does.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

namespace once {

class BpeTokenizer;
class Qwen2Model;

constexpr const char* kLlavaSystemPrompt = "You are a helpful assistant.";

struct ChatPrompt {
    std::vector<std::int64_t> ids;      ///< with exactly one placeholder id
    std::int64_t placeholderIndex = 0;  ///< where the visual rows go
};

/// "<|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n<image>\n{question}<|im_end|>\n
/// <|im_start|>assistant\n", tokenized; the placeholder is "<image>" (or "<video>" when the
/// vocabulary lacks "<image>"). Throws OnceError for an empty question or a tokenizer without
/// the ChatML tokens.
ChatPrompt buildLlavaOvPrompt(const BpeTokenizer& tokenizer, const std::string& question,
                              const std::string& system = kLlavaSystemPrompt);

/// Embeddings [S - 1 + V, hidden]: the prompt's token embeddings with the placeholder replaced
/// by `visual` [V, hidden] (cast to the model's dtype and device).
at::Tensor spliceVisual(const Qwen2Model& model, const ChatPrompt& prompt,
                        const at::Tensor& visual);

}  // namespace once
