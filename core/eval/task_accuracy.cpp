#include "eval/task_accuracy.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "util/csv.h"
#include "util/error.h"
#include "util/json_file.h"

namespace once {
namespace {

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

double finiteOrMissing(double v) {
    return std::isfinite(v) ? v : kMissing;
}

void addOnce(std::vector<std::string>& list, const std::string& name) {
    if (std::find(list.begin(), list.end(), name) == list.end()) {
        list.push_back(name);
    }
}

// Collects (task, method, value) triples in first-seen order.
struct Collector {
    TaskAccuracy r;
    std::map<std::pair<std::string, std::string>, double> values;
    void add(const std::string& task, const std::string& method, double value) {
        addOnce(r.tasks, task);
        addOnce(r.methods, method);
        values[{task, method}] = value;
    }
    TaskAccuracy finish(const std::string& source) {
        r.source = source;
        bool fraction = true;
        for (const auto& [key, v] : values) {
            fraction = fraction && v >= 0 && v <= 1;
        }
        for (const std::string& m : r.methods) {
            std::vector<double> row;
            for (const std::string& t : r.tasks) {
                const auto it = values.find({t, m});
                const double v = it == values.end() ? kMissing : it->second;
                row.push_back(fraction ? v * 100 : v);
            }
            r.accuracy.push_back(std::move(row));
        }
        if (r.empty()) {
            fail("evaluation results hold no accuracy", source, {}, "at least one task and method",
                 "none");
        }
        return r;
    }
};

double number(const std::string& text, const std::string& source, std::size_t line,
              const std::string& column) {
    double v = kMissing;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) {
        fail("not a number", source, "line " + std::to_string(line) + ", " + column, "an accuracy",
             text);
    }
    return v;
}

// The harness's own table (`once eval report --csv PREFIX` → PREFIX_accuracy.csv):
// benchmark,method,budget,task,questions,correct,accuracy_pct,ci_lo,ci_hi. Methods are labelled
// "method B=budget" ("dense" alone); the radar's axes are the tasks, or the benchmarks when the
// file holds overall rows only.
bool readHarnessCsv(const CsvText& t, const std::string& source, Collector& c) {
    const int iBench = t.column("benchmark"), iMethod = t.column("method"),
              iBudget = t.column("budget"), iTask = t.column("task"),
              iAcc = t.column("accuracy_pct");
    if (iBench < 0 || iMethod < 0 || iBudget < 0 || iTask < 0 || iAcc < 0) {
        return false;
    }
    struct Row {
        std::string bench, task, method;
        double value;
    };
    std::vector<Row> overall, perTask;
    std::vector<std::string> benchmarks;
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
        const auto& cells = t.rows[i];
        const std::string& budget = cells[iBudget];
        const std::string method =
            budget == "dense" ? cells[iMethod] : cells[iMethod] + " B=" + budget;
        const double value = number(cells[iAcc], source, i + 2, t.header[iAcc]);
        addOnce(benchmarks, cells[iBench]);
        (cells[iTask] == "overall" ? overall : perTask)
            .push_back({cells[iBench], cells[iTask], method, value});
    }
    // Tasks of one benchmark need no prefix.
    const bool single = benchmarks.size() == 1;
    for (const Row& r : perTask.empty() ? overall : perTask) {
        const std::string axis = perTask.empty() ? r.bench
                                 : single        ? r.task
                                                 : r.bench + "/" + r.task;
        c.add(axis, r.method, r.value);
    }
    return true;
}

bool equalsIgnoringCase(const std::string& a, const char* b) {
    return std::equal(a.begin(), a.end(), b, b + std::char_traits<char>::length(b),
                      [](char x, char y) {
                          return std::tolower(static_cast<unsigned char>(x)) ==
                                 std::tolower(static_cast<unsigned char>(y));
                      });
}

}  // namespace

TaskAccuracy TaskAccuracy::parseCsv(const std::string& text, const std::string& source) {
    const CsvText t = once::parseCsv(text, source);
    if (t.rows.empty()) {
        fail("evaluation table has no rows", source, {}, "a header line and rows", "1 line");
    }
    Collector c;
    if (readHarnessCsv(t, source, c)) {
        return c.finish(source);
    }
    const bool longFormat = t.header.size() == 3 && equalsIgnoringCase(t.header[0], "task") &&
                            equalsIgnoringCase(t.header[1], "method");
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
        const auto& cells = t.rows[i];
        if (longFormat) {
            c.add(cells[0], cells[1], number(cells[2], source, i + 2, t.header[2]));
            continue;
        }
        for (std::size_t j = 1; j < cells.size(); ++j) {
            if (!cells[j].empty()) {
                c.add(cells[0], t.header[j], number(cells[j], source, i + 2, t.header[j]));
            }
        }
    }
    return c.finish(source);
}

TaskAccuracy TaskAccuracy::parseJson(const std::string& text, const std::string& source) {
    const nlohmann::json root = parseJsonText(text, source);
    if (!root.is_object()) {
        fail("evaluation results are not a JSON object", source, {}, "a JSON object",
             jsonTypeName(root));
    }
    auto stringAt = [](const nlohmann::json& o, const char* key) {
        const auto it = o.find(key);
        return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    Collector c;
    if (const auto results = root.find("results"); results != root.end()) {
        if (!results->is_array()) {
            fail("evaluation results are not a list", source, "results", "an array",
                 jsonTypeName(*results));
        }
        for (const nlohmann::json& o : *results) {
            const auto acc = o.is_object() ? o.find("accuracy") : o.end();
            if (!o.is_object() || acc == o.end() || !acc->is_number()) {
                fail("a result has no numeric accuracy", source, "results", "\"accuracy\": number",
                     "missing");
            }
            const double v = acc->get<double>();
            if (!std::isfinite(v)) {
                fail("a result's accuracy is not finite", source, "results", "a finite number",
                     std::to_string(v));
            }
            c.add(stringAt(o, "task"), stringAt(o, "method"), v);
        }
        return c.finish(source);
    }
    const auto tasks = root.find("tasks");
    const auto methods = root.find("methods");
    if (tasks == root.end() || !tasks->is_array() || tasks->empty() || methods == root.end() ||
        !methods->is_object() || methods->empty()) {
        fail("evaluation results name no tasks or methods", source, "tasks/methods", "non-empty",
             "missing or empty");
    }
    for (const auto& [method, values] : methods->items()) {
        if (!values.is_array() || values.size() != tasks->size()) {
            fail("a method's accuracies do not match the tasks", source, "methods." + method,
                 std::to_string(tasks->size()),
                 values.is_array() ? std::to_string(values.size()) : jsonTypeName(values));
        }
        for (std::size_t i = 0; i < tasks->size(); ++i) {
            const auto& task = (*tasks)[i];
            c.add(task.is_string() ? task.get<std::string>() : std::string(), method,
                  values[i].is_number() ? finiteOrMissing(values[i].get<double>()) : kMissing);
        }
    }
    return c.finish(source);
}

TaskAccuracy TaskAccuracy::load(const std::string& path) {
    const std::string text = readFileLimited(path, kMaxTaskAccuracyBytes);
    const auto dot = path.rfind('.');
    const bool json = dot != std::string::npos && equalsIgnoringCase(path.substr(dot + 1), "json");
    return json ? parseJson(text, path) : parseCsv(text, path);
}

}  // namespace once
