#pragma once
// Byte-level BPE tokenizer read from a Hugging Face tokenizer.json (Qwen2, Llama-3, SmolLM2
// style): added/special tokens split first, then normalizer, pre-tokenizer (regex Split and
// ByteLevel), BPE merges by rank; decoding maps the byte characters back to UTF-8.
// Checked id for id against the `tokenizers` package (tests/tokenizer).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tokenizer/unicode_normalizer.h"

namespace once {

/// Token ids index tables of this size, so every id in a tokenizer.json must be below it
/// (2,097,152; the largest public vocabularies, e.g. Gemma 3's, have about 262,000 tokens).
/// `tokenizers` accepts any unsigned 32-bit id; a file with larger ids is refused here.
constexpr std::int64_t kMaxTokenizerVocab = std::int64_t(1) << 21;
/// Largest tokenizer.json read (the largest public one, Gemma 3's, is about 33 MB).
constexpr std::size_t kMaxTokenizerJsonBytes = std::size_t(128) << 20;

class RegexSplitter;

struct AddedToken {
    std::int64_t id = 0;
    std::string content;
    bool special = false;
    bool lstrip = false;  ///< swallows whitespace on its left
    bool rstrip = false;  ///< swallows whitespace on its right
};

class BpeTokenizer {
  public:
    /// Reads `path` (tokenizer.json, at most kMaxTokenizerJsonBytes, nested at most
    /// kMaxJsonDepth levels). Throws OnceError naming the file and the field on a missing,
    /// mistyped or unsupported part and on a token id outside 0..kMaxTokenizerVocab-1.
    static BpeTokenizer fromFile(const std::string& path);
    /// Builds from a parsed tokenizer.json document; `source` names it in errors (used by the
    /// GGUF tokenizer, which assembles the same document from GGUF metadata).
    static BpeTokenizer fromJson(const nlohmann::json& j, const std::string& source);
    BpeTokenizer(BpeTokenizer&&) noexcept;
    BpeTokenizer& operator=(BpeTokenizer&&) noexcept;
    ~BpeTokenizer();

    /// Token ids of `text` (valid UTF-8; throws OnceError otherwise). No BOS/EOS is added.
    std::vector<std::int64_t> encode(const std::string& text) const;
    /// Text of `ids`; invalid UTF-8 (a cut multi-byte character) becomes U+FFFD, as in HF.
    std::string decode(const std::vector<std::int64_t>& ids, bool skipSpecial = false) const;
    /// Raw bytes of `ids` (may end inside a character): what streaming output accumulates.
    std::string decodeBytes(const std::vector<std::int64_t>& ids, bool skipSpecial = false) const;

    std::optional<std::int64_t> tokenId(const std::string& token) const;
    /// Like tokenId but throws OnceError naming the tokenizer file when absent.
    std::int64_t requireTokenId(const std::string& token) const;
    /// One past the largest id (vocabulary plus added tokens).
    std::int64_t size() const noexcept { return size_; }
    const std::vector<AddedToken>& addedTokens() const noexcept { return added_; }
    const std::string& path() const noexcept { return path_; }

  private:
    BpeTokenizer() = default;
    struct PreStep;
    void encodeSegment(std::string_view segment, std::vector<std::int64_t>& out) const;
    void bpe(const std::string& word, std::vector<std::int64_t>& out) const;

    std::string path_;
    std::unordered_map<std::string, std::int64_t> vocab_;
    std::vector<std::string> idToToken_;
    std::vector<char> hasToken_;  ///< per id: some token has it (ids may have gaps)
    std::vector<char> isAdded_;
    std::unordered_map<std::uint64_t, std::pair<std::int32_t, std::int64_t>> merges_;
    std::vector<AddedToken> added_;
    std::vector<NormalForm> normalizers_;
    std::vector<std::unique_ptr<PreStep>> preSteps_;
    bool ignoreMerges_ = false;
    std::optional<std::int64_t> unkId_;
    std::int64_t size_ = 0;
    mutable std::unordered_map<std::string, std::vector<std::int64_t>> cache_;
};

}  // namespace once
