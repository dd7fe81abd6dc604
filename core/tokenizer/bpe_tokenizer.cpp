#include "tokenizer/bpe_tokenizer.h"

#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tokenizer/byte_level.h"
#include "tokenizer/regex_splitter.h"
#include "tokenizer/utf8.h"
#include "util/error.h"

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

// Replaces each invalid UTF-8 sequence by U+FFFD, as Rust's from_utf8_lossy does.
std::string lossyUtf8(const std::string& s) {
    std::string out;
    std::size_t pos = 0;
    while (pos < s.size()) {
        std::size_t bad = utf8InvalidAt(s.substr(pos));
        if (bad == std::string::npos) {
            out.append(s, pos, std::string::npos);
            break;
        }
        out.append(s, pos, bad);
        pos += bad;
        unsigned char c = static_cast<unsigned char>(s[pos]);
        std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 1;
        std::size_t k = 1;
        while (k < len && pos + k < s.size() &&
               (static_cast<unsigned char>(s[pos + k]) & 0xC0) == 0x80) {
            ++k;
        }
        out += "\xEF\xBF\xBD";
        pos += k;
    }
    return out;
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
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        fail("cannot open the tokenizer", path, {}, "a readable tokenizer.json", "missing");
    }
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(in);
    } catch (const std::exception& e) {
        fail("tokenizer.json is not valid JSON: " + std::string(e.what()), path);
    }
    return fromJson(j, path);
}

BpeTokenizer BpeTokenizer::fromJson(const nlohmann::json& j, const std::string& path) {
    BpeTokenizer t;
    t.path_ = path;
    const auto& model = j.value("model", nlohmann::json::object());
    std::string type = model.value("type", std::string("BPE"));
    if (type != "BPE") {
        fail("only BPE tokenizers are supported", path, "model.type", "BPE", type);
    }
    if (!model.contains("vocab") || !model["vocab"].is_object()) {
        fail("the tokenizer has no vocabulary", path, "model.vocab", "an object", "missing");
    }
    if (!model.value("continuing_subword_prefix", nlohmann::json()).is_null() &&
        !model["continuing_subword_prefix"].get<std::string>().empty()) {
        fail("subword prefixes are not supported", path, "model.continuing_subword_prefix", "",
             model["continuing_subword_prefix"].get<std::string>());
    }
    for (const auto& [tok, id] : model["vocab"].items()) {
        t.vocab_[tok] = id.get<std::int64_t>();
    }
    t.ignoreMerges_ = model.value("ignore_merges", false);

    // Added tokens may extend the vocabulary beyond the BPE model's ids.
    for (const auto& a : j.value("added_tokens", nlohmann::json::array())) {
        AddedToken at;
        at.id = a.at("id").get<std::int64_t>();
        at.content = a.at("content").get<std::string>();
        at.special = a.value("special", false);
        at.lstrip = a.value("lstrip", false);
        at.rstrip = a.value("rstrip", false);
        t.added_.push_back(at);
        t.vocab_[at.content] = at.id;
    }
    std::int64_t maxId = -1;
    for (const auto& [tok, id] : t.vocab_) {
        maxId = std::max(maxId, id);
    }
    t.size_ = maxId + 1;
    t.idToToken_.assign(std::size_t(t.size_), {});
    t.isAdded_.assign(std::size_t(t.size_), 0);
    for (const auto& [tok, id] : t.vocab_) {
        t.idToToken_[std::size_t(id)] = tok;
    }
    for (const auto& a : t.added_) {
        t.isAdded_[std::size_t(a.id)] = 1;
    }
    if (model.contains("unk_token") && model["unk_token"].is_string()) {
        t.unkId_ = t.tokenId(model["unk_token"].get<std::string>());
    }

    // Merges come as "a b" strings (older files) or ["a", "b"] pairs (tokenizers ≥ 0.20).
    const auto& merges = model.value("merges", nlohmann::json::array());
    std::int32_t rank = 0;
    for (const auto& m : merges) {
        std::string a, b;
        if (m.is_string()) {
            std::string s = m.get<std::string>();
            auto sp = s.find(' ');
            if (sp == std::string::npos) {
                fail("a merge is not two tokens", path,
                     "model.merges[" + std::to_string(rank) + "]", "\"a b\"", s);
            }
            a = s.substr(0, sp);
            b = s.substr(sp + 1);
        } else if (m.is_array() && m.size() == 2) {
            a = m[0].get<std::string>();
            b = m[1].get<std::string>();
        } else {
            fail("a merge is not two tokens", path, "model.merges[" + std::to_string(rank) + "]",
                 "[\"a\", \"b\"]", m.dump());
        }
        auto ia = t.vocab_.find(a), ib = t.vocab_.find(b), iab = t.vocab_.find(a + b);
        if (ia == t.vocab_.end() || ib == t.vocab_.end() || iab == t.vocab_.end()) {
            fail("a merge uses a token outside the vocabulary", path,
                 "model.merges[" + std::to_string(rank) + "]", "tokens of model.vocab",
                 a + " + " + b);
        }
        std::uint64_t key = (std::uint64_t(ia->second) << 32) | std::uint64_t(ib->second);
        t.merges_.emplace(key, std::make_pair(rank, iab->second));
        ++rank;
    }

    // Normalizer: null, one form, or a Sequence of forms.
    const auto& norm = j.value("normalizer", nlohmann::json());
    if (!norm.is_null()) {
        std::vector<nlohmann::json> list;
        if (norm.value("type", std::string()) == "Sequence") {
            for (const auto& n : norm.at("normalizers")) {
                list.push_back(n);
            }
        } else {
            list.push_back(norm);
        }
        for (const auto& n : list) {
            t.normalizers_.push_back(parseNormalForm(n.value("type", std::string("?")), path));
        }
    }

    // Pre-tokenizer: Split (regex or literal, isolated) and ByteLevel, alone or in a Sequence.
    const auto& pre = j.value("pre_tokenizer", nlohmann::json());
    std::vector<nlohmann::json> steps;
    if (!pre.is_null()) {
        if (pre.value("type", std::string()) == "Sequence") {
            for (const auto& p : pre.at("pretokenizers")) {
                steps.push_back(p);
            }
        } else {
            steps.push_back(pre);
        }
    }
    bool sawByteLevel = false;
    for (const auto& s : steps) {
        auto step = std::make_unique<PreStep>();
        std::string st = s.value("type", std::string("?"));
        if (st == "Split") {
            std::string behavior = s.value("behavior", std::string("Isolated"));
            if (behavior != "Isolated" || s.value("invert", false)) {
                fail("unsupported Split behaviour", path, "pre_tokenizer.behavior",
                     "Isolated, invert false", behavior);
            }
            const auto& pat = s.at("pattern");
            std::string regex = pat.contains("Regex")
                                    ? pat["Regex"].get<std::string>()
                                    : escapeLiteral(pat.at("String").get<std::string>());
            step->splitter = std::make_unique<RegexSplitter>(regex, path);
        } else if (st == "ByteLevel") {
            step->byteLevel = true;
            step->addPrefixSpace = s.value("add_prefix_space", false);
            if (s.value("use_regex", true)) {
                step->splitter = std::make_unique<RegexSplitter>(kGpt2Pattern, path);
            }
            sawByteLevel = true;
        } else {
            fail("unsupported pre-tokenizer", path, "pre_tokenizer.type", "Split or ByteLevel", st);
        }
        t.preSteps_.push_back(std::move(step));
    }
    if (!sawByteLevel) {
        fail("only byte-level BPE is supported", path, "pre_tokenizer", "a ByteLevel step",
             pre.is_null() ? "null" : pre.dump().substr(0, 200));
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
        if (id < 0 || id >= size_ || idToToken_[std::size_t(id)].empty()) {
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
