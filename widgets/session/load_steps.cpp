#include "session/load_steps.h"

#include <ATen/ATen.h>

#include <QDir>
#include <QFileInfo>
#include <cstdio>
#include <random>

#include "codebook/codebook.h"
#include "features/feature_file.h"
#include "models/visual_encoder.h"
#include "util/error.h"
#include "video/video_reader.h"

namespace once::studio {
namespace {

once::EncoderOptions encoderOptions(const PipelineSettings& s, const QString& modelDir) {
    once::EncoderOptions o;
    o.modelDir = modelDir.toStdString();
    o.device = s.device.toStdString();  // "auto" resolves in core (util/device.h)
    o.dtype = s.dtype.toStdString();
    o.poolStride = s.poolStride;
    o.threads = s.threads;
    return o;
}

once::AssignOptions assignOptions(const PipelineSettings& s) {
    once::AssignOptions o;
    o.device = s.device.toStdString();
    return o;
}

}  // namespace

std::shared_ptr<once::VisualEncoder> encoderFor(std::shared_ptr<once::VisualEncoder> cached,
                                                bool cacheMatches, const PipelineSettings& s,
                                                const QString& modelDir) {
    if (cached && cacheMatches) {
        return cached;
    }
    return once::makeVisualEncoder(s.backbone.toStdString(), encoderOptions(s, modelDir));
}

VideoData decodeAndEncode(const QString& path, const PipelineSettings& s,
                          once::VisualEncoder& encoder, once::Progress& progress) {
    const auto rule = once::SamplingRule::parse(s.sampling.toStdString());
    const once::SampledFrames frames = once::readFrames(path.toStdString(), rule, &progress);
    progress.throwIfCancelled();
    const once::EncodedVideo encoded = encoder.encode(frames.rgb, &progress);
    VideoData v;
    v.source = path;
    v.features = encoded.features;
    v.attention = encoded.attention;
    v.frameTimes = frames.times;
    v.gridH = encoded.gridH;
    v.gridW = encoded.gridW;
    if (v.gridH * v.gridW != v.patchesPerFrame()) {
        guessGrid(v.patchesPerFrame(), v.gridH, v.gridW);
    }
    v.backbone = encoder.backbone();
    v.featureSource = encoder.featureSource();
    v.layoutTokens =
        encoded.layoutTokens.defined() ? static_cast<int>(encoded.layoutTokens.size(0)) : 0;
    attachFrames(v, frames.rgb);
    return v;
}

std::shared_ptr<const once::Codebook> codebookFromFeatures(const VideoData& v, std::int64_t k) {
    const at::Tensor flat = v.features.reshape({-1, v.dim()}).to(at::kFloat);
    const std::int64_t n = flat.size(0);
    k = std::min(k, n);
    std::vector<std::int64_t> order(n);
    for (std::int64_t i = 0; i < n; ++i) {
        order[i] = i;
    }
    std::mt19937_64 rng(42);
    for (std::int64_t i = 0; i < k; ++i) {  // partial Fisher–Yates: portable and seeded
        std::uniform_int_distribution<std::int64_t> pick(i, n - 1);
        std::swap(order[i], order[pick(rng)]);
    }
    const at::Tensor rows =
        at::from_blob(order.data(), {k}, at::TensorOptions().dtype(at::kLong)).clone();
    return std::make_shared<once::Codebook>(
        once::Codebook::fromTensor(flat.index_select(0, rows).contiguous(), v.backbone,
                                   v.featureSource, "sampled from the demo video"));
}

AssignOutcome assignAndCompress(const VideoData& v, const once::Codebook& codebook,
                                const PipelineSettings& s, once::CompressOptions options,
                                once::Progress& progress) {
    AssignOutcome out;
    auto assignment = std::make_shared<once::Assignment>(
        once::assignTokens(v.features, codebook, assignOptions(s), &progress));
    progress.throwIfCancelled();
    options.budget = std::clamp<std::int64_t>(options.budget, 1, codebook.size());
    out.result = std::make_shared<once::CompressionResult>(
        once::compressAssigned(v.features, *assignment, codebook, options));
    out.assignment = std::move(assignment);
    return out;
}

VideoData loadFeatureVideo(const QString& path, const PipelineSettings& s,
                           once::Progress& progress) {
    const once::FeatureFile file = once::FeatureFile::load(path.toStdString());
    VideoData v;
    v.source = path;
    v.fromFeatureFile = true;
    v.features = file.features;
    v.attention = file.attention;
    v.backbone = file.backbone;
    v.featureSource = file.featureSource;
    const at::Tensor times = file.frameTimes.to(at::kDouble).contiguous();
    v.frameTimes.assign(times.data_ptr<double>(), times.data_ptr<double>() + times.numel());
    int h = 0, w = 0;
    if (std::sscanf(file.grid.c_str(), "%dx%d", &h, &w) == 2 && h * w == v.patchesPerFrame()) {
        v.gridH = h;
        v.gridW = w;
    } else {
        guessGrid(v.patchesPerFrame(), v.gridH, v.gridW);
    }
    // The frames, when the source video is still where the file says: the overlay
    // then draws on the picture instead of a neutral background.
    const QString sourceVideo = QFileInfo(path).dir().filePath(QString::fromStdString(file.source));
    if (!file.source.empty() && QFileInfo(sourceVideo).isFile()) {
        try {
            const auto rule = once::SamplingRule::parse(
                file.sampling.empty() ? s.sampling.toStdString() : file.sampling);
            const auto frames = once::readFrames(sourceVideo.toStdString(), rule, &progress);
            if (frames.rgb.size(0) == v.numFrames()) {
                attachFrames(v, frames.rgb);
            }
        } catch (const once::OnceError&) {
            // Features alone are enough: draw on a neutral background.
        }
    }
    return v;
}

AssignOutcome assignIfCompatible(const VideoData& v, const once::Codebook* codebook,
                                 const PipelineSettings& s, const once::CompressOptions& options,
                                 once::Progress& progress) {
    if (!codebook) {
        return {};
    }
    try {
        codebook->checkCompatible(v.dim(), v.backbone, v.source.toStdString());
    } catch (const once::OnceError& e) {
        AssignOutcome out;
        out.unloaded = QString::fromStdString(e.what());
        return out;
    }
    return assignAndCompress(v, *codebook, s, options, progress);
}

}  // namespace once::studio
