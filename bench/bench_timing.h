#pragma once
// Timing shared by the CPU benchmarks: the best of several runs, the usual way to read a
// kernel's time on a machine that other work also uses.
#include <algorithm>
#include <chrono>

namespace once::bench {

using Clock = std::chrono::steady_clock;

/// Seconds of the fastest of `reps` calls of `f`.
template <typename F>
double bestOf(int reps, F&& f) {
    double best = 1e30;
    for (int i = 0; i < reps; ++i) {
        auto t = Clock::now();
        f();
        best = std::min(best, std::chrono::duration<double>(Clock::now() - t).count());
    }
    return best;
}

}  // namespace once::bench
