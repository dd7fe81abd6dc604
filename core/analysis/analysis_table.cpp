#include "analysis/analysis_table.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>

#include "util/error.h"
#include "util/json_file.h"

namespace once {
namespace {

using Kind = AnalysisTable::Kind;

// Column access by name with errors that name the file, the line and the column.
struct Rows {
    const CsvText& table;
    const std::string& source;

    std::size_t size() const { return table.rows.size(); }
    const std::string& text(std::size_t row, const char* name) const {
        return table.rows[row][std::size_t(table.column(name))];
    }
    double number(std::size_t row, const char* name, bool allowInfinite = false) const {
        const std::string& cell = text(row, name);
        double v = std::numeric_limits<double>::quiet_NaN();
        const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
        const bool parsed = ec == std::errc() && end == cell.data() + cell.size();
        if (!parsed || std::isnan(v) || (!allowInfinite && std::isinf(v))) {
            fail("not a number", source, "line " + std::to_string(row + 2) + ", " + name,
                 "a finite number", cell);
        }
        return v;
    }
};

bool hasColumns(const CsvText& t, std::initializer_list<const char*> names) {
    return std::all_of(names.begin(), names.end(), [&](const char* n) { return t.column(n) >= 0; });
}

// Points collected per series name in first-seen order, sorted by x at the end.
struct SeriesBuilder {
    std::vector<std::string> order;
    std::map<std::string, std::vector<AnalysisPoint>> points;
    void add(const std::string& name, const AnalysisPoint& p) {
        if (std::find(order.begin(), order.end(), name) == order.end()) {
            order.push_back(name);
        }
        points[name].push_back(p);
    }
    std::vector<AnalysisSeries> finish() {
        std::vector<AnalysisSeries> out;
        for (const std::string& name : order) {
            auto& v = points[name];
            std::stable_sort(v.begin(), v.end(),
                             [](const auto& a, const auto& b) { return a.x < b.x; });
            out.push_back({name, v});
        }
        return out;
    }
};

bool severalBenchmarks(const Rows& r) {
    for (std::size_t i = 1; i < r.size(); ++i) {
        if (r.text(i, "benchmark") != r.text(0, "benchmark")) {
            return true;
        }
    }
    return false;
}

// One series per "method" (or "method (benchmark)" when the file holds several benchmarks):
// `pointOf(row, name)` gives the row's point, or nothing when the row is not drawn as a point.
template <typename PointOf>
void collectSeries(const Rows& r, AnalysisTable& out, PointOf pointOf) {
    const bool several = severalBenchmarks(r);
    SeriesBuilder b;
    for (std::size_t i = 0; i < r.size(); ++i) {
        const std::string name = several ? r.text(i, "method") + " (" + r.text(i, "benchmark") + ")"
                                         : r.text(i, "method");
        if (const std::optional<AnalysisPoint> p = pointOf(i, name)) {
            b.add(name, *p);
        }
    }
    out.series = b.finish();
}

void readAccuracy(const Rows& r, AnalysisTable& out) {
    out.kind = Kind::Accuracy;
    collectSeries(r, out,
                  [&](std::size_t i, const std::string& name) -> std::optional<AnalysisPoint> {
                      if (r.text(i, "task") != "overall") {
                          ++out.rowsLeftOut;  // per task: the radar's
                          return std::nullopt;
                      }
                      const double acc = r.number(i, "accuracy_pct");
                      if (r.text(i, "budget") == "dense") {
                          out.levels.push_back({name, acc});
                          return std::nullopt;
                      }
                      return AnalysisPoint{r.number(i, "budget"), acc, r.number(i, "ci_lo"),
                                           r.number(i, "ci_hi")};
                  });
}

void readEfficiency(const Rows& r, AnalysisTable& out) {
    out.kind = Kind::Efficiency;
    collectSeries(r, out, [&](std::size_t i, const std::string&) -> std::optional<AnalysisPoint> {
        return AnalysisPoint{r.number(i, "visual_tokens"), r.number(i, "e2e_seconds")};
    });
}

void readBreakEven(const Rows& r, AnalysisTable& out) {
    out.kind = Kind::BreakEven;
    out.logY = true;
    collectSeries(r, out, [&](std::size_t i, const std::string&) -> std::optional<AnalysisPoint> {
        const double n = r.number(i, "n_star", /*allowInfinite=*/true);
        if (std::isinf(n) || n <= 0) {
            ++out.rowsLeftOut;  // no per-video saving: the offline cost is never repaid
            return std::nullopt;
        }
        return AnalysisPoint{r.number(i, "budget"), n};
    });
}

void readSupportOrigin(const Rows& r, AnalysisTable& out) {
    out.kind = Kind::SupportOrigin;
    SeriesBuilder b;
    for (std::size_t i = 0; i < r.size(); ++i) {
        b.add("donor − current R95", {r.number(i, "budget"), r.number(i, "delta_r95"),
                                      r.number(i, "band_lo"), r.number(i, "band_hi")});
    }
    out.series = b.finish();
    out.levels.push_back({"no difference", 0.0});
}

// The stress summary (random − learned) and the codebook comparison (other − reference): one
// difference per metric with its bootstrap CI, on categorical x.
void readDifferences(const Rows& r, AnalysisTable& out, bool stress) {
    out.kind = stress ? Kind::Stress : Kind::Comparison;
    out.logX = false;
    AnalysisSeries s{stress ? "random − learned" : "other − reference", {}};
    for (std::size_t i = 0; i < r.size(); ++i) {
        out.categories.push_back(r.text(i, "metric"));
        s.points.push_back(
            {double(i + 1), r.number(i, "difference"), r.number(i, "ci_lo"), r.number(i, "ci_hi")});
    }
    out.series.push_back(s);
    out.levels.push_back({"no difference", 0.0});
}

}  // namespace

AnalysisTable AnalysisTable::parse(const std::string& text, const std::string& source) {
    AnalysisTable out;
    out.source = source;
    out.table = parseCsv(text, source);
    const CsvText& t = out.table;
    const Rows rows{t, source};
    if (hasColumns(t,
                   {"benchmark", "method", "budget", "task", "accuracy_pct", "ci_lo", "ci_hi"})) {
        readAccuracy(rows, out);
    } else if (hasColumns(t, {"benchmark", "method", "budget", "visual_tokens", "e2e_seconds"})) {
        readEfficiency(rows, out);
    } else if (hasColumns(t, {"benchmark", "method", "budget", "n_star"})) {
        readBreakEven(rows, out);
    } else if (hasColumns(t, {"budget", "delta_r95", "band_lo", "band_hi"})) {
        readSupportOrigin(rows, out);
    } else if (hasColumns(t, {"metric", "learned", "random", "difference", "ci_lo", "ci_hi"})) {
        readDifferences(rows, out, true);
    } else if (hasColumns(t, {"metric", "reference", "other", "difference", "ci_lo", "ci_hi"})) {
        readDifferences(rows, out, false);
    } else {
        std::string header;
        for (const std::string& h : t.header) {
            header += (header.empty() ? "" : ",") + h;
        }
        fail("not a table the studio charts", source, "header",
             "the CSV of once eval report, once analyze stress (the summary, not _videos.csv), "
             "support-origin or break-even",
             header);
    }
    const bool empty = std::all_of(out.series.begin(), out.series.end(),
                                   [](const AnalysisSeries& s) { return s.points.empty(); });
    if (empty && out.levels.empty()) {
        fail("analysis results hold nothing to draw", source, {}, "at least one row", "none");
    }
    return out;
}

AnalysisTable AnalysisTable::load(const std::string& path) {
    return parse(readFileLimited(path, kMaxAnalysisTableBytes), path);
}

}  // namespace once
