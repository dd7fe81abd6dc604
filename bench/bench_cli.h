#pragma once
// The command line of the benchmark drivers that take --key value options and print JSON
// (bench_llm, bench/gpu/bench_gpu): the options as read, and the result printed and, with
// --out FILE, written to a temporary file renamed over FILE so a reader never sees half of it.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace once::bench {

/// --key value options, by key without the dashes.
struct Args {
    std::map<std::string, std::string> kv;
    std::string get(const std::string& k, const std::string& def) const {
        auto it = kv.find(k);
        return it == kv.end() ? def : it->second;
    }
    std::int64_t getInt(const std::string& k, std::int64_t def) const {
        return kv.count(k) ? std::stoll(kv.at(k)) : def;
    }
};

/// Prints `j` on stdout and, when --out names a file, writes it there too.
inline void writeJson(const Args& a, const nlohmann::json& j) {
    const std::string text = j.dump(2) + "\n";
    std::cout << text;
    if (const std::string out = a.get("out", ""); !out.empty()) {
        std::ofstream f(out + ".tmp");
        f << text;
        f.close();
        std::filesystem::rename(out + ".tmp", out);
    }
}

}  // namespace once::bench
