#include "charts/chart_axes.h"

#include <qcustomplot.h>

namespace once::studio {

void useLogScale(QCPAxis* axis, bool log, double base) {
    axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log) {
        auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
        ticker->setLogBase(base);
        ticker->setSubTickCount(0);
        axis->setTicker(ticker);
        axis->setNumberFormat(QStringLiteral("g"));
        axis->setNumberPrecision(8);  // 1024, not 1.02e+03
    } else {
        axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setNumberPrecision(6);
    }
}

void useBudgetAxis(QCPAxis* axis, int maxTicks) {
    useLogScale(axis, true, 2.0);
    auto ticker = axis->ticker().dynamicCast<QCPAxisTickerLog>();
    if (ticker) {
        // QCPAxisTickerLog takes the count as a hint and thins by whole powers of the base.
        ticker->setTickCount(maxTicks);
    }
}

}  // namespace once::studio
