#include "tokenizer/utf8.h"

namespace once {

std::string utf8Encode(char32_t c) {
    std::string out;
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xC0 | (c >> 6));
        out += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += char(0xE0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    } else {
        out += char(0xF0 | (c >> 18));
        out += char(0x80 | ((c >> 12) & 0x3F));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    }
    return out;
}

char32_t utf8Next(const std::string& s, std::size_t& pos) {
    auto b = [&](std::size_t i) { return char32_t(static_cast<unsigned char>(s[i])); };
    char32_t c = b(pos);
    if (c < 0x80) {
        pos += 1;
        return c;
    }
    if (c < 0xE0) {
        c = ((c & 0x1F) << 6) | (b(pos + 1) & 0x3F);
        pos += 2;
    } else if (c < 0xF0) {
        c = ((c & 0x0F) << 12) | ((b(pos + 1) & 0x3F) << 6) | (b(pos + 2) & 0x3F);
        pos += 3;
    } else {
        c = ((c & 0x07) << 18) | ((b(pos + 1) & 0x3F) << 12) | ((b(pos + 2) & 0x3F) << 6) |
            (b(pos + 3) & 0x3F);
        pos += 4;
    }
    return c;
}

std::size_t utf8InvalidAt(const std::string& s) {
    std::size_t i = 0;
    const std::size_t n = s.size();
    auto cont = [&](std::size_t k) {
        return k < n && (static_cast<unsigned char>(s[k]) & 0xC0) == 0x80;
    };
    while (i < n) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        std::size_t len = c < 0x80                  ? 1
                          : (c >= 0xC2 && c < 0xE0) ? 2
                          : (c >= 0xE0 && c < 0xF0) ? 3
                          : (c >= 0xF0 && c < 0xF5) ? 4
                                                    : 0;
        if (len == 0) {
            return i;
        }
        for (std::size_t k = 1; k < len; ++k) {
            if (!cont(i + k)) {
                return i;
            }
        }
        if (len > 1) {
            std::size_t p = i;
            char32_t cp = utf8Next(s, p);
            bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
            if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                return i;
            }
        }
        i += len;
    }
    return std::string::npos;
}

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

}  // namespace once
