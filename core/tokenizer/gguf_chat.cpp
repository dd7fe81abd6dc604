#include "tokenizer/gguf_chat.h"

#include "util/error.h"

namespace once {

std::string applyGgufChatTemplate(const std::string& tpl, const std::string& user,
                                  const std::string& source) {
    if (tpl.find("<|im_start|>") == std::string::npos) {
        fail("unrecognised chat template (only ChatML is rendered; use --raw)", source,
             "tokenizer.chat_template", "a ChatML template", tpl.empty() ? "missing" : "another");
    }
    std::string out;
    // ChatML templates that add a system turn when the conversation has none spell it as one
    // literal, e.g. '<|im_start|>system\nYou are a helpful AI assistant …<|im_end|>\n'.
    const std::string marker = "<|im_start|>system\\n";
    const std::size_t at = tpl.find(marker);
    if (at != std::string::npos) {
        const std::size_t begin = at + marker.size();
        const std::size_t end = tpl.find("<|im_end|>", begin);
        if (end != std::string::npos) {
            out += "<|im_start|>system\n" + tpl.substr(begin, end - begin) + "<|im_end|>\n";
        }
    }
    out += "<|im_start|>user\n" + user + "<|im_end|>\n<|im_start|>assistant\n";
    return out;
}

}  // namespace once
