#include "models/llava_ov/chat_prompt.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "models/qwen2/qwen2_model.h"
#include "tokenizer/bpe_tokenizer.h"
#include "util/error.h"
#include "util/json_file.h"

namespace once {

namespace {

// Chat templates are a few kilobytes; tokenizer_config.json can hold a large added-token table.
constexpr std::size_t kMaxTemplateFileBytes = std::size_t(32) << 20;

/// The chat template of a folder and the file it came from ("" when there is none), in the
/// order transformers 5 looks for it.
std::pair<std::string, std::string> findChatTemplate(const std::string& dir) {
    namespace fs = std::filesystem;
    const std::string jinja = dir + "/chat_template.jinja";
    if (fs::exists(jinja)) {
        return {readFileLimited(jinja, kMaxTemplateFileBytes), jinja};
    }
    for (const char* name :
         {"chat_template.json", "processor_config.json", "tokenizer_config.json"}) {
        const std::string path = dir + "/" + name;
        if (!fs::exists(path)) {
            continue;
        }
        const nlohmann::json j = parseJsonFile(path, {kMaxTemplateFileBytes, kMaxJsonDepth});
        if (j.is_object() && j.contains("chat_template")) {
            if (!j["chat_template"].is_string()) {
                // A list of named templates ({"name", "template"}) is tokenizer_config's other
                // form.
                if (j["chat_template"].is_array()) {
                    for (const auto& t : j["chat_template"]) {
                        if (t.is_object() && t.value("name", std::string()) == "default" &&
                            t.contains("template") && t["template"].is_string()) {
                            return {t["template"].get<std::string>(), path};
                        }
                    }
                }
                fail("chat_template is not text", path, "chat_template", "a string",
                     j["chat_template"].type_name());
            }
            return {j["chat_template"].get<std::string>(), path};
        }
    }
    return {"", ""};
}

/// The llava-hf LLaVA-OneVision template (their conversion script): role + "\n", images then
/// videos each as "<tag>\n", the text, "<|im_end|>\n", and "<|im_start|>assistant\n" to answer.
bool isLlavaHfTemplate(const std::string& t) {
    auto has = [&](const char* s) { return t.find(s) != std::string::npos; };
    return has("'<|im_start|>' + message['role'] + '\\n'") && has("'<video>\\n'") &&
           has("'<|im_end|>' + '\\n'") && has("'<|im_start|>assistant\\n'") &&
           !has("You are");  // no injected default system prompt
}

}  // namespace

PromptStyle choosePromptStyle(const std::string& dir, const std::string& requested) {
    if (requested != "auto" && requested != "llava-next" && requested != "chat-template") {
        fail("unknown prompt format", {}, "prompt-format", "auto, llava-next or chat-template",
             requested);
    }
    PromptStyle s;
    if (requested == "llava-next") {
        s.source = "LLaVA-NeXT conv_qwen (asked for)";
        return s;
    }
    const auto [text, file] = findChatTemplate(dir);
    if (!text.empty() && isLlavaHfTemplate(text)) {
        s.format = PromptFormat::LlavaHf;
        s.source = file;
        return s;
    }
    if (requested == "chat-template") {
        fail(text.empty() ? "the model folder has no chat template"
                          : "the folder's chat template is not the llava-hf LLaVA-OneVision one",
             text.empty() ? dir : file, "chat_template", "the llava-hf LLaVA-OneVision template",
             text.empty() ? "none" : "another template");
    }
    s.source = "LLaVA-NeXT conv_qwen";
    if (!text.empty()) {
        s.notice = "the chat template in " + file +
                   " is not the llava-hf LLaVA-OneVision one: using LLaVA-NeXT's conv_qwen "
                   "prompt (--prompt-format to choose)";
    }
    return s;
}

ChatPrompt buildVideoPrompt(const BpeTokenizer& tok, const PromptStyle& style,
                            const std::string& question, const std::string& system) {
    if (style.format == PromptFormat::LlavaNext) {
        return buildLlavaOvPrompt(tok, question, system.empty() ? kLlavaSystemPrompt : system);
    }
    if (std::all_of(question.begin(), question.end(),
                    [](unsigned char c) { return std::isspace(c) != 0; })) {
        fail("the question is empty", {}, "question", "non-empty text", "empty");
    }
    tok.requireTokenId("<|im_start|>");
    tok.requireTokenId("<|im_end|>");
    const std::int64_t placeholderId = tok.requireTokenId("<video>");
    std::string text;
    if (!system.empty()) {
        text = "<|im_start|>system\n" + system + "<|im_end|>\n";
    }
    text += "<|im_start|>user\n<video>\n" + question + "<|im_end|>\n<|im_start|>assistant\n";
    ChatPrompt p;
    p.ids = tok.encode(text);
    const auto count = std::count(p.ids.begin(), p.ids.end(), placeholderId);
    if (count != 1) {
        fail("the question must not contain the visual placeholder", {}, "question", "no <video>",
             std::to_string(count - 1) + " extra");
    }
    p.placeholderIndex = std::find(p.ids.begin(), p.ids.end(), placeholderId) - p.ids.begin();
    return p;
}

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
