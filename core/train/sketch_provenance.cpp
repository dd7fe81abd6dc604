#include "train/sketch_provenance.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

#include "features/encoded_video.h"
#include "util/error.h"
#include "video/sampling_rule.h"

namespace once {

namespace {

// The decoder's `frame_indices` (encode/decode_encode.cpp): exactly `frames` decimal numbers in
// 0..kMaxVideoFrames-1, or nothing (a feature file may hold anything there).
//
// The decoded video frame of each feature frame, from "frame_indices" (one per decoded frame):
// with k frames per feature frame, the first of each group (the last group may be short: the
// processor pads it by repeating its last frame). Empty when the list is missing or does not
// match `frames`.
std::vector<std::int64_t> sourceFrames(const EncodedVideo& video, std::int64_t frames) {
    const auto it = video.extra.find("frame_indices");
    if (it == video.extra.end()) {
        return {};
    }
    // Frames a feature frame stands for (Qwen3.5 merges pairs: 2), checked where it was read.
    const std::int64_t k = std::clamp(video.temporalPatchSize, 1, kMaxTemporalPatchSize);
    std::vector<std::int64_t> all;
    const std::string& s = it->second;
    std::size_t pos = 0;
    while (pos <= s.size() && std::int64_t(all.size()) <= frames * k) {
        const std::size_t end = std::min(s.find(',', pos), s.size());
        std::int64_t v = -1;
        const auto [p, ec] = std::from_chars(s.data() + pos, s.data() + end, v);
        if (ec != std::errc() || p != s.data() + end || v < 0 || v >= kMaxVideoFrames) {
            return {};
        }
        all.push_back(v);
        pos = end + 1;
    }
    const std::int64_t n = std::int64_t(all.size());
    if (n == frames) {
        return all;
    }
    if (k > 1 && (n + k - 1) / k == frames) {
        std::vector<std::int64_t> out;
        for (std::int64_t i = 0; i < n; i += k) {
            out.push_back(all[std::size_t(i)]);
        }
        return out;
    }
    return {};
}

std::int64_t timeMs(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0 || seconds * 1000.0 > double(kMaxExemplarTimeMs)) {
        return -1;
    }
    return std::int64_t(std::llround(seconds * 1000.0));
}

}  // namespace

at::Tensor exemplarRows(const at::Tensor& medoids, const EncodedVideo& video) {
    const at::Tensor& f = video.features;
    const std::int64_t frames = f.dim() == 3 ? f.size(0) : (f.dim() == 2 ? f.size(0) : 0);
    const std::int64_t perFrame = f.dim() == 3 ? f.size(1) : 1;
    std::int64_t gh = video.gridH, gw = video.gridW;
    if (gh < 1 || gw < 1 || gh * gw != perFrame) {
        const auto [h, w] = mostSquareGrid(perFrame);
        gh = h;
        gw = w;
    }
    const std::vector<std::int64_t> source = sourceFrames(video, frames);
    const bool haveTimes = std::int64_t(video.frameTimes.size()) == frames;
    const at::Tensor m = medoids.to(at::kLong).contiguous();
    const std::int64_t n = m.size(0);
    at::Tensor out = at::empty({n, kExemplarColumns}, at::kInt);
    const std::int64_t* id = m.data_ptr<std::int64_t>();
    std::int32_t* o = out.data_ptr<std::int32_t>();
    for (std::int64_t j = 0; j < n; ++j, o += kExemplarColumns) {
        const std::int64_t token = id[j];
        if (token < 0 || perFrame < 1 || token >= frames * perFrame) {
            fail("a representative's exemplar token is outside its video", {}, "medoids",
                 "0.." + std::to_string(frames * perFrame - 1), std::to_string(token));
        }
        const std::int64_t frame = token / perFrame, patch = token % perFrame;
        o[kExemplarFrame] = std::int32_t(frame);
        o[kExemplarSourceFrame] = source.empty() ? -1 : std::int32_t(source[std::size_t(frame)]);
        o[kExemplarTimeMs] =
            haveTimes ? std::int32_t(timeMs(video.frameTimes[std::size_t(frame)])) : -1;
        o[kExemplarRow] = std::int32_t(patch / gw);
        o[kExemplarCol] = std::int32_t(patch % gw);
        o[kExemplarGridRows] = std::int32_t(gh);
        o[kExemplarGridCols] = std::int32_t(gw);
    }
    return out;
}

void checkExemplarRows(const at::Tensor& rows, const at::Tensor& tokensOfRow,
                       const std::string& file, const std::string& name) {
    const at::Tensor r = rows.to(at::kLong);
    auto column = [&](int c) { return r.select(1, c); };
    auto check = [&](const at::Tensor& bad, int c, const std::string& expected) {
        if (bad.any().item<bool>()) {
            const std::int64_t i = bad.nonzero().index({0, 0}).item<std::int64_t>();
            static const char* names[] = {"frame",  "source frame", "time (ms)",   "row",
                                          "column", "grid rows",    "grid columns"};
            fail("a representative's exemplar is out of range", file,
                 name + "[" + std::to_string(i) + "]." + names[c], expected,
                 std::to_string(r[i][c].item<std::int64_t>()));
        }
    };
    const std::string grid = "1.." + std::to_string(kMaxExemplarGrid);
    check(
        column(kExemplarGridRows).lt(1).logical_or(column(kExemplarGridRows).gt(kMaxExemplarGrid)),
        kExemplarGridRows, grid);
    check(
        column(kExemplarGridCols).lt(1).logical_or(column(kExemplarGridCols).gt(kMaxExemplarGrid)),
        kExemplarGridCols, grid);
    check(column(kExemplarRow).lt(0).logical_or(column(kExemplarRow).ge(column(kExemplarGridRows))),
          kExemplarRow, "a row of the grid");
    check(column(kExemplarCol).lt(0).logical_or(column(kExemplarCol).ge(column(kExemplarGridCols))),
          kExemplarCol, "a column of the grid");
    check(column(kExemplarSourceFrame).lt(-1), kExemplarSourceFrame, ">= -1");
    check(column(kExemplarTimeMs).lt(-1), kExemplarTimeMs, ">= -1");
    // (frame + 1) · rows · cols ≤ the video's tokens; every factor is below 2^31, so the
    // product of the last two (< 2^24) and the frame fits int64.
    const at::Tensor cells = column(kExemplarGridRows) * column(kExemplarGridCols);
    check(column(kExemplarFrame)
              .lt(0)
              .logical_or((column(kExemplarFrame) + 1) * cells > tokensOfRow.to(at::kLong)),
          kExemplarFrame, "a frame of the video (its token count / patches per frame)");
}

}  // namespace once
