#include "tokenizer/unicode_normalizer.h"

#include <unicode/normalizer2.h>
#include <unicode/unistr.h>

#include <algorithm>

#include "util/error.h"

namespace once {

NormalForm parseNormalForm(const std::string& name, const std::string& source) {
    if (name == "NFC") {
        return NormalForm::NFC;
    }
    if (name == "NFD") {
        return NormalForm::NFD;
    }
    if (name == "NFKC") {
        return NormalForm::NFKC;
    }
    if (name == "NFKD") {
        return NormalForm::NFKD;
    }
    fail("unsupported normalizer", source, "normalizer.type", "NFC, NFD, NFKC, NFKD or Sequence",
         name);
}

std::string normalizeUnicode(const std::string& text, NormalForm form) {
    if (form == NormalForm::None ||
        std::all_of(text.begin(), text.end(), [](char c) { return (c & 0x80) == 0; })) {
        return text;
    }
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* n = nullptr;
    switch (form) {
        case NormalForm::NFC:
            n = icu::Normalizer2::getNFCInstance(status);
            break;
        case NormalForm::NFD:
            n = icu::Normalizer2::getNFDInstance(status);
            break;
        case NormalForm::NFKC:
            n = icu::Normalizer2::getNFKCInstance(status);
            break;
        case NormalForm::NFKD:
            n = icu::Normalizer2::getNFKDInstance(status);
            break;
        case NormalForm::None:
            break;
    }
    if (U_FAILURE(status) || !n) {
        fail("ICU cannot provide the Unicode normaliser", {}, "normalizer", "ICU data",
             u_errorName(status));
    }
    icu::UnicodeString in = icu::UnicodeString::fromUTF8(text);
    icu::UnicodeString out = n->normalize(in, status);
    if (U_FAILURE(status)) {
        fail("Unicode normalisation failed", {}, "normalizer", "valid UTF-8", u_errorName(status));
    }
    std::string result;
    out.toUTF8String(result);
    return result;
}

}  // namespace once
