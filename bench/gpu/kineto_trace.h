#pragma once
// One run of a callable under LibTorch's own profiler (Kineto: the CPU side of every ATen op and,
// through CUPTI, every CUDA kernel, graph replays included), since the GPU machine has no Nsight
// Systems: writes the Chrome trace (chrome://tracing, Perfetto) and returns the totals per
// kernel and per op, largest first, to put beside the timings.
#include <torch/csrc/autograd/profiler_kineto.h>

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace once::bench {

inline nlohmann::json traceOnce(const std::function<void()>& run, const std::string& chromeTrace,
                                bool cuda, std::size_t top = 25) {
    namespace prof = torch::autograd::profiler;
    using torch::profiler::impl::ActivityType;
    const torch::profiler::impl::ProfilerConfig config(
        torch::profiler::impl::ProfilerState::KINETO);
    std::set<ActivityType> activities{ActivityType::CPU};
    if (cuda) {
        activities.insert(ActivityType::CUDA);
    }
    prof::prepareProfiler(config, activities);
    prof::enableProfiler(config, activities);
    run();
    const std::unique_ptr<prof::ProfilerResult> result = prof::disableProfiler();
    if (!chromeTrace.empty()) {
        result->save(chromeTrace);
    }
    struct Total {
        double us = 0;
        std::int64_t count = 0;
    };
    std::map<std::string, Total> device, host;
    double deviceUs = 0, hostSpanStart = 1e300, hostSpanEnd = 0;
    for (const auto& e : result->events()) {
        const double us = double(e.durationNs()) / 1e3;
        if (e.deviceType() == c10::DeviceType::CUDA) {
            auto& t = device[e.name()];
            t.us += us;
            t.count += 1;
            deviceUs += us;
        } else if (!e.isAsync()) {
            auto& t = host[e.name()];
            t.us += us;
            t.count += 1;
            hostSpanStart = std::min(hostSpanStart, double(e.startNs()) / 1e3);
            hostSpanEnd = std::max(hostSpanEnd, double(e.startNs() + e.durationNs()) / 1e3);
        }
    }
    auto largest = [top](const std::map<std::string, Total>& m) {
        std::vector<std::pair<std::string, Total>> v(m.begin(), m.end());
        std::sort(v.begin(), v.end(),
                  [](const auto& a, const auto& b) { return a.second.us > b.second.us; });
        nlohmann::json out = nlohmann::json::array();
        for (std::size_t i = 0; i < std::min(top, v.size()); ++i) {
            out.push_back({{"name", v[i].first.substr(0, 160)},
                           {"us", v[i].second.us},
                           {"count", v[i].second.count}});
        }
        return out;
    };
    std::int64_t kernels = 0;
    for (const auto& [_, t] : device) {
        kernels += t.count;
    }
    return {{"device_busy_us", deviceUs},
            {"device_events", kernels},
            {"host_span_us", hostSpanEnd > hostSpanStart ? hostSpanEnd - hostSpanStart : 0.0},
            {"device_top", largest(device)},
            {"host_top", largest(host)}};
}

}  // namespace once::bench
