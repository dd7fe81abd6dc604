// Demo encoder throughput (issue 3: at least 30 frames/s on one core). Prints frames per second
// by wall clock and by this thread's CPU time: the CPU-time figure is what one core delivers
// even when other processes share the machine. Usage: bench_encode [frames] [HxW] [reps]
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

#include "models/visual_encoder.h"

namespace {

double threadCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
    const std::int64_t frames = argc > 1 ? std::stoll(argv[1]) : 64;
    const std::string size = argc > 2 ? argv[2] : "240x320";
    const int reps = argc > 3 ? std::stoi(argv[3]) : 3;
    const auto x = size.find('x');
    const std::int64_t h = std::stoll(size.substr(0, x)), w = std::stoll(size.substr(x + 1));
    at::set_num_threads(1);  // one core, as the issue states the target
    at::manual_seed(0);
    // Smooth random content (noise would be an unusual worst case for nothing).
    at::Tensor video = at::upsample_bilinear2d(at::rand({frames, 3, h / 8, w / 8}), {h, w}, false)
                           .mul(255)
                           .to(at::kByte)
                           .permute({0, 2, 3, 1})
                           .contiguous();
    auto encoder = once::makeVisualEncoder("demo", {});
    encoder->encode(video.slice(0, 0, 2));  // warm-up
    double bestWall = 1e30, bestCpu = 1e30;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        const double c0 = threadCpuSeconds();
        encoder->encode(video);
        bestCpu = std::min(bestCpu, threadCpuSeconds() - c0);
        bestWall = std::min(
            bestWall, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf(
        "{\"frames\":%lld,\"input\":\"%s\",\"wall_fps\":%.1f,\"cpu_fps\":%.1f,\"threads\":1}\n",
        static_cast<long long>(frames), size.c_str(), double(frames) / bestWall,
        double(frames) / bestCpu);
    return 0;
}
