#pragma once
// A single-turn prompt in the chat format a GGUF file's `tokenizer.chat_template` describes.
// There is no Jinja interpreter here: templates are recognised by their markers (ChatML's
// <|im_start|>/<|im_end|>, as SmolLM2 and Qwen use) and rendered the way they render one user
// turn with the generation prompt, including a default system turn the template inserts.
#include <string>

namespace once {

/// The prompt text for one user message. Throws OnceError naming `source` and
/// tokenizer.chat_template for an empty or unrecognised template.
std::string applyGgufChatTemplate(const std::string& chatTemplate, const std::string& user,
                                  const std::string& source = {});

}  // namespace once
