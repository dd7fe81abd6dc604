// once info: what a tensor file holds and whether it is valid.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/output_options.h"
#include "io/safetensors.h"
#include "util/error.h"

namespace once::cli {
namespace {

void declare(ArgParser& p) {
    p.positional("FILE", "a .safetensors file (codebook, features, compression result, weights)")
        .flag("json", "print JSON");
}

int run(const ArgParser& a) {
    const std::string path = a.get("FILE");
    nlohmann::json j;
    j["file"] = path;
    try {
        auto f = SafetensorsFile::open(path);
        j["valid"] = true;
        j["metadata"] = f.metadata();
        j["tensors"] = nlohmann::json::array();
        for (const auto& t : f.tensors()) {
            j["tensors"].push_back({{"name", t.name},
                                    {"dtype", std::string(dtypeName(t.dtype))},
                                    {"shape", t.shape},
                                    {"bytes", t.end - t.begin}});
        }
    } catch (const OnceError& e) {
        j["valid"] = false;
        j["error"] = e.what();
    }
    if (a.flagSet("json")) {
        printJson(j);
    } else if (!j["valid"].get<bool>()) {
        std::cout << path << ": INVALID\n  " << j["error"].get<std::string>() << "\n";
    } else {
        std::cout << path << ": valid safetensors, " << j["tensors"].size() << " tensor(s)\n";
        for (const auto& t : j["tensors"]) {
            std::cout << "  " << t["name"].get<std::string>() << "  "
                      << t["dtype"].get<std::string>() << " " << t["shape"].dump() << "\n";
        }
        for (const auto& [k, v] : j["metadata"].items()) {
            std::string s = v.get<std::string>();
            std::cout << "  meta " << k << " = " << (s.size() > 80 ? s.substr(0, 77) + "..." : s)
                      << "\n";
        }
    }
    return j["valid"].get<bool>() ? 0 : 1;
}

const CommandRegistrar reg{
    {"info", "show the tensors and metadata of a file and validate it", declare, run}};

}  // namespace
}  // namespace once::cli
