#include "util/json_text.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string_view>

namespace once {
namespace {

// Length of the valid UTF-8 sequence starting at s[i] (1-4), or 0 when it is not one
// (overlong forms, surrogates and code points above U+10FFFF are not valid).
std::size_t utf8Length(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const auto cont = [&](std::size_t k) { return i + k < s.size() && (b(k) & 0xC0) == 0x80; };
    const unsigned char c = b(0);
    if (c < 0x80) {
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        return cont(1) ? 2 : 0;
    }
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2)) {
            return 0;
        }
        if ((c == 0xE0 && b(1) < 0xA0) || (c == 0xED && b(1) > 0x9F)) {
            return 0;  // overlong, or a UTF-16 surrogate
        }
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3)) {
            return 0;
        }
        if ((c == 0xF0 && b(1) < 0x90) || (c == 0xF4 && b(1) > 0x8F)) {
            return 0;  // overlong, or above U+10FFFF
        }
        return 4;
    }
    return 0;
}

void appendString(std::string& out, std::string_view s) {
    out += '"';
    char buf[8];
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t n = utf8Length(s, i);
        if (n == 0) {
            std::snprintf(buf, sizeof buf, "\\udc%02x", c);  // surrogateescape
            out += buf;
            ++i;
            continue;
        }
        if (n == 1) {
            switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += char(c);
                }
            }
        } else {
            out.append(s.substr(i, n));
        }
        i += n;
    }
    out += '"';
}

void append(std::string& out, const nlohmann::json& j, int indent, int depth) {
    const auto newline = [&](int level) {
        if (indent >= 0) {
            out += '\n';
            out.append(std::size_t(indent) * std::size_t(level), ' ');
        }
    };
    if (j.is_string()) {
        appendString(out, j.get_ref<const std::string&>());
    } else if (j.is_object() || j.is_array()) {
        const bool object = j.is_object();
        if (j.empty()) {
            out += object ? "{}" : "[]";
            return;
        }
        out += object ? '{' : '[';
        bool first = true;
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (!first) {
                out += ',';
            }
            first = false;
            newline(depth + 1);
            if (object) {
                appendString(out, it.key());
                out += indent >= 0 ? ": " : ":";
            }
            append(out, *it, indent, depth + 1);
        }
        newline(depth);
        out += object ? '}' : ']';
    } else {
        out += j.dump();  // numbers, booleans, null: nlohmann's own spelling
    }
}

}  // namespace

std::string jsonText(const nlohmann::json& j, int indent) {
    std::string out;
    append(out, j, indent, 0);
    return out;
}

}  // namespace once
