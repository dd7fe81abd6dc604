#pragma once
// Unicode normalisation forms named by tokenizer.json's `normalizer` (NFC, NFKC, NFD, NFKD).
#include <string>

namespace once {

enum class NormalForm { None, NFC, NFD, NFKC, NFKD };

/// Parses "NFC", … ; throws OnceError naming `source` for an unknown name.
NormalForm parseNormalForm(const std::string& name, const std::string& source);
/// Normalises valid UTF-8 text (ICU); ASCII text is returned unchanged without a copy to ICU.
std::string normalizeUnicode(const std::string& text, NormalForm form);

}  // namespace once
