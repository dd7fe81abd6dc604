#include "charts/analysis_results.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "util/error.h"
#include "util/regular_file.h"

namespace once::studio {
namespace {

using Kind = AnalysisResults::Kind;

// The file's lines as a header and rows of the header's width.
CsvTable readCsv(const QString& path) {
    // A regular file only (a FIFO chosen in the dialog would block the load forever).
    const QString text = QString::fromStdString(
        once::readRegularFile(QFile::encodeName(path).toStdString(), kMaxChartFileBytes));
    const QStringList lines =
        text.split(QRegularExpression(QStringLiteral("\r?\n")), Qt::SkipEmptyParts);
    if (lines.isEmpty()) {
        once::fail("empty analysis results", path.toStdString(), {}, "a header line and rows",
                   "nothing");
    }
    CsvTable t;
    for (const QString& h : csvCells(lines.front())) {
        t.header << h.trimmed();
    }
    for (int i = 1; i < lines.size(); ++i) {
        QStringList cells = csvRow(lines, i, t.header.size(), path);
        for (QString& c : cells) {
            c = c.trimmed();
        }
        t.rows << cells;
    }
    return t;
}

// Column access by name with errors that name the file, the line and the column.
struct Rows {
    const CsvTable& table;
    QString path;

    int column(const QString& name) const { return table.header.indexOf(name); }
    QString text(int row, const QString& name) const { return table.rows[row][column(name)]; }
    double number(int row, const QString& name, bool allowInfinite = false) const {
        const QString cell = text(row, name);
        bool ok = false;
        double v = cell.toDouble(&ok);
        if (!ok && allowInfinite && cell.compare(QLatin1String("inf"), Qt::CaseInsensitive) == 0) {
            v = std::numeric_limits<double>::infinity();
            ok = true;
        }
        if (!ok || std::isnan(v) || (!allowInfinite && std::isinf(v))) {
            once::fail("not a number", path.toStdString(),
                       QStringLiteral("line %1, %2").arg(row + 2).arg(name).toStdString(),
                       "a finite number", cell.toStdString());
        }
        return v;
    }
};

bool hasColumns(const QStringList& header, std::initializer_list<const char*> names) {
    return std::all_of(names.begin(), names.end(),
                       [&](const char* n) { return header.contains(QLatin1String(n)); });
}

// Points collected per series name in first-seen order, sorted by x at the end.
struct SeriesBuilder {
    QStringList order;
    std::map<QString, QVector<AnalysisPoint>> points;
    void add(const QString& name, const AnalysisPoint& p) {
        if (!order.contains(name)) {
            order << name;
        }
        points[name].push_back(p);
    }
    QList<AnalysisSeries> finish() {
        QList<AnalysisSeries> out;
        for (const QString& name : order) {
            auto& v = points[name];
            std::stable_sort(v.begin(), v.end(),
                             [](const auto& a, const auto& b) { return a.x < b.x; });
            out << AnalysisSeries{name, v};
        }
        return out;
    }
};

// "method" or "method (benchmark)" when the file holds several benchmarks.
QString seriesName(const Rows& r, int row, bool severalBenchmarks) {
    const QString method = r.text(row, QStringLiteral("method"));
    return severalBenchmarks
               ? QStringLiteral("%1 (%2)").arg(method, r.text(row, QStringLiteral("benchmark")))
               : method;
}

bool severalBenchmarks(const Rows& r) {
    const int c = r.column(QStringLiteral("benchmark"));
    for (const QStringList& row : r.table.rows) {
        if (row[c] != r.table.rows.front()[c]) {
            return true;
        }
    }
    return false;
}

bool isDense(const Rows& r, int row) {
    return r.text(row, QStringLiteral("budget")) == QLatin1String("dense");
}

// The chart's kind, title and axis labels; budgets and token counts span decades, so x is
// logarithmic unless said otherwise.
void setHeading(AnalysisResults& out, Kind kind, const QString& title, const QString& xLabel,
                const QString& yLabel, bool logX = true) {
    out.kind = kind;
    out.title = title;
    out.xLabel = xLabel;
    out.yLabel = yLabel;
    out.logX = logX;
}

// One series per "method" (or "method (benchmark)"): `pointOf(row, name)` gives the row's point,
// or nothing when the row is not drawn as a point.
template <typename PointOf>
void collectSeries(const Rows& r, AnalysisResults& out, PointOf pointOf) {
    const bool several = severalBenchmarks(r);
    SeriesBuilder b;
    for (int i = 0; i < r.table.rows.size(); ++i) {
        const QString name = seriesName(r, i, several);
        if (const std::optional<AnalysisPoint> p = pointOf(i, name)) {
            b.add(name, *p);
        }
    }
    out.series = b.finish();
}

void loadAccuracy(const Rows& r, AnalysisResults& out) {
    setHeading(out, Kind::Accuracy, AnalysisResults::tr("Accuracy vs budget"),
               AnalysisResults::tr("Token budget B"),
               AnalysisResults::tr("Accuracy (%), 95% bootstrap CI"));
    int perTask = 0;
    collectSeries(r, out, [&](int i, const QString& name) -> std::optional<AnalysisPoint> {
        if (r.text(i, QStringLiteral("task")) != QLatin1String("overall")) {
            ++perTask;
            return std::nullopt;
        }
        const double acc = r.number(i, QStringLiteral("accuracy_pct"));
        if (isDense(r, i)) {
            out.levels << AnalysisLevel{name, acc};
            return std::nullopt;
        }
        return AnalysisPoint{r.number(i, QStringLiteral("budget")), acc,
                             r.number(i, QStringLiteral("ci_lo")),
                             r.number(i, QStringLiteral("ci_hi"))};
    });
    if (perTask > 0) {
        out.note =
            AnalysisResults::tr("Overall accuracy; the %1 per-task rows are on the per-task radar.")
                .arg(perTask);
    }
}

void loadEfficiency(const Rows& r, AnalysisResults& out) {
    setHeading(out, Kind::Efficiency, AnalysisResults::tr("End-to-end time vs visual tokens"),
               AnalysisResults::tr("Visual tokens per question (mean)"),
               AnalysisResults::tr("End-to-end time per question (s)"));
    collectSeries(r, out, [&](int i, const QString&) -> std::optional<AnalysisPoint> {
        return AnalysisPoint{r.number(i, QStringLiteral("visual_tokens")),
                             r.number(i, QStringLiteral("e2e_seconds"))};
    });
}

void loadBreakEven(const Rows& r, AnalysisResults& out) {
    setHeading(out, Kind::BreakEven, AnalysisResults::tr("Break-even count N* vs budget"),
               AnalysisResults::tr("Token budget B"),
               AnalysisResults::tr("N* (videos that repay the offline cost)"));
    out.logY = true;
    int never = 0;
    collectSeries(r, out, [&](int i, const QString&) -> std::optional<AnalysisPoint> {
        const double n = r.number(i, QStringLiteral("n_star"), /*allowInfinite=*/true);
        if (std::isinf(n) || n <= 0) {
            ++never;  // no per-video saving: the offline cost is never repaid
            return std::nullopt;
        }
        return AnalysisPoint{r.number(i, QStringLiteral("budget")), n};
    });
    if (never > 0) {
        out.note =
            AnalysisResults::tr("%1 row(s) with no per-video saving (N* infinite) are not drawn.")
                .arg(never);
    }
}

void loadSupportOrigin(const Rows& r, AnalysisResults& out) {
    setHeading(out, Kind::SupportOrigin, AnalysisResults::tr("Support origin: donor − current R95"),
               AnalysisResults::tr("Token budget B"),
               AnalysisResults::tr("Δ R95, simultaneous band"));
    SeriesBuilder b;
    for (int i = 0; i < r.table.rows.size(); ++i) {
        b.add(AnalysisResults::tr("donor − current R95"),
              {r.number(i, QStringLiteral("budget")), r.number(i, QStringLiteral("delta_r95")),
               r.number(i, QStringLiteral("band_lo")), r.number(i, QStringLiteral("band_hi"))});
    }
    out.series = b.finish();
    out.levels << AnalysisLevel{AnalysisResults::tr("no difference"), 0.0};
    out.note = AnalysisResults::tr(
        "Above zero: a support chosen on another video leaves larger residuals than "
        "the video's own.");
}

// The stress summary (random − learned) and the codebook comparison (other − reference): one
// difference per metric with its bootstrap CI, on categorical x.
void loadDifferences(const Rows& r, AnalysisResults& out, bool stress) {
    setHeading(out, stress ? Kind::Stress : Kind::Comparison,
               stress ? AnalysisResults::tr("Stress diagnostic: random − learned residual")
                      : AnalysisResults::tr("Codebook comparison: other − reference residual"),
               AnalysisResults::tr("Residual statistic"),
               AnalysisResults::tr("Difference, 95% bootstrap CI"), /*logX=*/false);
    AnalysisSeries s{
        stress ? AnalysisResults::tr("random − learned") : AnalysisResults::tr("other − reference"),
        {}};
    for (int i = 0; i < r.table.rows.size(); ++i) {
        out.categories << r.text(i, QStringLiteral("metric"));
        s.points << AnalysisPoint{double(i + 1), r.number(i, QStringLiteral("difference")),
                                  r.number(i, QStringLiteral("ci_lo")),
                                  r.number(i, QStringLiteral("ci_hi"))};
    }
    out.series << s;
    out.levels << AnalysisLevel{AnalysisResults::tr("no difference"), 0.0};
    out.note = stress
                   ? AnalysisResults::tr(
                         "Above zero: the learned codebook leaves smaller residuals than "
                         "random exemplars of the same size.")
                   : AnalysisResults::tr("Above zero: the other codebook leaves larger residuals.");
}

}  // namespace

AnalysisResults AnalysisResults::load(const QString& path) {
    AnalysisResults out;
    out.source = path;
    out.table = readCsv(path);
    const QStringList& h = out.table.header;
    const Rows rows{out.table, path};
    if (hasColumns(h,
                   {"benchmark", "method", "budget", "task", "accuracy_pct", "ci_lo", "ci_hi"})) {
        loadAccuracy(rows, out);
    } else if (hasColumns(h, {"benchmark", "method", "budget", "visual_tokens", "e2e_seconds"})) {
        loadEfficiency(rows, out);
    } else if (hasColumns(h, {"benchmark", "method", "budget", "n_star"})) {
        loadBreakEven(rows, out);
    } else if (hasColumns(h, {"budget", "delta_r95", "band_lo", "band_hi"})) {
        loadSupportOrigin(rows, out);
    } else if (hasColumns(h, {"metric", "learned", "random", "difference", "ci_lo", "ci_hi"})) {
        loadDifferences(rows, out, true);
    } else if (hasColumns(h, {"metric", "reference", "other", "difference", "ci_lo", "ci_hi"})) {
        loadDifferences(rows, out, false);
    } else {
        once::fail("not a table the studio charts", path.toStdString(), "header",
                   "the CSV of once eval report, once analyze stress (the summary, not "
                   "_videos.csv), support-origin or break-even",
                   h.join(QLatin1Char(',')).toStdString());
    }
    const bool empty = std::all_of(out.series.begin(), out.series.end(),
                                   [](const AnalysisSeries& s) { return s.points.isEmpty(); });
    if (empty && out.levels.isEmpty()) {
        once::fail("analysis results hold nothing to draw", path.toStdString(), {},
                   "at least one row", "none");
    }
    return out;
}

}  // namespace once::studio
