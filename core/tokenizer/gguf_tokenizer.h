#pragma once
// The byte-level BPE tokenizer a GGUF file describes in its metadata (`tokenizer.ggml.model` =
// gpt2: tokens, merges, token types, special ids), built the way transformers' GGUF tokenizer
// conversion builds it, so that ids match AutoTokenizer.from_pretrained(dir, gguf_file=…).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "tokenizer/bpe_tokenizer.h"

namespace once {

class GgufFile;

/// Most tokens (and most merges) of a GGUF tokenizer.
constexpr std::size_t kMaxGgufVocabulary = std::size_t(1) << 21;

/// Special ids and the chat template a GGUF file names beside its tokenizer.
struct GgufTokenizerInfo {
    std::optional<std::int64_t> bosId, eosId, eotId;
    bool addBos = false;       ///< tokenizer.ggml.add_bos_token
    std::string preTokenizer;  ///< tokenizer.ggml.pre ("smollm", "llama-bpe", "qwen2", …)
    std::string chatTemplate;  ///< tokenizer.chat_template (Jinja), empty when absent
};

/// Builds the tokenizer. Throws OnceError naming the file and key for a tokenizer model other
/// than gpt2 (sentencepiece "llama" vocabularies are not byte-level) or missing tokens/merges.
BpeTokenizer tokenizerFromGguf(const GgufFile& file);
GgufTokenizerInfo tokenizerInfoFromGguf(const GgufFile& file);

}  // namespace once
