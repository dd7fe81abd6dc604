#pragma once
// GPT-2's reversible byte ↔ printable-character map used by byte-level BPE: every byte becomes
// one visible Unicode character so that merges never see control bytes or spaces.
#include <array>
#include <cstdint>
#include <string>

namespace once {

/// UTF-8 of the character that stands for each byte.
const std::array<std::string, 256>& byteToUnicode();
/// Maps bytes to their characters (the output is valid UTF-8).
std::string byteLevelEncode(const std::string& bytes);
/// Inverse of byteLevelEncode; a character outside the map is copied as its UTF-8 bytes.
std::string byteLevelDecode(const std::string& text);

}  // namespace once
