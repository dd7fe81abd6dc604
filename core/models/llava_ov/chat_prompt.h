#pragma once
// LLaVA-OneVision's prompts and the splice of visual embeddings at the placeholder. Two formats
// exist in the wild: LLaVA-NeXT's conv "qwen_1_5" (Qwen ChatML with a system turn; lmms-lab's
// checkpoints and the paper's lmms-eval runs) and the chat template the llava-hf checkpoints ship
// (ChatML, no default system turn, "<video>\n" before the text), which transformers applies.
// Positions are simply re-packed 0..L-1 over the spliced sequence, as LLaVA does.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

namespace once {

class BpeTokenizer;
class Qwen2Model;

constexpr const char* kLlavaSystemPrompt = "You are a helpful assistant.";

enum class PromptFormat {
    LlavaNext,  ///< conv_qwen: system turn, "<image>\n" + question
    LlavaHf,    ///< the llava-hf chat template: no default system turn, "<video>\n" + question
};

/// The prompt format used for a model folder, where it came from, and what the user should know.
struct PromptStyle {
    PromptFormat format = PromptFormat::LlavaNext;
    std::string source;  ///< the chat-template file followed, or why LLaVA-NeXT's is used
    std::string notice;  ///< non-empty: a template was found but not recognised
};

/// `requested`: "auto" (the folder's chat template when it is the published llava-hf one, read
/// from chat_template.jinja, chat_template.json, processor_config.json or tokenizer_config.json;
/// else LLaVA-NeXT's), "llava-next" or "chat-template" (the folder's, which must be the llava-hf
/// one). Throws OnceError naming the option or the file otherwise.
PromptStyle choosePromptStyle(const std::string& modelDir, const std::string& requested);

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

/// The prompt in `style`. `system` empty: the format's default (LLaVA-NeXT's system prompt; no
/// system turn with the llava-hf template, as transformers renders a conversation without one).
/// LlavaHf: "[<|im_start|>system\n{system}<|im_end|>\n]<|im_start|>user\n<video>\n{question}
/// <|im_end|>\n<|im_start|>assistant\n" with "<video>" as the placeholder.
ChatPrompt buildVideoPrompt(const BpeTokenizer& tokenizer, const PromptStyle& style,
                            const std::string& question, const std::string& system = {});

/// Embeddings [S - 1 + V, hidden]: the prompt's token embeddings with the placeholder replaced
/// by `visual` [V, hidden] (cast to the model's dtype and device).
at::Tensor spliceVisual(const Qwen2Model& model, const ChatPrompt& prompt,
                        const at::Tensor& visual);

}  // namespace once
