#pragma once
// The steps of a load, run on the session's worker thread: build or reuse an encoder, decode and
// encode a video, read a feature file (with its frames when the source video is at hand), sample
// a stand-in codebook, check a codebook against a video. Plain functions: no Qt objects, no
// shared state. (Compressors, ONCE's assignment among them, are prepared by the compression
// controller.)
#include <QString>
#include <memory>

#include "session/pipeline_settings.h"
#include "session/video_data.h"
#include "util/progress.h"

namespace once {
class Codebook;
class VisualEncoder;
}  // namespace once

namespace once::studio {

/// The encoder for `settings` (and `modelDir`), or `cached` when it was built for the same ones.
std::shared_ptr<once::VisualEncoder> encoderFor(std::shared_ptr<once::VisualEncoder> cached,
                                                bool cacheMatches, const PipelineSettings& settings,
                                                const QString& modelDir);

/// Samples frames by the settings' rule, encodes them, attaches the frames for drawing.
VideoData decodeAndEncode(const QString& path, const PipelineSettings& settings,
                          once::VisualEncoder& encoder, once::Progress& progress);

/// A feature file as a video: grid from its metadata (or guessed), frames from its source
/// video when that file exists beside it and yields as many frames.
VideoData loadFeatureVideo(const QString& path, const PipelineSettings& settings,
                           once::Progress& progress);

/// `k` rows sampled (seed 42, without replacement) from the video's features: the demo's
/// stand-in codebook when the trained demo codebook is not installed.
std::shared_ptr<const once::Codebook> codebookFromFeatures(const VideoData& video, std::int64_t k);

/// Why `codebook` does not fit `video` (its dimension or backbone; the video is then opened and
/// the codebook unloaded); empty when it fits or there is none.
QString codebookMismatch(const VideoData& video, const once::Codebook* codebook);

}  // namespace once::studio
