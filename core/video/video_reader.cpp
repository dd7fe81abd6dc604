// Video files go to the FFmpeg back end (when built with it); folders are read as numbered
// frames. Sampling happens here so both sources share one rule.
#include "video/video_reader.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "io/file_kind.h"
#include "util/error.h"
#include "util/work_counters.h"

#ifdef ONCE_HAVE_FFMPEG
#include "video/ffmpeg_decoder.h"
#endif

namespace fs = std::filesystem;

namespace once {
namespace {

#ifndef ONCE_HAVE_FFMPEG
[[noreturn]] void noFfmpeg(const std::string& path) {
    fail("this build has no video decoding (configured with ONCE_WITH_FFMPEG=OFF)", path, "decoder",
         "a build with FFmpeg", "none");
}
#endif

bool isFrameImage(const fs::path& p) {
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    const auto& known = frameImageExtensions();  // io/file_kind.h: one list for every reader
    return std::find(known.begin(), known.end(), ext) != known.end();
}

/// Natural order: "img_2.jpg" before "img_10.jpg" (runs of digits compare by value).
bool naturalLess(const std::string& a, const std::string& b) {
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (std::isdigit((unsigned char)a[i]) && std::isdigit((unsigned char)b[j])) {
            std::size_t i2 = i, j2 = j;
            while (i2 < a.size() && std::isdigit((unsigned char)a[i2]))
                ++i2;
            while (j2 < b.size() && std::isdigit((unsigned char)b[j2]))
                ++j2;
            std::string na = a.substr(i, i2 - i), nb = b.substr(j, j2 - j);
            na.erase(0, std::min(na.find_first_not_of('0'), na.size()));
            nb.erase(0, std::min(nb.find_first_not_of('0'), nb.size()));
            if (na.size() != nb.size())
                return na.size() < nb.size();
            if (na != nb)
                return na < nb;
            i = i2;
            j = j2;
        } else {
            if (a[i] != b[j])
                return a[i] < b[j];
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

std::vector<fs::path> listFrames(const std::string& folder) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(folder, ec)) {
        if (e.is_regular_file() && isFrameImage(e.path())) {
            files.push_back(e.path());
            if (std::int64_t(files.size()) > kMaxVideoFrames) {
                fail("the frame folder holds too many frames", folder, "frames",
                     "at most " + std::to_string(kMaxVideoFrames), "more");
            }
        }
    }
    if (ec) {
        fail("cannot list the frame folder (" + ec.message() + ")", folder, "path",
             "a readable folder", ec.message());
    }
    std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) {
        return naturalLess(a.filename().string(), b.filename().string());
    });
    if (files.empty()) {
        fail("the frame folder holds no frames", folder, "frames", "numbered .jpg/.jpeg/.png files",
             "none");
    }
    return files;
}

VideoInfo folderInfo(const std::string& folder, const std::vector<fs::path>& files,
                     const at::Tensor& firstFrame) {
    VideoInfo info;
    info.path = folder;
    info.container = "frames";
    std::string ext = files.front().extension().string();
    info.codec = (ext == ".png" || ext == ".PNG") ? "png" : "jpeg";
    info.height = int(firstFrame.size(0));
    info.width = int(firstFrame.size(1));
    info.frameCount = std::int64_t(files.size());
    info.fps = kFrameFolderFps;
    info.duration = double(info.frameCount) / info.fps;
    return info;
}

at::Tensor decodeImage(const std::string& path, const VideoLimits& limits) {
#ifdef ONCE_HAVE_FFMPEG
    return ffmpeg::decodeImage(path, limits);
#else
    (void)limits;
    noFfmpeg(path);
#endif
}

/// sampleIndices with its errors naming the video, and a window past the end as an error.
std::vector<std::int64_t> sampleFor(const std::string& path, const SamplingRule& rule,
                                    const VideoInfo& info) {
    std::vector<std::int64_t> indices;
    try {
        indices = sampleIndices(rule, info.frameCount, info.fps);
    } catch (const OnceError& e) {
        if (!e.where().file.empty()) {
            throw;
        }
        fail(e.brief(), path, e.where().field, e.where().expected, e.where().found);
    }
    if (indices.empty()) {
        fail("the sampling window holds no frame: it starts after the end of the video", path,
             "sampling",
             "a window inside the video (" + std::to_string(info.frameCount) + " frames, " +
                 std::to_string(info.duration) + " s)",
             rule.toString());
    }
    return indices;
}

/// Refuses `frames` frames of w x h RGB24 above limits.maxDecodedBytes before allocating them.
void checkSampledBytes(std::int64_t frames, std::int64_t w, std::int64_t h,
                       const VideoLimits& limits, const std::string& path) {
    const std::int64_t frameBytes = w * h * 3;
    if (frameBytes > 0 && frames > limits.maxDecodedBytes / frameBytes) {
        fail("the sampled frames would not fit the decoding limit", path, "sampling",
             "at most " + std::to_string(limits.maxDecodedBytes) +
                 " bytes of frames (VideoLimits::maxDecodedBytes)",
             std::to_string(frames) + " frames of " + std::to_string(w) + "x" + std::to_string(h));
    }
}

SampledFrames readFolder(const std::string& folder, const SamplingRule& rule, Progress* progress,
                         const VideoLimits& limits) {
    auto files = listFrames(folder);
    SampledFrames out;
    at::Tensor first = decodeImage(files.front().string(), limits);
    out.info = folderInfo(folder, files, first);
    out.indices = sampleFor(folder, rule, out.info);
    checkSampledBytes(std::int64_t(out.indices.size()), first.size(1), first.size(0), limits,
                      folder);
    out.rgb =
        at::empty({std::int64_t(out.indices.size()), first.size(0), first.size(1), 3}, at::kByte);
    if (progress) {
        progress->begin("reading frames", double(out.indices.size()));
    }
    for (std::size_t i = 0; i < out.indices.size(); ++i) {
        const std::string file = files[std::size_t(out.indices[i])].string();
        at::Tensor img = i > 0 && out.indices[i] == out.indices[i - 1]
                             ? out.rgb[std::int64_t(i - 1)]
                             : decodeImage(file, limits);
        if (img.sizes() != first.sizes()) {
            fail("the frames of a folder must all have one size", file, "size",
                 std::to_string(first.size(1)) + "x" + std::to_string(first.size(0)),
                 std::to_string(img.size(1)) + "x" + std::to_string(img.size(0)));
        }
        out.rgb[std::int64_t(i)].copy_(img);
        out.times.push_back(double(out.indices[i]) / out.info.fps);
        if (progress) {
            progress->update(double(i + 1));
        }
    }
    return out;
}

}  // namespace

bool isFrameFolder(const std::string& path) {
    std::error_code ec;
    return fs::is_directory(path, ec);
}

VideoInfo probeVideo(const std::string& path, const VideoLimits& limits) {
    if (isFrameFolder(path)) {
        auto files = listFrames(path);
        return folderInfo(path, files, decodeImage(files.front().string(), limits));
    }
#ifdef ONCE_HAVE_FFMPEG
    return ffmpeg::probe(path, nullptr, limits);
#else
    (void)limits;
    noFfmpeg(path);
#endif
}

SampledFrames readFrames(const std::string& path, const SamplingRule& rule, Progress* progress,
                         const VideoLimits& limits) {
    countWork(workCounters().decodes);
    if (isFrameFolder(path)) {
        return readFolder(path, rule, progress, limits);
    }
#ifdef ONCE_HAVE_FFMPEG
    SampledFrames out;
    out.info = ffmpeg::probe(path, progress, limits);
    // Two tries: packets usually equal decoded frames; when they do not, the decoded count is
    // the truth and the indices are drawn again from it.
    for (int attempt = 0; attempt < 2; ++attempt) {
        out.indices = sampleFor(path, rule, out.info);
        checkSampledBytes(std::int64_t(out.indices.size()), out.info.width, out.info.height, limits,
                          path);
        auto decoded = ffmpeg::decodeFrames(path, out.info, out.indices, progress, limits);
        if (decoded.decodedFrames == 0) {
            fail("no frame of the video could be decoded", path, "frames", ">= 1 decodable",
                 "0 of " + std::to_string(out.info.frameCount) + " packets");
        }
        if (decoded.width > 0) {
            out.info.width = decoded.width;
            out.info.height = decoded.height;
        }
        if (decoded.decodedFrames == out.info.frameCount) {
            out.rgb = decoded.rgb;
            out.times = std::move(decoded.times);
            return out;
        }
        out.info.frameCount = decoded.decodedFrames;
        out.info.duration = out.info.fps > 0 ? double(out.info.frameCount) / out.info.fps : 0;
    }
    fail("the decoder returned a different number of frames on each pass", path, "frames",
         "a stable frame count", std::to_string(out.info.frameCount));
#else
    (void)rule;
    (void)progress;
    (void)limits;
    noFfmpeg(path);
#endif
}

}  // namespace once
