#pragma once
// Peak memory per pipeline stage: process RSS high-water mark (Linux: VmHWM, reset through
// /proc/self/clear_refs so each stage reports its own peak).
#include <cstdint>

namespace once {

/// Resets the RSS high-water mark where the kernel allows it (no-op elsewhere).
void resetPeakRss();
/// VmHWM in bytes, or −1 where unavailable.
std::int64_t peakRssBytes();

}  // namespace once
