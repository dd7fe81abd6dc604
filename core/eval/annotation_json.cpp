#include "eval/annotation_json.h"

#include <fstream>
#include <sstream>

#include "util/error.h"

namespace once {

nlohmann::json readJsonFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        fail("cannot read annotation file", path, {}, "a readable JSON file", "no access");
    }
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        // Not one document: read it as JSON Lines (Video-MME exports, our own results).
    }
    nlohmann::json all = nlohmann::json::array();
    std::istringstream lines(text);
    std::string line;
    int n = 0;
    while (std::getline(lines, line)) {
        ++n;
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        try {
            all.push_back(nlohmann::json::parse(line));
        } catch (const nlohmann::json::exception& e) {
            fail("annotation file is neither JSON nor JSON Lines", path,
                 "line " + std::to_string(n), "a JSON record", e.what());
        }
    }
    return all;
}

namespace {
const nlohmann::json& field(const nlohmann::json& r, const std::string& key,
                            const std::string& file, const std::string& where) {
    if (!r.is_object() || !r.contains(key)) {
        fail("annotation record lacks a field", file, where + "." + key, "present",
             r.is_object() ? "missing" : std::string(r.type_name()));
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
    fail("annotation field has the wrong type", file, where + "." + key, "a string", v.type_name());
}

int jsonInt(const nlohmann::json& r, const std::string& key, const std::string& file,
            const std::string& where) {
    const auto& v = field(r, key, file, where);
    if (v.is_number_integer()) {
        return v.get<int>();
    }
    if (v.is_string()) {
        const auto s = v.get<std::string>();
        if (!s.empty() && s.find_first_not_of("0123456789") == std::string::npos) {
            return std::stoi(s);
        }
    }
    fail("annotation field has the wrong type", file, where + "." + key, "an integer", v.dump());
}

std::vector<std::string> jsonStrings(const nlohmann::json& r, const std::string& key,
                                     const std::string& file, const std::string& where) {
    const auto& v = field(r, key, file, where);
    if (!v.is_array()) {
        fail("annotation field has the wrong type", file, where + "." + key, "a list of strings",
             v.type_name());
    }
    std::vector<std::string> out;
    for (const auto& e : v) {
        if (!e.is_string()) {
            fail("annotation field has the wrong type", file, where + "." + key,
                 "a list of strings", "an element of type " + std::string(e.type_name()));
        }
        out.push_back(e.get<std::string>());
    }
    return out;
}

}  // namespace once
