#include "charts/chart_data.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <string>


namespace once::studio {

std::vector<double> usageDeciles(const std::vector<std::int64_t>& counts) {
    const std::int64_t total = std::accumulate(counts.begin(), counts.end(), std::int64_t{0});
    if (counts.empty() || total <= 0) {
        return {};
    }
    std::vector<std::int64_t> sorted = counts;
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    const std::size_t k = sorted.size();
    std::vector<double> out(10, 0.0);
    for (int d = 0; d < 10; ++d) {
        // Equal-count groups: boundaries at round-down of k·d/10.
        const std::size_t begin = k * d / 10, end = k * (d + 1) / 10;
        std::int64_t sum = 0;
        for (std::size_t i = begin; i < end; ++i) {
            sum += sorted[i];
        }
        out[d] = static_cast<double>(sum) / static_cast<double>(total);
    }
    return out;
}

double percentile(std::vector<float> values, double q) {
    if (values.empty()) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    std::sort(values.begin(), values.end());
    const double pos = std::clamp(q, 0.0, 100.0) / 100.0 * static_cast<double>(values.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, values.size() - 1);
    const double frac = pos - static_cast<double>(lo);
    return values[lo] + (values[hi] - static_cast<double>(values[lo])) * frac;
}

Histogram histogram(const std::vector<float>& values, int bins, double lo, double hi) {
    Histogram h;
    h.lo = lo;
    h.hi = hi > lo ? hi : lo + 1;
    h.density.assign(std::max(1, bins), 0.0);
    if (values.empty()) {
        return h;
    }
    const double width = h.binWidth();
    for (float v : values) {
        const int b = std::clamp(static_cast<int>((v - h.lo) / width), 0,
                                 static_cast<int>(h.density.size()) - 1);
        h.density[b] += 1.0;
    }
    const double scale = 1.0 / (static_cast<double>(values.size()) * width);
    for (double& d : h.density) {
        d *= scale;
    }
    return h;
}

QString CsvTable::toCsv() const {
    auto cell = [](const QString& s) {
        if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) ||
            s.contains(QLatin1Char('\n')) || s.contains(QLatin1Char('\r'))) {
            QString quoted = s;
            quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
            return QLatin1Char('"') + quoted + QLatin1Char('"');
        }
        return s;
    };
    auto line = [&](const QStringList& cells) {
        QStringList out;
        for (const QString& c : cells) {
            out << cell(c);
        }
        return out.join(QLatin1Char(',')) + QLatin1String("\r\n");
    };
    QString text = line(header);
    for (const QStringList& r : rows) {
        text += line(r);
    }
    return text;
}

}  // namespace once::studio
