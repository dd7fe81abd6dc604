#include "train/exemplar_pixels.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "codebook/codebook_exemplars.h"
#include "io/safetensors.h"
#include "util/error.h"
#include "video/frames_at.h"

namespace fs = std::filesystem;

namespace once {

std::string exemplarPixelSource(const std::string& corpusEntry) {
    if (fs::path(corpusEntry).extension() != ".safetensors") {
        return corpusEntry;
    }
    try {
        const std::string source = SafetensorsFile::open(corpusEntry).meta("source");
        if (!isContainedRelativePath(source) || source.find('/') != std::string::npos) {
            return {};
        }
        const fs::path video = fs::path(corpusEntry).parent_path() / source;
        std::error_code ec;
        return fs::exists(video, ec) ? video.string() : std::string();
    } catch (const OnceError&) {
        return {};
    }
}

std::pair<int, int> exemplarContextWindow(int index, int cells, int context) {
    const int count = std::max(1, std::min(cells, 2 * std::max(context, 0) + 1));
    const int first = std::clamp(index - std::max(context, 0), 0, std::max(0, cells - count));
    return {first, count};
}

at::Tensor cutExemplarPatches(const std::string& video, const std::vector<ExemplarLocation>& where,
                              int side, std::vector<bool>& found, const VideoLimits& limits,
                              int context) {
    if (side < 1 || side > kMaxExemplarThumbnailSide) {
        fail("invalid exemplar thumbnail size", video, "thumbnail size",
             "1.." + std::to_string(kMaxExemplarThumbnailSide), std::to_string(side));
    }
    if (context < 0 || context > kMaxExemplarThumbnailContext) {
        fail("invalid exemplar context", video, "context",
             "0.." + std::to_string(kMaxExemplarThumbnailContext), std::to_string(context));
    }
    const std::int64_t n = std::int64_t(where.size());
    at::Tensor out = at::zeros({n, side, side, 3}, at::kByte);
    found.assign(where.size(), false);
    if (n == 0) {
        return out;
    }
    // Refuses what is not a regular file or a folder before a decoder opens it (a FIFO named by
    // a codebook would block forever).
    std::error_code ec;
    const auto st = fs::status(video, ec);
    if (!fs::is_regular_file(st) && !fs::is_directory(st)) {
        fail("the exemplar's video is not a file", video, "video", "a video file or frame folder",
             fs::exists(st) ? "another kind of file" : "missing");
    }
    const VideoInfo info = probeVideo(video, limits);
    std::map<std::int64_t, std::vector<std::size_t>> byFrame;
    for (std::size_t i = 0; i < where.size(); ++i) {
        const ExemplarLocation& w = where[i];
        std::int64_t f = w.sourceFrame;
        if (f < 0 && w.timeMs >= 0 && info.fps > 0) {
            f = std::llround(double(w.timeMs) / 1000.0 * info.fps);
        }
        if (f >= 0 && f < info.frameCount && w.gridRows >= 1 && w.gridCols >= 1 && w.row >= 0 &&
            w.row < w.gridRows && w.col >= 0 && w.col < w.gridCols) {
            byFrame[f].push_back(i);
        }
    }
    const std::int64_t frameBytes =
        std::max<std::int64_t>(1, std::int64_t(info.width) * std::int64_t(info.height) * 3);
    const std::size_t perPass =
        std::size_t(std::max<std::int64_t>(1, kExemplarDecodeBatchBytes / frameBytes));
    std::vector<std::int64_t> frames;
    for (const auto& [f, _] : byFrame) {
        frames.push_back(f);
    }
    for (std::size_t b = 0; b < frames.size(); b += perPass) {
        const std::vector<std::int64_t> pass(
            frames.begin() + std::ptrdiff_t(b),
            frames.begin() + std::ptrdiff_t(std::min(frames.size(), b + perPass)));
        const SampledFrames decoded = readFramesAt(video, pass, nullptr, limits);
        for (std::size_t j = 0; j < pass.size(); ++j) {
            const at::Tensor frame = decoded.rgb[std::int64_t(j)];  // [H, W, 3]
            const std::int64_t h = frame.size(0), w = frame.size(1);
            for (std::size_t i : byFrame[pass[j]]) {
                const ExemplarLocation& loc = where[i];
                const auto [r0, rn] = exemplarContextWindow(loc.row, loc.gridRows, context);
                const auto [c0, cn] = exemplarContextWindow(loc.col, loc.gridCols, context);
                const std::int64_t y0 = std::int64_t(r0) * h / loc.gridRows;
                const std::int64_t x0 = std::int64_t(c0) * w / loc.gridCols;
                const std::int64_t y1 = std::max(y0 + 1, std::int64_t(r0 + rn) * h / loc.gridRows);
                const std::int64_t x1 = std::max(x0 + 1, std::int64_t(c0 + cn) * w / loc.gridCols);
                if (y1 > h || x1 > w) {
                    continue;  // a frame smaller than its grid
                }
                const at::Tensor cell = frame.slice(0, y0, y1).slice(1, x0, x1);
                const at::Tensor scaled =
                    at::upsample_bilinear2d(cell.permute({2, 0, 1}).unsqueeze(0).to(at::kFloat),
                                            {side, side}, false)
                        .squeeze(0)
                        .permute({1, 2, 0})
                        .round()
                        .clamp(0, 255)
                        .to(at::kByte);
                out[std::int64_t(i)].copy_(scaled);
                found[i] = true;
            }
        }
    }
    return out;
}

}  // namespace once
