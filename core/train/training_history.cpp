#include "trainer/training_history.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

namespace once::studio {

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
    QJsonParseError error{};
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray::fromStdString(historyJson), &error);
    if (error.error != QJsonParseError::NoError || !doc.isArray() ||
        static_cast<std::size_t>(doc.array().size()) > kMaxEpochs) {
        return h;
    }
    for (const QJsonValue& v : doc.array()) {
        if (!v.isObject()) {
            continue;
        }
        const QJsonObject o = v.toObject();
        const double epoch = o.value(QLatin1String("epoch")).toDouble(-1);
        const double criterion = o.value(QLatin1String("criterion")).toDouble(std::nan(""));
        if (!std::isfinite(criterion) || !(epoch >= 0 && epoch <= double(kMaxEpochs))) {
            continue;
        }
        Epoch e;
        e.epoch = static_cast<int>(epoch);
        e.kind = o.value(QLatin1String("kind")).toString();
        e.criterion = criterion;
        const double loss = o.value(QLatin1String("mean_loss")).toDouble(std::nan(""));
        // Stage-B losses (reconstruction, commitment, usage) are non-negative.
        e.meanLoss = std::isfinite(loss) && loss >= 0 ? loss : -1;
        h.epochs.push_back(e);
    }
    return h;
}

TrainingHistory TrainingHistory::fromMetadata(const std::map<std::string, std::string>& metadata) {
    int selected = -1;
    if (const auto it = metadata.find("selected_epoch"); it != metadata.end()) {
        bool ok = false;
        const int v = QString::fromStdString(it->second).toInt(&ok);
        selected = ok && v >= 0 ? v : -1;
    }
    const auto it = metadata.find("training_history");
    return it == metadata.end() ? TrainingHistory{{}, selected} : fromJson(it->second, selected);
}

}  // namespace once::studio
