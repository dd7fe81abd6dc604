#include "serve/metrics.h"

#include <sstream>

#include "serve/media_url.h"
#include "serve/serve_engine.h"
#include "util/work_counters.h"

namespace once::serve {
namespace {

void histogramText(std::ostringstream& o, const std::string& name, const std::string& labels,
                   const std::array<std::int64_t, ServeMetrics::kBuckets.size()>& counts,
                   std::int64_t count, double sum) {
    const std::string sep = labels.empty() ? "" : ",";
    std::int64_t cumulative = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        cumulative += counts[i];
        o << name << "_bucket{" << labels << sep << "le=\"" << ServeMetrics::kBuckets[i] << "\"} "
          << cumulative << "\n";
    }
    o << name << "_bucket{" << labels << sep << "le=\"+Inf\"} " << count << "\n";
    const std::string braces = labels.empty() ? "" : "{" + labels + "}";
    o << name << "_sum" << braces << " " << sum << "\n";
    o << name << "_count" << braces << " " << count << "\n";
}

}  // namespace

void ServeMetrics::Histogram::add(double seconds) {
    for (std::size_t i = 0; i < kBuckets.size(); ++i) {
        if (seconds <= kBuckets[i]) {
            ++counts[i];
            break;
        }
    }
    ++count;
    sum += seconds;
}

void ServeMetrics::started() {
    std::lock_guard lock(m_);
    ++inFlight_;
}

void ServeMetrics::finished(double seconds) {
    std::lock_guard lock(m_);
    --inFlight_;
    request_.add(seconds);
}

void ServeMetrics::answered(const std::string& route, int status) {
    std::lock_guard lock(m_);
    ++answered_[{route, status}];
}

void ServeMetrics::cancelled() {
    std::lock_guard lock(m_);
    ++cancelled_;
}

void ServeMetrics::observe(const EngineAnswer& a) {
    std::lock_guard lock(m_);
    ++(a.videoCached ? cacheHits_ : cacheMisses_);
    stages_["queue"].add(a.waitSeconds);
    for (const auto& s : a.report.stages) {
        if (!s.cached) {
            stages_[s.name].add(s.seconds);
        }
    }
    promptTokens_ += a.report.promptTokens;
    completionTokens_ += std::int64_t(a.report.tokenIds.size());
    visualBefore_ += a.report.sourceTokens;
    visualAfter_ += a.report.contentTokens + a.report.layoutTokens;
}

void ServeMetrics::videoReceived(const VideoSource& v) {
    std::lock_guard lock(m_);
    if (v.isCached()) {
        ++videosByHash_;
    } else if (v.isData()) {
        ++videosByData_;
        uploadBytes_ += std::int64_t(v.bytes.size());
    } else {
        ++videosByFile_;
    }
}

std::int64_t ServeMetrics::inFlight() const {
    std::lock_guard lock(m_);
    return inFlight_;
}

std::string ServeMetrics::prometheusText() const {
    std::lock_guard lock(m_);
    std::ostringstream o;
    o << "# HELP once_http_requests_total HTTP requests answered, by route and status code.\n"
         "# TYPE once_http_requests_total counter\n";
    for (const auto& [key, n] : answered_) {
        o << "once_http_requests_total{route=\"" << key.first << "\",code=\"" << key.second
          << "\"} " << n << "\n";
    }
    o << "# HELP once_requests_in_flight Chat completions admitted and not yet finished.\n"
         "# TYPE once_requests_in_flight gauge\n"
         "once_requests_in_flight "
      << inFlight_
      << "\n# HELP once_requests_cancelled_total Chat completions whose client left first.\n"
         "# TYPE once_requests_cancelled_total counter\n"
         "once_requests_cancelled_total "
      << cancelled_ << "\n";
    o << "# HELP once_request_duration_seconds Chat completions, admission to last byte.\n"
         "# TYPE once_request_duration_seconds histogram\n";
    histogramText(o, "once_request_duration_seconds", "", request_.counts, request_.count,
                  request_.sum);
    o << "# HELP once_stage_duration_seconds Time per stage of answered requests (cached "
         "stages not observed).\n"
         "# TYPE once_stage_duration_seconds histogram\n";
    for (const auto& [stage, h] : stages_) {
        histogramText(o, "once_stage_duration_seconds", "stage=\"" + stage + "\"", h.counts,
                      h.count, h.sum);
    }
    const WorkCounters& w = workCounters();
    o << "# TYPE once_prompt_tokens_total counter\nonce_prompt_tokens_total " << promptTokens_
      << "\n# TYPE once_completion_tokens_total counter\nonce_completion_tokens_total "
      << completionTokens_
      << "\n# HELP once_visual_tokens_total Visual tokens before and after compression.\n"
         "# TYPE once_visual_tokens_total counter\n"
         "once_visual_tokens_total{when=\"before\"} "
      << visualBefore_ << "\nonce_visual_tokens_total{when=\"after\"} " << visualAfter_
      << "\n# HELP once_video_cache_total Answers whose video was (hit) or was not (miss) "
         "already encoded.\n# TYPE once_video_cache_total counter\n"
         "once_video_cache_total{result=\"hit\"} "
      << cacheHits_ << "\nonce_video_cache_total{result=\"miss\"} " << cacheMisses_
      << "\n# HELP once_video_decodes_total Videos decoded by this process.\n"
         "# TYPE once_video_decodes_total counter\nonce_video_decodes_total "
      << w.decodes.load()
      << "\n# HELP once_video_encodes_total Encoder runs of this process.\n"
         "# TYPE once_video_encodes_total counter\nonce_video_encodes_total "
      << w.encodes.load()
      << "\n# HELP once_video_requests_total Videos of parsed requests, by how they came: "
         "data (bytes in a data: URL), file (a file: URL), hash (once-video:sha256:, not "
         "uploaded).\n# TYPE once_video_requests_total counter\n"
         "once_video_requests_total{source=\"data\"} "
      << videosByData_ << "\nonce_video_requests_total{source=\"file\"} " << videosByFile_
      << "\nonce_video_requests_total{source=\"hash\"} " << videosByHash_
      << "\n# HELP once_video_upload_bytes_total Video bytes received in data: URLs (decoded).\n"
         "# TYPE once_video_upload_bytes_total counter\nonce_video_upload_bytes_total "
      << uploadBytes_ << "\n";
    return o.str();
}

}  // namespace once::serve
