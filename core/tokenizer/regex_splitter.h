#pragma once
// The pre-tokenizer's `Split` step: a PCRE2 regex (UTF + Unicode properties + lookahead, which
// std::regex lacks) cutting text into pieces, with the matches isolated as their own pieces.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace once {

class RegexSplitter {
  public:
    /// Compiles an Oniguruma-style pattern from tokenizer.json. Throws OnceError naming `source`.
    RegexSplitter(const std::string& pattern, const std::string& source);
    ~RegexSplitter();
    RegexSplitter(const RegexSplitter&) = delete;
    RegexSplitter& operator=(const RegexSplitter&) = delete;

    /// Splits `text` (valid UTF-8) into matches and the gaps between them, in order, none empty.
    std::vector<std::string_view> split(std::string_view text) const;

    /// The pattern as given to PCRE2 (\s and \S spelled out as Unicode White_Space, which is
    /// what Oniguruma means by them; PCRE2's own \s also takes U+180E).
    static std::string translate(const std::string& pattern);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace once
