#include "tokenizer/gguf_tokenizer.h"

#include <map>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include "models/gguf_file.h"
#include "tokenizer/byte_level.h"
#include "tokenizer/utf8.h"
#include "util/error.h"

namespace once {
namespace {

// Split patterns transformers pairs with `tokenizer.ggml.pre` values
// (integrations/gguf/gguf_tokenizer_mapping.py GGUF_PRE_TOKENIZER_SPLITS). A value not listed
// (GPT-2 itself, "smollm", …) keeps GPT2Tokenizer's ByteLevel pre-tokenizer with its own regex.
const char* kLlama3Split = R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3})"
                           R"(| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
const char* kQwen2Split = R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N})"
                          R"(| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
const char* kTekkenSplit =
    R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+)"
    R"(|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*)"
    R"(|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
const char* kGpt4oSplit =
    R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?)"
    R"(|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?)"
    R"(|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

const char* splitFor(const std::string& pre) {
    static const std::map<std::string, const char*> table = {
        {"llama3", kLlama3Split},       {"llama-v3", kLlama3Split},
        {"llama-bpe", kLlama3Split},    {"falcon3", kLlama3Split},
        {"falcon-h1", kLlama3Split},    {"pixtral", kLlama3Split},
        {"midm-2.0", kLlama3Split},     {"lfm2", kLlama3Split},
        {"jina-v5-nano", kLlama3Split}, {"dbrx", kLlama3Split},
        {"smaug-bpe", kLlama3Split},    {"tekken", kTekkenSplit},
        {"qwen2", kQwen2Split},         {"deepseek-r1-qwen", kQwen2Split},
        {"kormo", kQwen2Split},         {"f2llmv2", kQwen2Split},
        {"megrez", kQwen2Split},        {"gpt-4o", kGpt4oSplit},
        {"llama4", kGpt4oSplit},        {"kanana2", kGpt4oSplit},
        {"talkie", kGpt4oSplit},        {"minimax-m2", kGpt4oSplit},
    };
    auto it = table.find(pre);
    return it == table.end() ? nullptr : it->second;
}

// ggml token types (llama.cpp llama_token_type).
constexpr std::int64_t kControl = 3, kUserDefined = 4;

}  // namespace

GgufTokenizerInfo tokenizerInfoFromGguf(const GgufFile& g) {
    GgufTokenizerInfo info;
    // A special token's id indexes the vocabulary (the BOS id is the prompt's first token): one
    // outside it is refused here, naming the key, not at generation time.
    const GgufValue* tokens = g.find("tokenizer.ggml.tokens");
    const auto vocab = std::int64_t(tokens ? tokens->arraySize() : 0);
    auto special = [&](const char* key, std::optional<std::int64_t>& id) {
        if (!g.has(key)) {
            return;
        }
        id = g.getInt(key);
        if (*id < 0 || *id >= vocab) {
            fail("a special token id outside the vocabulary", g.path(), key,
                 "an id in [0, " + std::to_string(vocab) + ")", std::to_string(*id));
        }
    };
    special("tokenizer.ggml.bos_token_id", info.bosId);
    special("tokenizer.ggml.eos_token_id", info.eosId);
    special("tokenizer.ggml.eot_token_id", info.eotId);
    info.addBos = g.getBoolOr("tokenizer.ggml.add_bos_token", false);
    info.preTokenizer = g.getStringOr("tokenizer.ggml.pre", "");
    info.chatTemplate = g.getStringOr("tokenizer.chat_template", "");
    return info;
}

BpeTokenizer tokenizerFromGguf(const GgufFile& g) {
    const std::string model = g.getString("tokenizer.ggml.model");
    if (model != "gpt2") {
        fail("only byte-level BPE GGUF tokenizers are supported", g.path(), "tokenizer.ggml.model",
             "gpt2", model);
    }
    const std::vector<std::string> tokens = g.getStringArray("tokenizer.ggml.tokens");
    const std::vector<std::string> merges = g.getStringArray("tokenizer.ggml.merges");
    // The vocabulary becomes a JSON document of about 100 bytes per entry: bounded here, far
    // above real vocabularies (Gemma's 262,144 tokens).
    for (const auto& [key, n] : {std::pair{"tokenizer.ggml.tokens", tokens.size()},
                                 std::pair{"tokenizer.ggml.merges", merges.size()}}) {
        if (n > kMaxGgufVocabulary) {
            fail("the GGUF tokenizer is larger than the limit", g.path(), key,
                 "at most " + std::to_string(kMaxGgufVocabulary) + " entries", std::to_string(n));
        }
    }
    std::vector<std::int64_t> types;
    if (g.has("tokenizer.ggml.token_type")) {
        types = g.getIntArray("tokenizer.ggml.token_type");
        if (types.size() != tokens.size()) {
            fail("token types and tokens differ in number", g.path(), "tokenizer.ggml.token_type",
                 std::to_string(tokens.size()), std::to_string(types.size()));
        }
    }
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (utf8InvalidAt(tokens[i]) != std::string::npos) {
            fail("a token is not valid UTF-8", g.path(),
                 "tokenizer.ggml.tokens[" + std::to_string(i) + "]", "UTF-8", "invalid bytes");
        }
    }

    // The byte alphabet: a token spelled only with its characters is kept as is; any other
    // (a mislabelled raw-text token) is re-spelled byte by byte, as transformers does.
    std::unordered_set<std::string> alphabet(byteToUnicode().begin(), byteToUnicode().end());
    auto inAlphabet = [&](const std::string& t) {
        for (std::size_t pos = 0; pos < t.size();) {
            const unsigned char c = static_cast<unsigned char>(t[pos]);
            const std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
            if (!alphabet.count(t.substr(pos, len))) {
                return false;
            }
            pos += len;
        }
        return true;
    };

    nlohmann::json j;
    nlohmann::json vocab = nlohmann::json::object();
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        // Later duplicates win, as in the Python dict transformers builds.
        vocab[inAlphabet(tokens[i]) ? tokens[i] : byteLevelEncode(tokens[i])] = std::int64_t(i);
    }
    nlohmann::json added = nlohmann::json::array();
    for (std::size_t i = 0; i < types.size(); ++i) {
        // CONTROL tokens become special added tokens (if spelled in the byte alphabet);
        // USER_DEFINED ones plain added tokens, so both are matched whole in text.
        const bool control = types[i] == kControl && inAlphabet(tokens[i]);
        const bool user = types[i] == kUserDefined && vocab.contains(tokens[i]);
        if (control || user) {
            added.push_back({{"id", std::int64_t(i)},
                             {"content", tokens[i]},
                             {"special", control},
                             {"lstrip", false},
                             {"rstrip", false}});
        }
    }
    j["added_tokens"] = std::move(added);
    j["model"] = {{"type", "BPE"}, {"vocab", std::move(vocab)}, {"merges", merges}};
    j["normalizer"] = nullptr;
    const char* split = splitFor(g.getStringOr("tokenizer.ggml.pre", ""));
    if (split) {
        j["pre_tokenizer"] = {
            {"type", "Sequence"},
            {"pretokenizers",
             {{{"type", "Split"}, {"pattern", {{"Regex", split}}}, {"behavior", "Isolated"}},
              {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}}}}};
    } else {
        j["pre_tokenizer"] = {
            {"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", true}};
    }
    return BpeTokenizer::fromJson(j, g.path());
}

}  // namespace once
