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
    // literal, e.g. '<|im_start|>system\nYou are a helpful AI assistant …<|im_end|>\n', with the
    // newline either stored as is or as a Jinja string escape.
    // The first such literal whose text has no quote or brace (Qwen's templates first write
    // '<|im_start|>system\n' + messages[0]['content'], then the default in an else branch).
    // The template comes from the file (up to kMaxGgufStringBytes): the next <|im_end|> and the
    // next quote or brace are kept as cursors that only move forward, so the scan is linear
    // however many markers it holds.
    const std::string marker = "<|im_start|>system";
    std::size_t end = 0, quote = 0;
    bool endSearched = false, quoteSearched = false;
    for (std::size_t at = tpl.find(marker); at != std::string::npos;
         at = tpl.find(marker, at + 1)) {
        std::size_t begin = at + marker.size();
        if (tpl.compare(begin, 1, "\n") == 0) {
            begin += 1;
        } else if (tpl.compare(begin, 2, "\\n") == 0) {
            begin += 2;
        } else {
            continue;
        }
        if (!endSearched || (end != std::string::npos && end < begin)) {
            end = tpl.find("<|im_end|>", begin);
            endSearched = true;
        }
        if (end == std::string::npos) {
            break;
        }
        if (!quoteSearched || (quote != std::string::npos && quote < begin)) {
            quote = tpl.find_first_of("'\"{}", begin);
            quoteSearched = true;
        }
        if (quote == std::string::npos || quote >= end) {
            out += "<|im_start|>system\n" + tpl.substr(begin, end - begin) + "<|im_end|>\n";
            break;
        }
    }
    out += "<|im_start|>user\n" + user + "<|im_end|>\n<|im_start|>assistant\n";
    return out;
}

}  // namespace once
