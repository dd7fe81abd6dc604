#include "video/sampling_rule.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "util/error.h"

namespace once {
namespace {

[[noreturn]] void badRule(const std::string& text, const std::string& why) {
    fail("bad sampling rule: " + why, {}, "sampling",
         "uniform:N | fps:F | fps:F:MIN:MAX, optionally @START-END (seconds)", text);
}

/// Shortest text that reads back as `v` ("10", "0.5", not "1e+01").
std::string number(double v) {
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

double parseNumber(const std::string& text, const std::string& part, const char* what) {
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(part, &used);
    } catch (const std::exception&) {
        badRule(text, std::string(what) + " is not a number");
    }
    if (used != part.size() || !std::isfinite(v)) {
        badRule(text, std::string(what) + " is not a number");
    }
    return v;
}

int parseCount(const std::string& text, const std::string& part, const char* what) {
    double v = parseNumber(text, part, what);
    if (v != std::floor(v) || v < 1 || v > kMaxSampledFrames) {
        badRule(text, std::string(what) + " must be a whole number from 1 to " +
                          std::to_string(kMaxSampledFrames));
    }
    return int(v);
}

double parseSeconds(const std::string& text, const std::string& part, const char* what) {
    double v = parseNumber(text, part, what);
    if (v < 0 || v > kMaxWindowSeconds) {
        badRule(text,
                std::string(what) + " must be from 0 to " + number(kMaxWindowSeconds) + " seconds");
    }
    return v;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::size_t from = 0;
    while (true) {
        std::size_t at = s.find(sep, from);
        out.push_back(s.substr(from, at == std::string::npos ? std::string::npos : at - from));
        if (at == std::string::npos) {
            return out;
        }
        from = at + 1;
    }
}

}  // namespace

SamplingRule SamplingRule::parse(const std::string& text) {
    SamplingRule r;
    std::string body = text;
    if (auto at = text.find('@'); at != std::string::npos) {
        body = text.substr(0, at);
        std::string window = text.substr(at + 1);
        auto dash = window.find('-');
        if (dash == std::string::npos) {
            badRule(text, "the window needs START-END");
        }
        r.start = parseSeconds(text, window.substr(0, dash), "window start");
        std::string endText = window.substr(dash + 1);
        r.end = endText.empty() ? -1 : parseSeconds(text, endText, "window end");
        if (r.start < 0 || (r.end >= 0 && r.end < r.start)) {
            badRule(text, "the window must have 0 <= START <= END");
        }
    }
    auto parts = split(body, ':');
    if (parts[0] == "uniform" && parts.size() == 2) {
        r.kind = Kind::Uniform;
        r.count = parseCount(text, parts[1], "frame count");
    } else if (parts[0] == "fps" && (parts.size() == 2 || parts.size() == 4)) {
        r.kind = Kind::Fps;
        r.fps = parseNumber(text, parts[1], "fps");
        if (r.fps <= 0 || r.fps > 1e6) {
            badRule(text, "fps must be positive and at most 1000000");
        }
        if (parts.size() == 4) {
            r.minFrames = parseCount(text, parts[2], "minimum frame count");
            r.maxFrames = parseCount(text, parts[3], "maximum frame count");
            if (r.maxFrames < r.minFrames) {
                badRule(text, "MAX must be at least MIN");
            }
        }
    } else {
        badRule(text, "unknown form");
    }
    return r;
}

std::string SamplingRule::toString() const {
    std::string s = kind == Kind::Uniform ? "uniform:" + std::to_string(count)
                                          : "fps:" + number(fps) + ":" + std::to_string(minFrames) +
                                                ":" + std::to_string(maxFrames);
    if (start > 0 || end >= 0) {
        s += "@" + number(start) + "-" + (end >= 0 ? number(end) : std::string());
    }
    return s;
}

std::vector<std::int64_t> sampleIndices(const SamplingRule& rule, std::int64_t totalFrames,
                                        double fps) {
    if (totalFrames < 1) {
        fail("the video has no frames", {}, "frame count", ">= 1", std::to_string(totalFrames));
    }
    if (totalFrames > kMaxVideoFrames) {
        fail("the video has too many frames", {}, "frame count",
             "at most " + std::to_string(kMaxVideoFrames), std::to_string(totalFrames));
    }
    const bool windowed = rule.start > 0 || rule.end >= 0;
    if ((windowed || rule.kind == SamplingRule::Kind::Fps) && !(fps > 0 && std::isfinite(fps))) {
        fail("the sampling rule needs the video frame rate, which is unknown", {}, "fps",
             "a positive finite number", std::to_string(fps));
    }
    // A rule built in code (not parsed) gets the same checks as a parsed one.
    if (rule.count < 1 || rule.count > kMaxSampledFrames || rule.minFrames < 1 ||
        rule.maxFrames > kMaxSampledFrames || rule.maxFrames < rule.minFrames ||
        !(rule.fps > 0 && std::isfinite(rule.fps)) || !(rule.start >= 0) ||
        rule.start > kMaxWindowSeconds || !(rule.end >= -1) || rule.end > kMaxWindowSeconds) {
        fail("bad sampling rule", {}, "sampling", "a rule SamplingRule::parse accepts",
             rule.toString());
    }
    // Window in frame numbers: nominal time of frame i is i / fps. Computed in double and
    // compared before converting, so no bound overflows an integer.
    std::int64_t first = 0, last = totalFrames - 1;
    if (windowed) {
        const double firstD = std::ceil(rule.start * fps - 1e-9);
        if (!(firstD <= double(last))) {
            return {};
        }
        first = std::max<std::int64_t>(0, std::int64_t(firstD));
        if (rule.end >= 0) {
            const double lastD = std::floor(rule.end * fps + 1e-9);
            if (lastD < double(first)) {
                return {};
            }
            last = std::min(last, std::int64_t(std::min(lastD, double(last))));
        }
        if (first > last) {
            return {};
        }
    }
    const std::int64_t span = last - first + 1;
    std::vector<std::int64_t> out;
    if (rule.kind == SamplingRule::Kind::Uniform) {
        // numpy.linspace(first, last, N, dtype=int): y_i = i * step + first, y_last = last,
        // then truncation toward zero.
        const std::int64_t n = rule.count;
        if (n > span && n > kMaxRepeatedSampledFrames) {
            fail("the sampling rule asks for more frames than the video (or window) holds", {},
                 "sampling",
                 "at most " + std::to_string(span) + " frames (or " +
                     std::to_string(kMaxRepeatedSampledFrames) + " with repeated frames)",
                 rule.toString() + " (" + std::to_string(n) + " frames)");
        }
        const double step = n > 1 ? double(last - first) / double(n - 1) : 0;
        for (std::int64_t i = 0; i < n; ++i) {
            double y = (n > 1 && i == n - 1) ? double(last) : double(i) * step + double(first);
            out.push_back(std::clamp<std::int64_t>(std::int64_t(y), first, last));
        }
        return out;
    }
    // qwen_vl_utils.smart_nframes without the factor-2 rounding.
    double n = double(span) / fps * rule.fps;
    n = std::max(n, double(rule.minFrames));
    n = std::min(n, double(std::min<std::int64_t>(rule.maxFrames, span)));
    const std::int64_t count = std::max<std::int64_t>(1, std::int64_t(std::floor(n)));
    // torch.linspace(first, last, count) in float32: the first half counts up from the start,
    // the second half down from the end; then round half to even.
    const float start = float(first), stop = float(last);
    const float step = count > 1 ? (stop - start) / float(count - 1) : 0.f;
    const std::int64_t halfway = count / 2;
    for (std::int64_t i = 0; i < count; ++i) {
        float y = i < halfway ? start + step * float(i) : stop - step * float(count - i - 1);
        // float32 rounding can step past the window's ends on long videos; stay inside.
        out.push_back(std::clamp<std::int64_t>(std::int64_t(std::nearbyint(y)), first, last));
    }
    return out;
}

}  // namespace once
