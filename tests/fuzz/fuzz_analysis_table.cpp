// clang-format off
// fuzz-sources: core/analysis/analysis_table.cpp core/util/csv.cpp core/util/json_file.cpp core/util/regular_file.cpp core/util/error.cpp
// clang-format on
// libFuzzer target for the evaluation and analysis tables the studio charts
// (analysis/analysis_table.h), which the user opens from the Analyses tab. Any byte string
// either throws OnceError (naming the source) or parses into a table whose rows are as wide as
// its header, whose series are sorted by x with finite points, whose levels are finite, and
// whose categorical x has one category per point.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "analysis/analysis_table.h"
#include "fuzz_check.h"
#include "util/error.h"

using once::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const once::AnalysisTable t = once::AnalysisTable::parse(text, "fuzz.csv");
        for (const auto& row : t.table.rows) {
            check(row.size() == t.table.header.size());
        }
        bool anything = !t.levels.empty();
        for (const auto& s : t.series) {
            for (std::size_t i = 0; i < s.points.size(); ++i) {
                const auto& p = s.points[i];
                check(std::isfinite(p.x) && std::isfinite(p.y));
                check(!p.hasInterval() || (std::isfinite(p.lo) && std::isfinite(p.hi)));
                check(i == 0 || s.points[i - 1].x <= p.x);
                anything = true;
            }
        }
        check(anything);
        for (const auto& l : t.levels) {
            check(std::isfinite(l.y));
        }
        if (!t.categories.empty()) {
            check(t.series.size() == 1 && t.series[0].points.size() == t.categories.size());
        }
        check(t.rowsLeftOut >= 0 && std::size_t(t.rowsLeftOut) <= t.table.rows.size());
    } catch (const once::OnceError& e) {
        check(e.where().file == "fuzz.csv");
    }
    return 0;
}
