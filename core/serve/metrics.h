#pragma once
// GET /metrics of `once serve`: Prometheus text format 0.0.4. Requests by route and status,
// requests in flight and cancelled, latency histograms end to end and per stage (queue, decode,
// encode, compress, prefill, generate; cached stages are not observed), token counters, the
// video cache's hits and the process's decode/encode counts (util/work_counters.h), so an
// operator sees from outside that a repeated video is not decoded again; and the videos
// received by how they came (data: bytes, file: path, once-video: hash) with the bytes uploaded,
// so that the uploads a hash saved are seen too.
#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace once::serve {

struct EngineAnswer;
struct VideoSource;

class ServeMetrics {
  public:
    /// Upper bounds (seconds) of the latency buckets; +Inf is implied.
    static constexpr std::array<double, 14> kBuckets = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                                        1,     2.5,  5,     10,   30,  60,   300};

    /// A chat completion was admitted / ended (any outcome).
    void started();
    void finished(double seconds);
    /// Any HTTP answer, by route ("/v1/chat/completions") and status code.
    void answered(const std::string& route, int status);
    void cancelled();  ///< the client left before the answer was complete
    void observe(const EngineAnswer& a);
    /// A parsed request's video: counted by source; a data: URL's decoded bytes added.
    void videoReceived(const VideoSource& v);

    std::int64_t inFlight() const;
    std::string prometheusText() const;

  private:
    struct Histogram {
        std::array<std::int64_t, kBuckets.size()> counts{};  ///< non-cumulative
        std::int64_t count = 0;
        double sum = 0;
        void add(double seconds);
    };
    mutable std::mutex m_;
    std::map<std::pair<std::string, int>, std::int64_t> answered_;
    std::int64_t inFlight_ = 0, cancelled_ = 0;
    std::int64_t cacheHits_ = 0, cacheMisses_ = 0;
    std::int64_t promptTokens_ = 0, completionTokens_ = 0;
    std::int64_t visualBefore_ = 0, visualAfter_ = 0;
    std::int64_t videosByData_ = 0, videosByFile_ = 0, videosByHash_ = 0, uploadBytes_ = 0;
    Histogram request_;
    std::map<std::string, Histogram> stages_;
};

}  // namespace once::serve
