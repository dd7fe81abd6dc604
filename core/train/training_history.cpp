#include "train/training_history.h"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "util/error.h"
#include "util/json_file.h"

namespace once {
namespace {

// The number at `key` of `o`, NaN when it is missing or not a number.
double numberAt(const nlohmann::json& o, const char* key) {
    const auto it = o.find(key);
    return it != o.end() && it->is_number() ? it->get<double>() : std::nan("");
}

}  // namespace

bool TrainingHistory::hasLoss() const {
    for (const Epoch& e : epochs) {
        if (e.meanLoss >= 0) {
            return true;
        }
    }
    return false;
}

TrainingHistory TrainingHistory::fromJson(const std::string& historyJson, int selectedEpoch) {
    TrainingHistory h;
    h.selectedEpoch = selectedEpoch;
    nlohmann::json doc;
    try {
        doc = parseJsonText(historyJson, "training_history");  // bounded nesting
    } catch (const OnceError&) {
        return h;
    }
    if (!doc.is_array() || doc.size() > kMaxEpochs) {
        return h;
    }
    for (const nlohmann::json& o : doc) {
        if (!o.is_object()) {
            continue;
        }
        const double epoch = numberAt(o, "epoch");
        const double criterion = numberAt(o, "criterion");
        if (!std::isfinite(criterion) || !(epoch >= 0 && epoch <= double(kMaxEpochs))) {
            continue;
        }
        Epoch e;
        e.epoch = static_cast<int>(epoch);
        if (const auto kind = o.find("kind"); kind != o.end() && kind->is_string()) {
            e.kind = kind->get<std::string>();
        }
        e.criterion = criterion;
        const double loss = numberAt(o, "mean_loss");
        // Stage-B losses (reconstruction, commitment, usage) are non-negative.
        e.meanLoss = std::isfinite(loss) && loss >= 0 ? loss : -1;
        h.epochs.push_back(e);
    }
    return h;
}

TrainingHistory TrainingHistory::fromMetadata(const std::map<std::string, std::string>& metadata) {
    int selected = -1;
    if (const auto it = metadata.find("selected_epoch"); it != metadata.end()) {
        const std::string& s = it->second;
        int v = -1;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        selected = ec == std::errc() && end == s.data() + s.size() && v >= 0 ? v : -1;
    }
    const auto it = metadata.find("training_history");
    return it == metadata.end() ? TrainingHistory{{}, selected} : fromJson(it->second, selected);
}

}  // namespace once
