// clang-format off
// fuzz-sources: core/eval/task_accuracy.cpp core/util/csv.cpp core/util/json_file.cpp core/util/regular_file.cpp core/util/error.cpp
// clang-format on
// libFuzzer target for the per-task accuracy tables the studio's radar opens (eval/
// task_accuracy.h): the first byte picks CSV or JSON, the rest is the file. Any input either
// throws OnceError naming the source or gives a table of methods × tasks whose cells are finite
// or missing (NaN), with at least one task and one method.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "eval/task_accuracy.h"
#include "fuzz_check.h"
#include "util/error.h"

using once::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const bool json = data[0] & 1;
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        const once::TaskAccuracy t = json ? once::TaskAccuracy::parseJson(text, "fuzz")
                                          : once::TaskAccuracy::parseCsv(text, "fuzz");
        check(!t.empty());
        check(t.accuracy.size() == t.methods.size());
        for (const auto& row : t.accuracy) {
            check(row.size() == t.tasks.size());
            for (double v : row) {
                check(std::isnan(v) || std::isfinite(v));
            }
        }
    } catch (const once::OnceError& e) {
        check(e.where().file == "fuzz");
    }
    return 0;
}
