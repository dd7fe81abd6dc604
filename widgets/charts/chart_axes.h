#pragma once
// Axes the charts share. Budgets are powers of two (1, 2, 4, … K): a budget axis is logarithmic
// with a tick at every power of two, written as plain numbers (issue 30: a base-10 log ticker
// left 16, 64 and 256 unmarked and crowded its labels at the right end).
class QCPAxis;

namespace once::studio {

/// A logarithmic axis (ticks at powers of `base`, plain numbers) or a linear one.
void useLogScale(QCPAxis* axis, bool log, double base = 10.0);
/// A logarithmic budget axis: ticks at 1, 2, 4, 8, …, thinned to every other power when the
/// range spans more than `maxTicks` of them.
void useBudgetAxis(QCPAxis* axis, int maxTicks = 12);

}  // namespace once::studio
