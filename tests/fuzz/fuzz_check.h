#pragma once
// The fuzz targets' assertion: an invariant that does not hold aborts, which libFuzzer reports
// as a crash and keeps the input that broke it (assert() would vanish under NDEBUG).
#include <cstdlib>

namespace once::fuzz {

inline void check(bool ok) {
    if (!ok) {
        std::abort();
    }
}

}  // namespace once::fuzz
