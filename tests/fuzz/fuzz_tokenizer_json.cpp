// clang-format off
// fuzz-sources: core/tokenizer/bpe_tokenizer.cpp core/tokenizer/byte_level.cpp core/tokenizer/regex_splitter.cpp core/tokenizer/unicode_normalizer.cpp core/tokenizer/utf8.cpp core/util/json_file.cpp core/util/error.cpp core/util/regular_file.cpp
// fuzz-pkgconfig: libpcre2-8 icu-uc
// clang-format on
// libFuzzer target for the tokenizer.json reader: any bytes must either build a tokenizer whose
// every id indexes its tables (encode and decode round trips work) or throw OnceError. Crashes,
// other exceptions, sanitizer reports and huge allocations are bugs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tokenizer/bpe_tokenizer.h"
#include "util/error.h"
#include "util/json_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        auto tok = once::BpeTokenizer::fromJson(once::parseJsonText(text, "fuzz"), "fuzz");
        if (tok.size() < 0 || tok.size() > once::kMaxTokenizerVocab) {
            std::abort();
        }
        for (const char* sample :
             {"Hello world", "<|im_start|>user\nhi<|im_end|>", "  x\xC3\xA9y 12", "ab ab ab"}) {
            try {
                auto ids = tok.encode(sample);
                for (auto id : ids) {
                    if (id < 0 || id >= tok.size()) {
                        std::abort();  // encode produced an id outside the tables
                    }
                }
                tok.decode(ids);
            } catch (const once::OnceError&) {
            }
        }
        for (const auto& a : tok.addedTokens()) {
            if (a.id < 0 || a.id >= tok.size()) {
                std::abort();
            }
            tok.decode({a.id});
        }
        try {
            tok.decode({-1, tok.size()});
            std::abort();  // out-of-range ids must be refused
        } catch (const once::OnceError&) {
        }
    } catch (const once::OnceError&) {
    }
    return 0;
}
