#include "session/load_steps.h"

#include <ATen/ATen.h>

#include <QDir>
#include <QFileInfo>
#include <random>

#include "codebook/codebook.h"
#include "encode/decode_encode.h"
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
    once::DecodeEncodeOptions options;
    options.sampling = once::SamplingRule::parse(s.sampling.toStdString());
    options.keepFrames = true;
    once::DecodedVideo decoded =
        once::decodeAndEncode(path.toStdString(), encoder, options, &progress);
    progress.throwIfCancelled();
    VideoData v;
    static_cast<once::EncodedVideo&>(v) = std::move(decoded.video);
    v.path = path;
    if (std::int64_t(v.gridH) * v.gridW != v.patchesPerFrame()) {
        v.gridH = v.gridW = 0;
    }
    v.fillUnknownGrid();
    attachFrames(v, decoded.frames);
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

VideoData loadFeatureVideo(const QString& path, const PipelineSettings& s,
                           once::Progress& progress) {
    VideoData v;
    static_cast<once::EncodedVideo&>(v) = once::loadFeatureFile(path.toStdString());
    v.path = path;
    v.fromFeatureFile = true;
    v.fillUnknownGrid();
    const once::EncodedVideo& file = v;
    // The frames, when the source video is still where the file says: the overlay
    // then draws on the picture instead of a neutral background.
    const QString sourceVideo = QFileInfo(path).dir().filePath(QString::fromStdString(file.source));
    if (!file.source.empty() && QFileInfo(sourceVideo).isFile()) {
        try {
            const auto rule = once::SamplingRule::parse(
                file.sampling.empty() ? s.sampling.toStdString() : file.sampling);
            const auto frames = once::readFrames(sourceVideo.toStdString(), rule, &progress);
            // One frame per feature frame, or Qwen3.5's temporal pairs (attachFrames folds them).
            attachFrames(v, frames.rgb);
            if (v.frames.size() != v.numFrames()) {
                v.frames.clear();
                v.patchColours.clear();
            }
        } catch (const once::OnceError&) {
            // Features alone are enough: draw on a neutral background.
        }
    }
    return v;
}

QString codebookMismatch(const VideoData& v, const once::Codebook* codebook) {
    if (!codebook) {
        return {};
    }
    try {
        codebook->checkCompatible(v.dim(), v.backbone, v.path.toStdString());
    } catch (const once::OnceError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace once::studio
