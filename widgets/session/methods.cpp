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

// The registry's one-line summaries, as the method box's tooltips show them (issue 30: English
// in a Chinese interface). The text must equal the registration's (core/compress/…):
// app_studio_test_translations checks that every registered summary is translated.
[[maybe_unused]] const char* const kTranslatedSummaries[] = {
    QT_TRANSLATE_NOOP("once::studio::methods",
                      "DyCoke temporal token merging: frame i whole, its neighbours keep their least similar tokens, keep ratio from the budget"),
    QT_TRANSLATE_NOOP("once::studio::methods",
                      "FastVID: DySeg segments, salient tokens by attention (frame-mean cosine without it), DPC-kNN anchors merged per segment"),
    QT_TRANSLATE_NOOP("once::studio::methods",
                      "Uniform frame drop: whole frames at linspace positions, floor(budget/P) of them"),
    QT_TRANSLATE_NOOP("once::studio::methods",
                      "Uniform spatial average pooling per frame, stride chosen so that T x ceil(H/s) x ceil(W/s) <= budget"),
    QT_TRANSLATE_NOOP("once::studio::methods",
                      "ToMe bipartite soft matching on the video's tokens, r merges per round (0: as many as allowed) until the budget is met"),
    QT_TRANSLATE_NOOP("once::studio::methods",
                      "VisionZip per frame: dominant tokens by attention (frame-mean cosine without it) plus contextual tokens merged into strided targets"),
    QT_TRANSLATE_NOOP("once::studio::methods",
                      "VQToken adaptive k-means: cosine k-means++ per video, K by the elbow rule over [k_min, k_max] capped by the budget, cluster means"),
    QT_TRANSLATE_NOOP("once::studio::methods",
                      "ForestPrune: per-frame graph pruning, then history trees across frames; the roots and shallowest nodes are kept, excess roots merged greedily"),
    QT_TRANSLATE_NOOP("once::studio::methods",
                      "ONCE: nearest codewords of a global codebook, B most used kept, tokens reassigned and mean-pooled (the paper's rule)"),
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

QString summary(const QString& method) {
    if (!known(method)) {
        return {};
    }
    const std::string s = once::compressorInfo(method.toStdString()).summary;
    return QCoreApplication::translate(kContext, s.c_str());
}

bool needsCodebook(const QString& method) {
    return known(method) && once::compressorInfo(method.toStdString()).needsCodebook;
}

bool hasVariants(const QString& method) {
    return known(method) && once::compressorInfo(method.toStdString()).hasVariants;
}

bool hasAssignment(const QString& method) {
    return known(method) && once::compressorInfo(method.toStdString()).hasAssignment;
}

once::CompressorParams params(const QString& method, once::Variant variant) {
    once::CompressorParams p;
    if (hasVariants(method)) {
        p["variant"] = once::variantName(variant);
    }
    return p;
}

once::BudgetShape budgetShape(const once::EncodedVideo& video, std::int64_t codebookSize) {
    return once::BudgetShape::of(video, codebookSize);
}

std::int64_t maxBudget(const QString& method, const once::BudgetShape& shape) {
    return needsCodebook(method) ? shape.codebookSize : shape.tokens();
}

once::BudgetRange budgetRange(const QString& method, const once::BudgetShape& shape) {
    if (!known(method)) {
        return once::BudgetRange{1, std::max<std::int64_t>(1, shape.tokens()), {}};
    }
    return once::budgetRange(method.toStdString(), shape);
}

QString budgetRule(const QString& method, const once::BudgetShape& shape) {
    if (!known(method) || shape.tokens() <= 0) {
        return {};
    }
    const once::BudgetRange r = budgetRange(method, shape);
    // The rule itself is the engine's sentence (English, as the command line prints it).
    const QString rule =
        r.rule.empty() ? QCoreApplication::translate("once::studio::methods", "at most B tokens")
                       : QString::fromStdString(r.rule);
    QString range;
    if (r.min == r.max) {
        range = QCoreApplication::translate("once::studio::methods",
                                            "Every budget from %1 up gives the same output.")
                    .arg(r.min);
    } else if (r.min > 1) {
        range = QCoreApplication::translate(
                    "once::studio::methods",
                    "Budgets %1–%2 change the output; below %1 it would keep no token.")
                    .arg(r.min)
                    .arg(r.max);
    } else {
        range =
            QCoreApplication::translate("once::studio::methods", "Budgets %1–%2 change the output.")
                .arg(r.min)
                .arg(r.max);
    }
    return QCoreApplication::translate("once::studio::methods", "%1: %2. %3")
        .arg(title(method), rule, range);
}

}  // namespace once::studio::methods
