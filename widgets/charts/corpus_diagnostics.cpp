#include "charts/corpus_diagnostics.h"

#include <nlohmann/json.hpp>

#include "codebook/codebook.h"

namespace once::studio {
namespace {
void readFrom(const nlohmann::json& j, CorpusDiagnostics& out) {
    if (j.contains("decile_shares") && j["decile_shares"].is_array() &&
        j["decile_shares"].size() == 10) {
        out.decileShares.clear();
        for (const auto& v : j["decile_shares"]) {
            out.decileShares.push_back(v.is_number() ? v.get<double>() : 0.0);
        }
    }
    if (j.contains("residual_percentiles") && j["residual_percentiles"].is_object()) {
        for (const auto& [name, v] : j["residual_percentiles"].items()) {
            if (v.is_number()) {
                out.residuals[QString::fromStdString(name)] = v.get<double>();
            }
        }
    }
}
}  // namespace

CorpusDiagnostics CorpusDiagnostics::fromCodebook(const once::Codebook& codebook) {
    CorpusDiagnostics out;
    const auto& meta = codebook.metadata();
    auto parse = [&out](const std::string& text) {
        const auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
        if (j.is_object()) {
            readFrom(j, out);
        }
    };
    if (auto it = meta.find("diagnostics"); it != meta.end()) {
        parse(it->second);
    }
    for (const char* key : {"decile_shares", "residual_percentiles"}) {
        if (auto it = meta.find(key); it != meta.end()) {
            parse("{\"" + std::string(key) + "\":" + it->second + "}");
        }
    }
    return out;
}

}  // namespace once::studio
