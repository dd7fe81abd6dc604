#include "session/methods.h"

#include <QCoreApplication>
#include <algorithm>

#include "compress/token_compressor.h"

namespace once::studio::methods {
namespace {
// Titles are English in the registry; the studio's translations keep them under this context
// (translations/*.ts).
const char* const kContext = "once::studio::methods";

[[maybe_unused]] const char* const kTranslatedTitles[] = {
    QT_TRANSLATE_NOOP("once::studio::methods", "Spatial pooling"),
    QT_TRANSLATE_NOOP("once::studio::methods", "Frame drop"),
};

bool known(const QString& method) {
    return all().contains(method);
}
}  // namespace

QStringList all() {
    QStringList withVariants, others;
    for (const auto& info : once::compressorInfos()) {
        (info.hasVariants ? withVariants : others) << QString::fromStdString(info.method);
    }
    return withVariants + others;
}

QString preferred() {
    const QStringList list = all();
    return list.isEmpty() ? QString() : list.front();
}

QString title(const QString& method) {
    if (!known(method)) {
        return method;
    }
    const std::string t = once::compressorTitle(method.toStdString());
    return QCoreApplication::translate(kContext, t.c_str());
}

bool needsCodebook(const QString& method) {
    return known(method) && once::compressorInfo(method.toStdString()).needsCodebook;
}

bool hasVariants(const QString& method) {
    return known(method) && once::compressorInfo(method.toStdString()).hasVariants;
}

QString budgetRule(const QString& method, std::int64_t frames, std::int64_t patches,
                   std::int64_t codebookSize) {
    if (!known(method)) {
        return {};
    }
    once::BudgetShape shape;
    shape.frames = frames;
    shape.patches = patches;
    shape.codebookSize = codebookSize;
    const once::BudgetRange r = once::budgetRange(method.toStdString(), shape);
    const QString rule = r.rule.empty() ? QCoreApplication::translate(kContext, "at most B tokens")
                                        : QString::fromStdString(r.rule);
    return QCoreApplication::translate(kContext, "%1: %2. Budgets %3 to %4 change the output.")
        .arg(title(method), rule)
        .arg(r.min)
        .arg(r.max);
}

}  // namespace once::studio::methods
