#include "eval/annotation_json.h"

#include <charconv>
#include <limits>

#include "eval/benchmark.h"
#include "util/error.h"
#include "util/json_file.h"

namespace once {

nlohmann::json readJsonFile(const std::string& path) {
    const std::string text = readFileLimited(path, kMaxAnnotationBytes);
    std::string documentError;
    try {
        return parseJsonText(text, path);
    } catch (const OnceError& e) {
        // Not one document: read it as JSON Lines (Video-MME exports, our own results).
        documentError = e.brief() + ": " + e.where().found;
    }
    nlohmann::json all = nlohmann::json::array();
    std::size_t start = 0;
    int n = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) {
            end = text.size();
        }
        const std::string_view line(text.data() + start, end - start);
        start = end + 1;
        ++n;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
            continue;
        }
        try {
            all.push_back(parseJsonText(line, path, "line " + std::to_string(n)));
        } catch (const OnceError& e) {
            fail("annotation file is neither JSON nor JSON Lines", path,
                 "line " + std::to_string(n), "a JSON document or one JSON record a line",
                 "as one document: " + documentError + "; as JSON Lines, line " +
                     std::to_string(n) + ": " + e.brief() + ": " + e.where().found);
        }
    }
    return all;
}

namespace {
const nlohmann::json& field(const nlohmann::json& r, const std::string& key,
                            const std::string& file, const std::string& where) {
    if (!r.is_object() || !r.contains(key)) {
        fail("annotation record lacks a field", file, where + "." + key, "present",
             r.is_object() ? "missing" : jsonTypeName(r));
    }
    return r.at(key);
}
}  // namespace

std::string jsonString(const nlohmann::json& r, const std::string& key, const std::string& file,
                       const std::string& where) {
    const auto& v = field(r, key, file, where);
    if (v.is_string()) {
        return v.get<std::string>();
    }
    if (v.is_number()) {
        return v.dump();
    }
    fail("annotation field has the wrong type", file, where + "." + key, "a string",
         jsonTypeName(v));
}

int jsonInt(const nlohmann::json& r, const std::string& key, const std::string& file,
            const std::string& where) {
    const auto& v = field(r, key, file, where);
    constexpr std::int64_t lo = std::numeric_limits<int>::min(),
                           hi = std::numeric_limits<int>::max();
    if (v.is_number_integer()) {
        return int(jsonToInt(v, file, where + "." + key, lo, hi));
    }
    if (v.is_string()) {
        const auto s = v.get<std::string>();
        int out = 0;
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        if (!s.empty() && s[0] != '-' && ec == std::errc() && end == s.data() + s.size()) {
            return out;
        }
    }
    fail("annotation field has the wrong type", file, where + "." + key,
         "an integer (or a string of digits)",
         printableExcerpt(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
}

Benchmark readQuestionList(const std::string& annotations, const BenchmarkInfo& info,
                           const std::function<EvalQuestion(const nlohmann::json&, std::size_t,
                                                            const std::string&)>& question) {
    const nlohmann::json doc = readJsonFile(annotations);
    if (!doc.is_array()) {
        fail(info.label + " annotations are not a list of records", annotations, "(top level)",
             "a JSON list or JSON Lines", doc.type_name());
    }
    Benchmark b;
    b.name = info.name;
    b.maxNewTokens = info.maxNewTokens;
    for (std::size_t i = 0; i < doc.size(); ++i) {
        b.questions.push_back(question(doc[i], i, "[" + std::to_string(i) + "]"));
    }
    return b;
}

std::vector<std::string> jsonStrings(const nlohmann::json& r, const std::string& key,
                                     const std::string& file, const std::string& where) {
    const auto& v = field(r, key, file, where);
    if (!v.is_array()) {
        fail("annotation field has the wrong type", file, where + "." + key, "a list of strings",
             jsonTypeName(v));
    }
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string()) {
            fail("annotation field has the wrong type", file,
                 where + "." + key + "[" + std::to_string(i) + "]", "a string", jsonTypeName(v[i]));
        }
        out.push_back(v[i].get<std::string>());
    }
    return out;
}

}  // namespace once
