#pragma once
// A peer method for the studio's tests of slow work (issue 16, defect 8): "test-slow" prepares
// in steps with progress and takes a set time per compression, like VQToken on a long video, so
// the tests can see progress, Cancel and stale read-outs before the work ends. It keeps the
// first B tokens, each its own group. Registered once per test program, before any widget lists
// the methods.
#include <ATen/ATen.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "compress/token_compressor.h"

namespace once::studio::test {

struct SlowTimes {
    static std::atomic<int>& prepareSteps() {
        static std::atomic<int> v{10};
        return v;
    }
    static std::atomic<int>& stepMs() {
        static std::atomic<int> v{100};
        return v;
    }
    static std::atomic<int>& compressMs() {
        static std::atomic<int> v{50};
        return v;
    }
};

class SlowCompressor : public once::TokenCompressor {
  public:
    std::string method() const override { return "test-slow"; }

    void prepare(const once::EncodedVideo& video, once::Progress* progress) override {
        features_ = video.features.reshape({-1, video.dim()}).to(at::kFloat);
        const int steps = SlowTimes::prepareSteps();
        if (progress) {
            progress->begin("test preparation", steps);
        }
        for (int i = 0; i < steps; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(SlowTimes::stepMs()));
            if (progress) {
                progress->update(i + 1);  // throws Cancelled when cancelled
            }
        }
    }

    once::CompressionResult compress(std::int64_t budget, std::uint64_t) override {
        std::this_thread::sleep_for(std::chrono::milliseconds(SlowTimes::compressMs()));
        const std::int64_t n = features_.size(0);
        const std::int64_t m = std::min(budget, n);
        once::CompressionResult r;
        r.tokens = features_.slice(0, 0, m).clone();
        at::Tensor groups = at::full({n}, -1, at::kLong);
        groups.slice(0, 0, m).copy_(at::arange(m, at::kLong));
        r.groupOfToken = groups;
        r.method = method();
        once::finishResult(r, features_, budget);
        return r;
    }

  private:
    at::Tensor features_;
};

/// Registers "test-slow" (once per program).
inline void registerSlowCompressor() {
    static const bool registered = [] {
        once::CompressorInfo info;
        info.method = "test-slow";
        info.summary = "test method: slow preparation and compression";
        info.source = "tests/widgets/slow_compressor.h";
        info.title = "Slow test method";
        once::registerCompressor(
            info, [](const once::CompressorSpec&) { return std::make_unique<SlowCompressor>(); });
        return true;
    }();
    (void)registered;
}

}  // namespace once::studio::test
