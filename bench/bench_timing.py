"""Timing shared by the Python peers of the benchmarks (the C++ side's bench_timing.h)."""
import time


def best_of(reps, fn):
    """Seconds of the fastest of `reps` calls of `fn`."""
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best
