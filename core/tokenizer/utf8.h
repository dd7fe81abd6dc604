#pragma once
// Minimal UTF-8 helpers for the tokenizer (validation, iteration, encoding).
#include <string>

namespace once {

/// Encodes one code point.
std::string utf8Encode(char32_t c);
/// Decodes the code point at `pos` and advances `pos`; assumes valid UTF-8.
char32_t utf8Next(const std::string& s, std::size_t& pos);
/// Byte offset of the first invalid sequence, or std::string::npos when `s` is valid UTF-8.
std::size_t utf8InvalidAt(const std::string& s);
/// `s` with each invalid UTF-8 sequence replaced by U+FFFD, as Rust's from_utf8_lossy does (the
/// tokenizers' decode).
std::string lossyUtf8(const std::string& s);

}  // namespace once
