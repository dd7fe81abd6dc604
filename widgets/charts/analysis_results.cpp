#include "charts/analysis_results.h"

namespace once::studio {
namespace {

using Kind = once::AnalysisTable::Kind;

QStringList qStrings(const std::vector<std::string>& list) {
    QStringList out;
    for (const std::string& s : list) {
        out << QString::fromStdString(s);
    }
    return out;
}

}  // namespace

AnalysisResults AnalysisResults::load(const QString& path) {
    return of(once::AnalysisTable::load(path.toStdString()));
}

AnalysisResults AnalysisResults::of(once::AnalysisTable table) {
    AnalysisResults r;
    r.data = std::move(table);
    const once::AnalysisTable& t = r.data;
    r.source = QString::fromStdString(t.source);
    r.categories = qStrings(t.categories);
    r.table.header = qStrings(t.table.header);
    for (const auto& row : t.table.rows) {
        r.table.rows << qStrings(row);
    }
    for (const auto& s : t.series) {
        r.seriesNames << QString::fromStdString(s.name);
    }
    for (const auto& l : t.levels) {
        r.levelNames << QString::fromStdString(l.name);
    }
    // The zero level and the single series of the difference tables are named here, translated;
    // the others carry the file's names (methods, benchmarks).
    const QString noDifference = tr("no difference");
    switch (t.kind) {
        case Kind::Accuracy:
            r.title = tr("Accuracy vs budget");
            r.xLabel = tr("Token budget B");
            r.yLabel = tr("Accuracy (%), 95% bootstrap CI");
            if (t.rowsLeftOut > 0) {
                r.note = tr("Overall accuracy; the %1 per-task rows are on the per-task radar.")
                             .arg(t.rowsLeftOut);
            }
            break;
        case Kind::Efficiency:
            r.title = tr("End-to-end time vs visual tokens");
            r.xLabel = tr("Visual tokens per question (mean)");
            r.yLabel = tr("End-to-end time per question (s)");
            break;
        case Kind::BreakEven:
            r.title = tr("Break-even count N* vs budget");
            r.xLabel = tr("Token budget B");
            r.yLabel = tr("N* (videos that repay the offline cost)");
            if (t.rowsLeftOut > 0) {
                r.note = tr("%1 row(s) with no per-video saving (N* infinite) are not drawn.")
                             .arg(t.rowsLeftOut);
            }
            break;
        case Kind::SupportOrigin:
            r.title = tr("Support origin: donor − current R95");
            r.xLabel = tr("Token budget B");
            r.yLabel = tr("Δ R95, simultaneous band");
            r.seriesNames = QStringList{tr("donor − current R95")};
            r.levelNames = QStringList{noDifference};
            r.note =
                tr("Above zero: a support chosen on another video leaves larger residuals than "
                   "the video's own.");
            break;
        case Kind::Stress:
        case Kind::Comparison: {
            const bool stress = t.kind == Kind::Stress;
            r.title = stress ? tr("Stress diagnostic: random − learned residual")
                             : tr("Codebook comparison: other − reference residual");
            r.xLabel = tr("Residual statistic");
            r.yLabel = tr("Difference, 95% bootstrap CI");
            r.seriesNames = QStringList{stress ? tr("random − learned") : tr("other − reference")};
            r.levelNames = QStringList{noDifference};
            r.note = stress ? tr("Above zero: the learned codebook leaves smaller residuals than "
                                 "random exemplars of the same size.")
                            : tr("Above zero: the other codebook leaves larger residuals.");
            break;
        }
    }
    return r;
}

}  // namespace once::studio
