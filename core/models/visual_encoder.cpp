#include "models/visual_encoder.h"

#include <map>

#include "util/error.h"

namespace once {
namespace {
std::map<std::string, VisualEncoderFactory>& registry() {
    static std::map<std::string, VisualEncoderFactory> r;
    return r;
}
}  // namespace

void registerVisualEncoder(const std::string& backbone, VisualEncoderFactory factory) {
    registry()[backbone] = std::move(factory);
}

std::unique_ptr<VisualEncoder> makeVisualEncoder(const std::string& backbone,
                                                 const EncoderOptions& options) {
    auto it = registry().find(backbone);
    if (it == registry().end()) {
        std::string names;
        for (const auto& [n, _] : registry()) {
            names += (names.empty() ? "" : ", ") + n;
        }
        fail("unknown backbone", {}, "backbone", "one of: " + names, backbone);
    }
    return it->second(options);
}

std::vector<std::string> visualEncoderNames() {
    std::vector<std::string> out;
    for (const auto& [n, _] : registry()) {
        out.push_back(n);
    }
    return out;
}

}  // namespace once
