#pragma once
// What the analyses chart shows of a table core read (analysis/analysis_table.h): its title, axis
// labels, the note on what was left out, and the names of the series and levels the table names
// itself, all translated; the file's rows as the chart's "Export data…" table.
#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include "analysis/analysis_table.h"
#include "charts/chart_data.h"

namespace once::studio {

struct AnalysisResults {
    Q_DECLARE_TR_FUNCTIONS(AnalysisResults)
  public:
    once::AnalysisTable data;
    QString source;
    QString title, xLabel, yLabel;
    QString note;  ///< what was left out, how to read it
    /// Display names of data.series and data.levels, in their order.
    QStringList seriesNames, levelNames;
    QStringList categories;  ///< data.categories
    CsvTable table;          ///< the file as read

    /// Reads `path` (AnalysisTable::load) and names what it holds. Throws once::OnceError
    /// naming the file, the line or column, and what is wrong.
    static AnalysisResults load(const QString& path);
    static AnalysisResults of(once::AnalysisTable table);
};

}  // namespace once::studio
