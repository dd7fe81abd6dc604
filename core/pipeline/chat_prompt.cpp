#include "pipeline/chat_prompt.h"

#include <ATen/ATen.h>

#include <algorithm>

#include "models/qwen2_model.h"
#include "tokenizer/bpe_tokenizer.h"
#include "util/error.h"

namespace once {

ChatPrompt buildLlavaOvPrompt(const BpeTokenizer& tok, const std::string& question,
                              const std::string& system) {
    if (std::all_of(question.begin(), question.end(),
                    [](unsigned char c) { return std::isspace(c) != 0; })) {
        fail("the question is empty", {}, "question", "non-empty text", "empty");
    }
    tok.requireTokenId("<|im_start|>");
    tok.requireTokenId("<|im_end|>");
    const std::string placeholder = tok.tokenId("<image>") ? "<image>" : "<video>";
    const std::int64_t placeholderId = tok.requireTokenId(placeholder);
    const std::string text = "<|im_start|>system\n" + system + "<|im_end|>\n<|im_start|>user\n" +
                             placeholder + "\n" + question + "<|im_end|>\n<|im_start|>assistant\n";
    ChatPrompt p;
    p.ids = tok.encode(text);
    auto count = std::count(p.ids.begin(), p.ids.end(), placeholderId);
    if (count != 1) {
        fail("the question must not contain the visual placeholder", {}, "question",
             "no " + placeholder, std::to_string(count - 1) + " extra");
    }
    p.placeholderIndex = std::find(p.ids.begin(), p.ids.end(), placeholderId) - p.ids.begin();
    return p;
}

at::Tensor spliceVisual(const Qwen2Model& model, const ChatPrompt& prompt,
                        const at::Tensor& visual) {
    const std::int64_t H = model.config().hiddenSize;
    if (visual.dim() != 2 || visual.size(1) != H) {
        fail("visual tokens do not match the language model", {}, "visual tokens",
             "[V, " + std::to_string(H) + "]",
             "[" + std::to_string(visual.size(0)) + ", " +
                 std::to_string(visual.dim() > 1 ? visual.size(1) : 0) + "]");
    }
    at::Tensor ids = at::tensor(prompt.ids, at::kLong);
    at::Tensor e = model.embed(ids);
    const std::int64_t at = prompt.placeholderIndex, S = ids.size(0);
    return at::cat({e.narrow(0, 0, at), visual.to(e.device(), e.scalar_type()),
                    e.narrow(0, at + 1, S - at - 1)});
}

}  // namespace once
