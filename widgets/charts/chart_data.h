#pragma once
// The numbers behind the diagnostic charts (paper §"Codebook Analysis"): usage by equal-count
// deciles and residual percentiles. Plain functions, no widgets, so the tests check them alone.
#include <QList>
#include <QString>
#include <QStringList>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace once::studio {

/// Codewords ordered by usage (most used first) and cut into 10 groups of equal codeword count
/// (sizes differ by at most one); each entry is the group's share of all assignments, so the
/// ten sum to 1 and a uniform codebook gives 0.1 each. Empty when there are no assignments.
std::vector<double> usageDeciles(const std::vector<std::int64_t>& counts);

/// The q-th percentile (0…100) of `values` with linear interpolation between order statistics
/// (NumPy's default). `values` need not be sorted. NaN when empty.
double percentile(std::vector<float> values, double q);

struct Histogram {
    double lo = 0, hi = 1;
    std::vector<double> density;  ///< per bin, integrates to 1 over [lo, hi]
    double binWidth() const { return density.empty() ? 0 : (hi - lo) / density.size(); }
};
/// Histogram of `values` over [lo, hi] (values outside are clamped into the end bins).
Histogram histogram(const std::vector<float>& values, int bins, double lo, double hi);

/// A table for "Export data…": a header and rows of already formatted cells.
struct CsvTable {
    QStringList header;
    QList<QStringList> rows;
    /// RFC 4180 text: cells with commas, quotes or line breaks are quoted.
    QString toCsv() const;
};

/// Largest results file the charts open (CSV of `once analyze`, `once eval report`'s JSON/CSV):
/// a table of a few thousand rows takes well under 1 MiB.
constexpr std::size_t kMaxChartFileBytes = std::size_t(256) << 20;

/// One CSV line split into cells, RFC 4180 quoting ("a,b" and "" inside quotes) undone.
QStringList csvCells(const QString& line);

/// Line `index` of a CSV file's `lines` (0 is the header) split into cells; throws
/// once::OnceError naming `path` and the line when it does not hold `width` cells.
QStringList csvRow(const QStringList& lines, int index, int width, const QString& path);

}  // namespace once::studio
