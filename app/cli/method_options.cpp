#include "cli/method_options.h"

#include <algorithm>
#include <sstream>

namespace once::cli {

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');) {
        if (!item.empty()) {
            out.push_back(item);
        }
    }
    return out;
}

std::map<std::string, std::map<std::string, std::string>> methodParams(
    const std::vector<std::string>& items, const std::vector<std::string>& methods) {
    std::map<std::string, std::map<std::string, std::string>> out;
    for (const std::string& kv : items) {
        const auto dot = kv.find('.'), eq = kv.find('=');
        if (dot == std::string::npos || eq == std::string::npos || dot > eq || dot == 0) {
            throw UsageError("--param takes METHOD.KEY=VALUE, got '" + kv + "'");
        }
        const std::string method = kv.substr(0, dot);
        if (std::find(methods.begin(), methods.end(), method) == methods.end()) {
            throw UsageError("--param " + kv + ": method '" + method + "' is not in --methods");
        }
        out[method][kv.substr(dot + 1, eq - dot - 1)] = kv.substr(eq + 1);
    }
    return out;
}

}  // namespace once::cli
