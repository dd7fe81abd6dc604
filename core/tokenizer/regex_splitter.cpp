#include "tokenizer/regex_splitter.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "util/error.h"
#include "util/json_file.h"

namespace once {
namespace {

// Unicode White_Space, the set Oniguruma's and Rust's \s match.
constexpr const char* kSpaceSet =
    "\\t\\n\\x{0B}\\f\\r \\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}"
    "\\x{202F}\\x{205F}\\x{3000}";

}  // namespace

struct RegexSplitter::Impl {
    pcre2_code* code = nullptr;
    std::string source;
    ~Impl() {
        if (code) {
            pcre2_code_free(code);
        }
    }
};

std::string RegexSplitter::translate(const std::string& pattern) {
    std::string out;
    bool inClass = false;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        char c = pattern[i];
        if (c == '\\' && i + 1 < pattern.size()) {
            char n = pattern[++i];
            if (n == 's') {
                out += inClass ? std::string(kSpaceSet) : "[" + std::string(kSpaceSet) + "]";
            } else if (n == 'S' && !inClass) {
                out += "[^" + std::string(kSpaceSet) + "]";
            } else if (n == 'S') {
                fail("\\S inside a character class is not supported", "tokenizer.json",
                     "pre_tokenizer.pattern", "no [\\S…]", pattern);
            } else {
                out += c;
                out += n;
            }
            continue;
        }
        if (c == '[' && !inClass) {
            inClass = true;
            out += c;
            // A ']' right after '[' or '[^' is a literal, not the end of the class.
            if (i + 1 < pattern.size() && pattern[i + 1] == '^') {
                out += pattern[++i];
            }
            if (i + 1 < pattern.size() && pattern[i + 1] == ']') {
                out += pattern[++i];
            }
            continue;
        }
        if (c == ']' && inClass) {
            inClass = false;
        }
        out += c;
    }
    return out;
}

RegexSplitter::RegexSplitter(const std::string& pattern, const std::string& source)
    : impl_(std::make_unique<Impl>()) {
    impl_->source = source;
    std::string p = translate(pattern);
    int err = 0;
    PCRE2_SIZE offset = 0;
    impl_->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(p.data()), p.size(),
                                PCRE2_UTF | PCRE2_UCP, &err, &offset, nullptr);
    if (!impl_->code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(err, msg, sizeof msg);
        fail("cannot compile the pre-tokenizer regex: " + std::string(reinterpret_cast<char*>(msg)),
             source, "pre_tokenizer.pattern.Regex", "a valid regex",
             printableExcerpt(pattern, 200) + " (at offset " + std::to_string(offset) + ")");
    }
    // JIT is an optimisation only: fall back to the interpreter where it is unavailable.
    pcre2_jit_compile(impl_->code, PCRE2_JIT_COMPLETE);
}

RegexSplitter::~RegexSplitter() = default;

std::vector<std::string_view> RegexSplitter::split(std::string_view text) const {
    std::vector<std::string_view> pieces;
    std::unique_ptr<pcre2_match_data, void (*)(pcre2_match_data*)> data(
        pcre2_match_data_create_from_pattern(impl_->code, nullptr), pcre2_match_data_free);
    pcre2_match_data* md = data.get();
    if (!md) {
        fail("out of memory for the pre-tokenizer regex", impl_->source,
             "pre_tokenizer.pattern.Regex", "match data", "none");
    }
    auto subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    std::size_t pos = 0, gapStart = 0;
    while (pos < text.size()) {
        // The caller validated the UTF-8 once, so skip PCRE2's per-call check (quadratic).
        int rc =
            pcre2_match(impl_->code, subject, text.size(), pos, PCRE2_NO_UTF_CHECK, md, nullptr);
        if (rc == PCRE2_ERROR_NOMATCH) {
            break;
        }
        if (rc < 0) {
            // A pattern from the file that backtracks past PCRE2's match or stack limits: an
            // error rather than the rest of the text silently left as one piece.
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(rc, msg, sizeof msg);
            fail("the pre-tokenizer regex failed on the input", impl_->source,
                 "pre_tokenizer.pattern.Regex", "a match within PCRE2's limits",
                 reinterpret_cast<char*>(msg));
        }
        PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
        std::size_t s = ov[0], e = ov[1];
        if (e == s) {
            // An empty match: step one character so the scan always advances.
            ++e;
            while (e < text.size() && (static_cast<unsigned char>(text[e]) & 0xC0) == 0x80) {
                ++e;
            }
            pos = e;
            continue;
        }
        if (s > gapStart) {
            pieces.push_back(text.substr(gapStart, s - gapStart));
        }
        pieces.push_back(text.substr(s, e - s));
        pos = gapStart = e;
    }
    if (gapStart < text.size()) {
        pieces.push_back(text.substr(gapStart));
    }
    return pieces;
}

}  // namespace once
