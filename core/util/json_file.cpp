#include "util/json_file.h"

#include <cmath>
#include <limits>

#include "util/error.h"
#include "util/regular_file.h"

namespace once {
namespace {

std::string join(const std::string& parent, const std::string& key) {
    return parent.empty() ? key : parent + "." + key;
}

// Line and column (1-based) of byte `offset` of `text`.
std::string position(std::string_view text, std::size_t offset) {
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

// nlohmann's message without its "[json.exception.parse_error.101] parse error at line 1,
// column 2: " prefix (we report the position ourselves) and with the bytes it quotes made
// printable.
std::string syntaxReason(const std::string& what) {
    std::string s = what;
    if (auto close = s.find("] "); s.rfind("[json.exception.", 0) == 0 && close != s.npos) {
        s = s.substr(close + 2);
    }
    if (auto colon = s.find(": "); s.rfind("parse error", 0) == 0 && colon != s.npos) {
        s = s.substr(colon + 2);
    }
    return printableExcerpt(s, 200);
}

}  // namespace

std::string printableExcerpt(std::string_view s, std::size_t maxChars) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (out.size() >= maxChars) {
            out += "...";
            break;
        }
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x7f) {
            out += char(c);
        } else {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

int jsonNestingDepth(std::string_view text, int stopAt, std::size_t* offset) {
    int depth = 0, deepest = 0;
    bool inString = false, escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                inString = false;
            }
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > deepest) {
                deepest = depth;
                if (offset) {
                    *offset = i;
                }
                if (deepest > stopAt) {
                    return deepest;
                }
            }
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

std::string readFileLimited(const std::string& path, std::size_t maxBytes) {
    return readRegularFile(path, maxBytes);
}

nlohmann::json parseJsonText(std::string_view text, const std::string& source,
                             const std::string& where, const JsonLimits& limits) {
    std::size_t at = 0;
    const int depth = jsonNestingDepth(text, limits.maxDepth, &at);
    if (depth > limits.maxDepth) {
        fail("JSON nested too deeply (" + position(text, at) + ")", source, where,
             "at most " + std::to_string(limits.maxDepth) + " levels of [ and {",
             "more than " + std::to_string(limits.maxDepth));
    }
    try {
        return nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::parse_error& e) {
        const std::size_t off = e.byte > 0 ? e.byte - 1 : 0;
        fail("not valid JSON (" + position(text, off) + ")", source, where, "a JSON document",
             syntaxReason(e.what()));
    } catch (const nlohmann::json::exception& e) {
        // out_of_range.406: a number too large for a double.
        fail("not valid JSON", source, where, "a JSON document", syntaxReason(e.what()));
    }
}

nlohmann::json parseJsonFile(const std::string& path, const JsonLimits& limits) {
    return parseJsonText(readFileLimited(path, limits.maxBytes), path, {}, limits);
}

std::string jsonTypeName(const nlohmann::json& v) {
    switch (v.type()) {
        case nlohmann::json::value_t::null:
            return "null";
        case nlohmann::json::value_t::object:
            return "an object";
        case nlohmann::json::value_t::array:
            return "an array";
        case nlohmann::json::value_t::string:
            return "a string";
        case nlohmann::json::value_t::boolean:
            return "a boolean";
        case nlohmann::json::value_t::number_integer:
        case nlohmann::json::value_t::number_unsigned:
            return "an integer";
        case nlohmann::json::value_t::number_float:
            return "a number";
        default:
            return "binary data";
    }
}

const nlohmann::json* jsonFind(const nlohmann::json& v, const std::string& key,
                               const std::string& file, const std::string& field) {
    if (!v.is_object()) {
        fail("expected a JSON object", file, field.empty() ? "(top level)" : field, "an object",
             jsonTypeName(v));
    }
    auto it = v.find(key);
    if (it == v.end() || it->is_null()) {
        return nullptr;
    }
    return &*it;
}

const nlohmann::json& jsonRequire(const nlohmann::json& v, const std::string& key,
                                  const std::string& file, const std::string& field) {
    if (!v.is_object()) {
        fail("expected a JSON object", file, field.empty() ? "(top level)" : field,
             "an object with '" + key + "'", jsonTypeName(v));
    }
    auto it = v.find(key);
    if (it == v.end()) {
        fail("a required field is missing", file, join(field, key), "present", "missing");
    }
    return *it;
}

std::string jsonToString(const nlohmann::json& v, const std::string& file,
                         const std::string& field) {
    if (!v.is_string()) {
        fail("wrong JSON type", file, field, "a string", jsonTypeName(v));
    }
    return v.get<std::string>();
}

bool jsonToBool(const nlohmann::json& v, const std::string& file, const std::string& field) {
    if (!v.is_boolean()) {
        fail("wrong JSON type", file, field, "true or false", jsonTypeName(v));
    }
    return v.get<bool>();
}

std::int64_t jsonToInt(const nlohmann::json& v, const std::string& file, const std::string& field,
                       std::int64_t min, std::int64_t max) {
    const std::string range = std::to_string(min) + ".." + std::to_string(max);
    if (v.is_number_unsigned()) {
        const std::uint64_t u = v.get<std::uint64_t>();
        if (u > std::uint64_t(max) || (min > 0 && u < std::uint64_t(min))) {
            fail("integer out of range", file, field, range, std::to_string(u));
        }
        return std::int64_t(u);
    }
    if (v.is_number_integer()) {
        const std::int64_t i = v.get<std::int64_t>();
        if (i < min || i > max) {
            fail("integer out of range", file, field, range, std::to_string(i));
        }
        return i;
    }
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (std::isfinite(d) && d == std::floor(d) && d >= double(min) && d <= double(max)) {
            return std::int64_t(d);
        }
        fail("expected an integer", file, field, range, v.dump());
    }
    fail("wrong JSON type", file, field, "an integer in " + range, jsonTypeName(v));
}

double jsonToNumber(const nlohmann::json& v, const std::string& file, const std::string& field) {
    if (!v.is_number()) {
        fail("wrong JSON type", file, field, "a number", jsonTypeName(v));
    }
    const double d = v.get<double>();
    if (!std::isfinite(d)) {
        fail("number is not finite", file, field, "a finite number", v.dump());
    }
    return d;
}

std::string jsonStringOr(const nlohmann::json& v, const std::string& key, const std::string& def,
                         const std::string& file, const std::string& field) {
    const nlohmann::json* m = jsonFind(v, key, file, field);
    return m ? jsonToString(*m, file, join(field, key)) : def;
}

bool jsonBoolOr(const nlohmann::json& v, const std::string& key, bool def, const std::string& file,
                const std::string& field) {
    const nlohmann::json* m = jsonFind(v, key, file, field);
    return m ? jsonToBool(*m, file, join(field, key)) : def;
}

}  // namespace once
