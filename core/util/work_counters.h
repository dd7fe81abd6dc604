#pragma once
// Counts of the expensive steps a process has run: how many times a video was decoded, encoded,
// an encoder built, a codebook read, a compressor prepared. Tests use them to prove work is not
// repeated (a studio question reuses the encoded video and the compressor on screen; an
// evaluation builds its vision encoder once), the way
// LLVM's statistics count what a pass did. Relaxed atomics: a count, never a synchronisation.
#include <atomic>
#include <cstdint>

namespace once {

struct WorkCounters {
    std::atomic<std::int64_t> decodes{0};        ///< videos decoded (video/video_reader readFrames)
    std::atomic<std::int64_t> encodes{0};        ///< VisualEncoder::encode calls
    std::atomic<std::int64_t> encoderBuilds{0};  ///< makeVisualEncoder calls
    std::atomic<std::int64_t> codebookLoads{0};  ///< Codebook::load calls
    /// Compressors prepared for a video (PreparedCompressor::prepare: ONCE's assignment, a
    /// peer's budget-independent part); adopting an assignment made before is not counted.
    std::atomic<std::int64_t> prepares{0};
};

/// The process's counters.
WorkCounters& workCounters();

inline void countWork(std::atomic<std::int64_t>& counter) {
    counter.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace once
