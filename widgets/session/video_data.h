#pragma once
// Everything the studio knows about the video on screen: the encoded video of core (its features,
// layout tokens, attention, frame times, grid, backbone) wrapped with its pictures — the sampled
// frames when it came from a video, not from a bare feature file.
#include <QImage>
#include <QString>
#include <QVector>
#include <vector>

#include "features/encoded_video.h"

namespace once::studio {

struct VideoData : once::EncodedVideo {
    QString path;  ///< the file the user opened
    bool fromFeatureFile = false;
    /// Sampled frames, one per feature frame (Qwen3.5: the first frame of each temporal pair);
    /// empty for a feature file without its video.
    QVector<QImage> frames;
    /// [T·P] mean colour of each patch's image region (empty without frames).
    std::vector<QRgb> patchColours;

    bool isEmpty() const { return empty(); }
};

/// Converts uint8 RGB frames [T, H, W, 3] into images (scaled so the longer side is at most
/// `maxSide`) and computes the mean colour of each of the gridH×gridW patches of every frame,
/// assuming the encoder resized the whole frame to its input (LLaVA: square, aspect not kept;
/// Qwen3.5: a multiple of 32 close to the aspect). When the video's feature frames are temporal
/// pairs (temporalPatchSize = k, ceil(T / k) feature frames: Qwen3.5), each feature
/// frame shows the first frame of its k and its cells the mean colour over the k frames.
void attachFrames(VideoData& video, const at::Tensor& rgb, int maxSide = 640);

}  // namespace once::studio
