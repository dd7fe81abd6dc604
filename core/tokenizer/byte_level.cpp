#include "tokenizer/byte_level.h"

#include <unordered_map>

#include "tokenizer/utf8.h"

namespace once {
namespace {

std::array<std::string, 256> buildTable() {
    // Printable Latin-1 bytes stand for themselves; the others are shifted to U+0100 upwards,
    // in byte order (the exact rule of GPT-2's bytes_to_unicode).
    std::array<std::string, 256> table;
    int next = 256;
    for (int b = 0; b < 256; ++b) {
        bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE);
        table[std::size_t(b)] = utf8Encode(char32_t(printable ? b : next++));
    }
    return table;
}

const std::unordered_map<char32_t, std::uint8_t>& unicodeToByte() {
    static const auto map = [] {
        std::unordered_map<char32_t, std::uint8_t> m;
        const auto& t = byteToUnicode();
        for (int b = 0; b < 256; ++b) {
            std::size_t pos = 0;
            m[utf8Next(t[std::size_t(b)], pos)] = std::uint8_t(b);
        }
        return m;
    }();
    return map;
}

}  // namespace

const std::array<std::string, 256>& byteToUnicode() {
    static const auto table = buildTable();
    return table;
}

std::string byteLevelEncode(const std::string& bytes) {
    const auto& t = byteToUnicode();
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes) {
        out += t[c];
    }
    return out;
}

std::string byteLevelDecode(const std::string& text) {
    const auto& m = unicodeToByte();
    std::string out;
    out.reserve(text.size());
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t start = pos;
        char32_t c = utf8Next(text, pos);
        auto it = m.find(c);
        if (it != m.end()) {
            out += char(it->second);
        } else {
            out.append(text, start, pos - start);
        }
    }
    return out;
}

}  // namespace once
