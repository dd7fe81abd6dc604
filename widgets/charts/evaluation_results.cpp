#include "charts/evaluation_results.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <cmath>
#include <limits>
#include <map>

#include "charts/chart_data.h"
#include "util/error.h"
#include "util/regular_file.h"

namespace once::studio {
namespace {

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

// Collects (task, method, value) triples in first-seen order.
struct Collector {
    EvaluationResults r;
    std::map<std::pair<QString, QString>, double> values;
    void add(const QString& task, const QString& method, double value) {
        if (!r.tasks.contains(task)) {
            r.tasks << task;
        }
        if (!r.methods.contains(method)) {
            r.methods << method;
        }
        values[{task, method}] = value;
    }
    EvaluationResults finish(const QString& path) {
        r.source = path;
        bool fraction = true;
        for (const auto& [key, v] : values) {
            fraction = fraction && v >= 0 && v <= 1;
        }
        for (const QString& m : r.methods) {
            QVector<double> row;
            for (const QString& t : r.tasks) {
                auto it = values.find({t, m});
                const double v = it == values.end() ? kMissing : it->second;
                row << (fraction ? v * 100 : v);
            }
            r.accuracy << row;
        }
        if (r.isEmpty()) {
            once::fail("evaluation results hold no accuracy", path.toStdString(), {},
                       "at least one task and method", "none");
        }
        return r;
    }
};

double number(const QString& text, const QString& path, int line, const QString& column) {
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
        once::fail("not a number", path.toStdString(),
                   QStringLiteral("line %1, %2").arg(line).arg(column).toStdString(), "an accuracy",
                   text.toStdString());
    }
    return v;
}

// The harness's own table (`once eval report --csv PREFIX` → PREFIX_accuracy.csv):
// benchmark,method,budget,task,questions,correct,accuracy_pct,ci_lo,ci_hi. Methods are labelled
// "method B=budget" ("dense" alone); the radar's axes are the tasks, or the benchmarks when the
// file holds overall rows only.
bool loadHarnessCsv(const QString& path, const QStringList& header, const QStringList& lines,
                    Collector& c) {
    const int iBench = header.indexOf(QStringLiteral("benchmark"));
    const int iMethod = header.indexOf(QStringLiteral("method"));
    const int iBudget = header.indexOf(QStringLiteral("budget"));
    const int iTask = header.indexOf(QStringLiteral("task"));
    const int iAcc = header.indexOf(QStringLiteral("accuracy_pct"));
    if (iBench < 0 || iMethod < 0 || iBudget < 0 || iTask < 0 || iAcc < 0) {
        return false;
    }
    struct Row {
        QString axis, method;
        double value;
    };
    std::vector<Row> overall, perTask;
    QStringList benchmarks;
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList cells = csvRow(lines, i, header.size(), path);
        const QString budget = cells[iBudget].trimmed();
        const QString method = budget == QLatin1String("dense")
                                   ? cells[iMethod].trimmed()
                                   : cells[iMethod].trimmed() + QStringLiteral(" B=") + budget;
        const double value = number(cells[iAcc], path, i + 1, header[iAcc]);
        const QString bench = cells[iBench].trimmed(), task = cells[iTask].trimmed();
        if (!benchmarks.contains(bench)) {
            benchmarks << bench;
        }
        if (task == QLatin1String("overall")) {
            overall.push_back({bench, method, value});
        } else {
            perTask.push_back({bench + QLatin1Char('/') + task, method, value});
        }
    }
    // Tasks of one benchmark need no prefix.
    const bool single = benchmarks.size() == 1;
    for (const Row& r : perTask.empty() ? overall : perTask) {
        const QString axis =
            single && !perTask.empty() ? r.axis.section(QLatin1Char('/'), 1) : r.axis;
        c.add(axis, r.method, r.value);
    }
    return true;
}

EvaluationResults loadCsv(const QString& path, const QString& text) {
    Collector c;
    const QStringList lines =
        text.split(QRegularExpression(QStringLiteral("\r?\n")), Qt::SkipEmptyParts);
    if (lines.size() < 2) {
        once::fail("evaluation table has no rows", path.toStdString(), {}, "a header line and rows",
                   QStringLiteral("%1 lines").arg(lines.size()).toStdString());
    }
    QStringList header = csvCells(lines.front());
    for (QString& h : header) {
        h = h.trimmed();
    }
    if (loadHarnessCsv(path, header, lines, c)) {
        return c.finish(path);
    }
    const bool longFormat =
        header.size() == 3 &&
        header[0].trimmed().compare(QLatin1String("task"), Qt::CaseInsensitive) == 0 &&
        header[1].trimmed().compare(QLatin1String("method"), Qt::CaseInsensitive) == 0;
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList cells = csvRow(lines, i, header.size(), path);
        if (longFormat) {
            c.add(cells[0].trimmed(), cells[1].trimmed(), number(cells[2], path, i + 1, header[2]));
        } else {
            for (int j = 1; j < cells.size(); ++j) {
                if (!cells[j].trimmed().isEmpty()) {
                    c.add(cells[0].trimmed(), header[j].trimmed(),
                          number(cells[j], path, i + 1, header[j]));
                }
            }
        }
    }
    return c.finish(path);
}

EvaluationResults loadJson(const QString& path, const QByteArray& bytes) {
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        once::fail("evaluation results are not a JSON object", path.toStdString(), {}, "JSON",
                   error.errorString().toStdString());
    }
    const QJsonObject root = doc.object();
    Collector c;
    if (root.contains(QStringLiteral("results"))) {
        for (const QJsonValue& v : root.value(QStringLiteral("results")).toArray()) {
            const QJsonObject o = v.toObject();
            const QJsonValue acc = o.value(QStringLiteral("accuracy"));
            if (!acc.isDouble()) {
                once::fail("a result has no numeric accuracy", path.toStdString(), "results",
                           "\"accuracy\": number", "missing");
            }
            c.add(o.value(QStringLiteral("task")).toString(),
                  o.value(QStringLiteral("method")).toString(), acc.toDouble());
        }
        return c.finish(path);
    }
    const QJsonArray tasks = root.value(QStringLiteral("tasks")).toArray();
    const QJsonObject methods = root.value(QStringLiteral("methods")).toObject();
    if (tasks.isEmpty() || methods.isEmpty()) {
        once::fail("evaluation results name no tasks or methods", path.toStdString(),
                   "tasks/methods", "non-empty", "missing or empty");
    }
    for (auto it = methods.begin(); it != methods.end(); ++it) {
        const QJsonArray values = it.value().toArray();
        if (values.size() != tasks.size()) {
            once::fail("a method's accuracies do not match the tasks", path.toStdString(),
                       "methods." + it.key().toStdString(), std::to_string(tasks.size()),
                       std::to_string(values.size()));
        }
        for (int i = 0; i < tasks.size(); ++i) {
            c.add(tasks[i].toString(), it.key(), values[i].toDouble(kMissing));
        }
    }
    return c.finish(path);
}

}  // namespace

EvaluationResults EvaluationResults::load(const QString& path) {
    // A regular file only (a FIFO chosen in the dialog would block the load forever).
    const QByteArray bytes = QByteArray::fromStdString(
        once::readRegularFile(QFile::encodeName(path).toStdString(), kMaxChartFileBytes));
    if (QFileInfo(path).suffix().compare(QLatin1String("json"), Qt::CaseInsensitive) == 0) {
        return loadJson(path, bytes);
    }
    return loadCsv(path, QString::fromUtf8(bytes));
}

}  // namespace once::studio
