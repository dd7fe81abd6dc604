#include "tokenizer/bpe_tokenizer.h"

#include <limits>
#include <nlohmann/json.hpp>

#include "tokenizer/byte_level.h"
#include "tokenizer/regex_splitter.h"
#include "tokenizer/utf8.h"
#include "util/error.h"
#include "util/json_file.h"

namespace once {
namespace {

// GPT-2's pattern, used by ByteLevel when its `use_regex` is true.
constexpr const char* kGpt2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

std::string escapeLiteral(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (std::string_view("\\^$.|?*+()[]{}-").find(c) != std::string_view::npos) {
            out += '\\';
        }
        out += c;
    }
    return out;
}

bool isSpaceByte(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

}  // namespace

struct BpeTokenizer::PreStep {
    std::unique_ptr<RegexSplitter> splitter;  ///< null: no splitting
    bool byteLevel = false;
    bool addPrefixSpace = false;
};

BpeTokenizer::BpeTokenizer(BpeTokenizer&&) noexcept = default;
BpeTokenizer& BpeTokenizer::operator=(BpeTokenizer&&) noexcept = default;
BpeTokenizer::~BpeTokenizer() = default;

BpeTokenizer BpeTokenizer::fromFile(const std::string& path) {
    JsonLimits limits;
    limits.maxBytes = kMaxTokenizerJsonBytes;
    return fromJson(parseJsonFile(path, limits), path);
}

namespace {

// Dotted names of list elements in messages: "model.merges[3]".
std::string elementName(const std::string& field, std::size_t i) {
    return field + "[" + std::to_string(i) + "]";
}

// A token id as `tokenizers` reads it (an unsigned 32-bit JSON integer; a float such as 3.0 is
// refused as serde does), below our table limit kMaxTokenizerVocab.
std::int64_t tokenIdValue(const nlohmann::json& v, const std::string& path,
                          const std::string& field) {
    if (!v.is_number_integer()) {
        fail("a token id is not an integer", path, field,
             "an integer 0.." + std::to_string(kMaxTokenizerVocab - 1), jsonTypeName(v));
    }
    return jsonToInt(v, path, field, 0, kMaxTokenizerVocab - 1);
}

// The members of a Sequence (`listKey`) or the one step itself.
std::vector<const nlohmann::json*> steps(const nlohmann::json& j, const std::string& listKey,
                                         const std::string& path, const std::string& field) {
    std::vector<const nlohmann::json*> out;
    if (jsonStringOr(j, "type", "", path, field) == "Sequence") {
        const auto& list = jsonRequire(j, listKey, path, field);
        if (!list.is_array()) {
            fail("wrong JSON type", path, field + "." + listKey, "an array", jsonTypeName(list));
        }
        for (const auto& e : list) {
            out.push_back(&e);
        }
    } else {
        out.push_back(&j);
    }
    return out;
}

}  // namespace

BpeTokenizer BpeTokenizer::fromJson(const nlohmann::json& j, const std::string& path) {
    BpeTokenizer t;
    t.path_ = path;
    if (!j.is_object()) {
        fail("tokenizer.json is not a JSON object", path, "(top level)", "an object",
             jsonTypeName(j));
    }
    const nlohmann::json* modelPtr = jsonFind(j, "model", path, "");
    if (!modelPtr) {
        fail("the tokenizer has no model", path, "model", "an object", "missing");
    }
    const nlohmann::json& model = *modelPtr;
    const std::string type = jsonStringOr(model, "type", "BPE", path, "model");
    if (type != "BPE") {
        fail("only BPE tokenizers are supported", path, "model.type", "BPE", type);
    }
    const nlohmann::json* vocab = jsonFind(model, "vocab", path, "model");
    if (!vocab || !vocab->is_object()) {
        fail("the tokenizer has no vocabulary", path, "model.vocab", "an object",
             vocab ? jsonTypeName(*vocab) : "missing");
    }
    for (const char* affix : {"continuing_subword_prefix", "end_of_word_suffix"}) {
        const std::string v = jsonStringOr(model, affix, "", path, "model");
        if (!v.empty()) {
            fail("subword prefixes and suffixes are not supported", path,
                 std::string("model.") + affix, "null or empty", printableExcerpt(v));
        }
    }
    t.ignoreMerges_ = jsonBoolOr(model, "ignore_merges", false, path, "model");

    // The BPE model's own vocabulary. `tokenizers` accepts repeated ids and gaps; so do we (an
    // id shared by two tokens decodes as the first of them in key order), but every id must
    // index our tables, hence kMaxTokenizerVocab.
    std::unordered_map<std::string, std::int64_t> modelVocab;
    modelVocab.reserve(vocab->size());
    for (const auto& [tok, id] : vocab->items()) {
        modelVocab[tok] = tokenIdValue(id, path, "model.vocab." + printableExcerpt(tok, 40));
    }
    t.vocab_ = modelVocab;

    // Added tokens get their ids as `tokenizers` assigns them (AddedVocabulary::add_tokens), not
    // from the file's "id": a content already known keeps its id, a new one takes
    // max(model vocabulary size, largest added id + 1). For every published file the two agree;
    // for a file where they do not, this is the id `tokenizers` (and so the model) uses.
    const nlohmann::json* added = jsonFind(j, "added_tokens", path, "");
    if (added && !added->is_array()) {
        fail("wrong JSON type", path, "added_tokens", "an array", jsonTypeName(*added));
    }
    std::int64_t maxAdded = -1;
    std::unordered_map<std::string, std::size_t> addedIndex;
    for (std::size_t i = 0; added && i < added->size(); ++i) {
        const auto& a = (*added)[i];
        const std::string field = elementName("added_tokens", i);
        AddedToken tok;
        tokenIdValue(jsonRequire(a, "id", path, field), path, field + ".id");
        tok.content =
            jsonToString(jsonRequire(a, "content", path, field), path, field + ".content");
        tok.special = jsonBoolOr(a, "special", false, path, field);
        tok.lstrip = jsonBoolOr(a, "lstrip", false, path, field);
        tok.rstrip = jsonBoolOr(a, "rstrip", false, path, field);
        if (tok.content.empty()) {
            continue;  // ignored by `tokenizers`
        }
        if (auto it = t.vocab_.find(tok.content); it != t.vocab_.end()) {
            tok.id = it->second;
        } else {
            tok.id = std::max<std::int64_t>(std::int64_t(modelVocab.size()), maxAdded + 1);
            if (tok.id >= kMaxTokenizerVocab) {
                fail("too many tokens", path, field,
                     "ids below " + std::to_string(kMaxTokenizerVocab), std::to_string(tok.id));
            }
        }
        maxAdded = std::max(maxAdded, tok.id);
        t.vocab_[tok.content] = tok.id;
        if (auto it = addedIndex.find(tok.content); it != addedIndex.end()) {
            t.added_[it->second] = tok;  // a repeated content updates its flags
        } else {
            addedIndex[tok.content] = t.added_.size();
            t.added_.push_back(tok);
        }
    }
    std::int64_t maxId = -1;
    for (const auto& [tok, id] : t.vocab_) {
        maxId = std::max(maxId, id);
    }
    t.size_ = maxId + 1;  // <= kMaxTokenizerVocab: every id was checked above
    t.idToToken_.assign(std::size_t(t.size_), {});
    t.hasToken_.assign(std::size_t(t.size_), 0);
    t.isAdded_.assign(std::size_t(t.size_), 0);
    // Key order (nlohmann keeps objects sorted), so a shared id decodes the same every run.
    for (const auto& [tok, id] : vocab->items()) {
        const std::size_t k = std::size_t(modelVocab.at(tok));
        if (!t.hasToken_[k]) {
            t.idToToken_[k] = tok;
            t.hasToken_[k] = 1;
        }
    }
    for (const auto& a : t.added_) {
        t.idToToken_[std::size_t(a.id)] = a.content;
        t.hasToken_[std::size_t(a.id)] = 1;
        t.isAdded_[std::size_t(a.id)] = 1;
    }
    const std::string unk = jsonStringOr(model, "unk_token", "", path, "model");
    if (!unk.empty()) {
        t.unkId_ = t.tokenId(unk);
    }

    // Merges come as "a b" strings (older files) or ["a", "b"] pairs (tokenizers >= 0.20). As in
    // `tokenizers`, all three of a, b and ab must be in the model vocabulary, and a repeated
    // pair takes the rank of its last occurrence.
    const nlohmann::json* merges = jsonFind(model, "merges", path, "model");
    if (merges && !merges->is_array()) {
        fail("wrong JSON type", path, "model.merges", "an array", jsonTypeName(*merges));
    }
    if (merges && merges->size() > std::size_t(std::numeric_limits<std::int32_t>::max())) {
        fail("too many merges", path, "model.merges", "fewer than 2^31", "more");
    }
    for (std::size_t rank = 0; merges && rank < merges->size(); ++rank) {
        const auto& m = (*merges)[rank];
        const std::string field = elementName("model.merges", rank);
        std::string a, b;
        if (m.is_string()) {
            const std::string s = m.get<std::string>();
            const auto sp = s.find(' ');
            if (sp == std::string::npos || s.find(' ', sp + 1) != std::string::npos) {
                fail("a merge is not two tokens", path, field, "\"a b\"", printableExcerpt(s));
            }
            a = s.substr(0, sp);
            b = s.substr(sp + 1);
        } else if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {
            a = m[0].get<std::string>();
            b = m[1].get<std::string>();
        } else {
            fail(
                "a merge is not two tokens", path, field, "[\"a\", \"b\"]",
                printableExcerpt(m.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
        }
        auto ia = modelVocab.find(a), ib = modelVocab.find(b), iab = modelVocab.find(a + b);
        if (ia == modelVocab.end() || ib == modelVocab.end() || iab == modelVocab.end()) {
            fail("a merge uses a token outside the vocabulary", path, field,
                 "tokens of model.vocab", printableExcerpt(a + " + " + b));
        }
        const std::uint64_t key = (std::uint64_t(ia->second) << 32) | std::uint64_t(ib->second);
        t.merges_[key] = std::make_pair(std::int32_t(rank), iab->second);
    }

    // Normalizer: null, one form, or a Sequence of forms.
    if (const nlohmann::json* norm = jsonFind(j, "normalizer", path, "")) {
        for (const nlohmann::json* n : steps(*norm, "normalizers", path, "normalizer")) {
            t.normalizers_.push_back(
                parseNormalForm(jsonStringOr(*n, "type", "?", path, "normalizer"), path));
        }
    }

    // Pre-tokenizer: Split (regex or literal, isolated) and ByteLevel, alone or in a Sequence.
    const nlohmann::json* pre = jsonFind(j, "pre_tokenizer", path, "");
    bool sawByteLevel = false;
    for (const nlohmann::json* s : pre ? steps(*pre, "pretokenizers", path, "pre_tokenizer")
                                       : std::vector<const nlohmann::json*>{}) {
        auto step = std::make_unique<PreStep>();
        const std::string st = jsonStringOr(*s, "type", "?", path, "pre_tokenizer");
        if (st == "Split") {
            const std::string behavior =
                jsonStringOr(*s, "behavior", "Isolated", path, "pre_tokenizer");
            if (behavior != "Isolated" || jsonBoolOr(*s, "invert", false, path, "pre_tokenizer")) {
                fail("unsupported Split behaviour", path, "pre_tokenizer.behavior",
                     "Isolated, invert false", printableExcerpt(behavior));
            }
            const auto& pat = jsonRequire(*s, "pattern", path, "pre_tokenizer");
            const nlohmann::json* re = jsonFind(pat, "Regex", path, "pre_tokenizer.pattern");
            std::string regex = re ? jsonToString(*re, path, "pre_tokenizer.pattern.Regex")
                                   : escapeLiteral(jsonToString(
                                         jsonRequire(pat, "String", path, "pre_tokenizer.pattern"),
                                         path, "pre_tokenizer.pattern.String"));
            step->splitter = std::make_unique<RegexSplitter>(regex, path);
        } else if (st == "ByteLevel") {
            step->byteLevel = true;
            step->addPrefixSpace = jsonBoolOr(*s, "add_prefix_space", false, path, "pre_tokenizer");
            if (jsonBoolOr(*s, "use_regex", true, path, "pre_tokenizer")) {
                step->splitter = std::make_unique<RegexSplitter>(kGpt2Pattern, path);
            }
            sawByteLevel = true;
        } else {
            fail("unsupported pre-tokenizer", path, "pre_tokenizer.type", "Split or ByteLevel",
                 printableExcerpt(st));
        }
        t.preSteps_.push_back(std::move(step));
    }
    if (!sawByteLevel) {
        fail("only byte-level BPE is supported", path, "pre_tokenizer", "a ByteLevel step",
             pre ? printableExcerpt(
                       pre->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), 200)
                 : "null");
    }
    return t;
}

std::optional<std::int64_t> BpeTokenizer::tokenId(const std::string& token) const {
    auto it = vocab_.find(token);
    if (it == vocab_.end()) {
        return std::nullopt;
    }
    return it->second;
}

std::int64_t BpeTokenizer::requireTokenId(const std::string& token) const {
    auto id = tokenId(token);
    if (!id) {
        fail("the tokenizer lacks a required token", path_, "added_tokens", token, "absent");
    }
    return *id;
}

std::vector<std::int64_t> BpeTokenizer::encode(const std::string& text) const {
    std::size_t bad = utf8InvalidAt(text);
    if (bad != std::string::npos) {
        fail("text is not valid UTF-8", path_, "input", "UTF-8",
             "invalid byte at offset " + std::to_string(bad));
    }
    std::vector<std::int64_t> out;
    std::size_t pos = 0, segStart = 0;
    // Added tokens first, leftmost-longest, so "<|im_end|>" never reaches the BPE.
    while (pos < text.size()) {
        const AddedToken* best = nullptr;
        for (const auto& a : added_) {
            if (!a.content.empty() && text.compare(pos, a.content.size(), a.content) == 0 &&
                (!best || a.content.size() > best->content.size())) {
                best = &a;
            }
        }
        if (!best) {
            ++pos;
            continue;
        }
        std::size_t segEnd = pos, next = pos + best->content.size();
        if (best->lstrip) {
            while (segEnd > segStart && isSpaceByte(text[segEnd - 1])) {
                --segEnd;
            }
        }
        if (best->rstrip) {
            while (next < text.size() && isSpaceByte(text[next])) {
                ++next;
            }
        }
        encodeSegment(std::string_view(text).substr(segStart, segEnd - segStart), out);
        out.push_back(best->id);
        pos = segStart = next;
    }
    encodeSegment(std::string_view(text).substr(segStart), out);
    return out;
}

void BpeTokenizer::encodeSegment(std::string_view segment, std::vector<std::int64_t>& out) const {
    if (segment.empty()) {
        return;
    }
    std::string text(segment);
    for (NormalForm f : normalizers_) {
        text = normalizeUnicode(text, f);
    }
    std::vector<std::string> pieces{text};
    for (const auto& step : preSteps_) {
        std::vector<std::string> next;
        for (auto& p : pieces) {
            if (step->addPrefixSpace && (p.empty() || p[0] != ' ')) {
                p = " " + p;
            }
            if (step->splitter) {
                for (auto v : step->splitter->split(p)) {
                    next.emplace_back(v);
                }
            } else {
                next.push_back(std::move(p));
            }
        }
        if (step->byteLevel) {
            for (auto& p : next) {
                p = byteLevelEncode(p);
            }
        }
        pieces = std::move(next);
    }
    for (const auto& p : pieces) {
        bpe(p, out);
    }
}

void BpeTokenizer::bpe(const std::string& word, std::vector<std::int64_t>& out) const {
    if (word.empty()) {
        return;
    }
    if (auto it = cache_.find(word); it != cache_.end()) {
        out.insert(out.end(), it->second.begin(), it->second.end());
        return;
    }
    std::vector<std::int64_t> syms;
    auto whole = vocab_.find(word);
    if (ignoreMerges_ && whole != vocab_.end()) {
        syms.push_back(whole->second);
    } else {
        std::size_t pos = 0;
        while (pos < word.size()) {
            std::size_t start = pos;
            utf8Next(word, pos);
            auto it = vocab_.find(word.substr(start, pos - start));
            if (it != vocab_.end()) {
                syms.push_back(it->second);
            } else if (unkId_) {
                syms.push_back(*unkId_);
            }  // without an unk token, HF drops a character the vocabulary lacks
        }
        // Repeatedly merge the lowest-ranked adjacent pair, leftmost on ties (HF's order).
        while (syms.size() > 1) {
            std::int32_t bestRank = std::numeric_limits<std::int32_t>::max();
            std::size_t bestAt = 0;
            std::int64_t bestId = -1;
            for (std::size_t i = 0; i + 1 < syms.size(); ++i) {
                auto it = merges_.find((std::uint64_t(syms[i]) << 32) | std::uint64_t(syms[i + 1]));
                if (it != merges_.end() && it->second.first < bestRank) {
                    bestRank = it->second.first;
                    bestAt = i;
                    bestId = it->second.second;
                }
            }
            if (bestId < 0) {
                break;
            }
            syms[bestAt] = bestId;
            syms.erase(syms.begin() + std::ptrdiff_t(bestAt) + 1);
        }
    }
    if (cache_.size() < 100000) {
        cache_.emplace(word, syms);
    }
    out.insert(out.end(), syms.begin(), syms.end());
}

std::string BpeTokenizer::decodeBytes(const std::vector<std::int64_t>& ids,
                                      bool skipSpecial) const {
    std::string out, pending;
    for (std::int64_t id : ids) {
        if (id < 0 || id >= size_ || !hasToken_[std::size_t(id)]) {
            fail("token id outside the vocabulary", path_, "id", "0.." + std::to_string(size_ - 1),
                 std::to_string(id));
        }
        if (isAdded_[std::size_t(id)]) {
            out += byteLevelDecode(pending);
            pending.clear();
            bool special = false;
            for (const auto& a : added_) {
                special = special || (a.id == id && a.special);
            }
            if (!(special && skipSpecial)) {
                out += idToToken_[std::size_t(id)];
            }
        } else {
            pending += idToToken_[std::size_t(id)];
        }
    }
    return out + byteLevelDecode(pending);
}

std::string BpeTokenizer::decode(const std::vector<std::int64_t>& ids, bool skipSpecial) const {
    return lossyUtf8(decodeBytes(ids, skipSpecial));
}

}  // namespace once
