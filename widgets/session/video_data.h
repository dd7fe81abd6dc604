#pragma once
// Everything the studio knows about the video on screen: its encoder features (always) and its
// sampled frames (when it came from a video, not from a bare feature file).
#include <ATen/core/Tensor.h>

#include <QImage>
#include <QString>
#include <QVector>
#include <string>
#include <vector>

namespace once::studio {

struct VideoData {
    QString source;  ///< the file the user opened
    bool fromFeatureFile = false;
    at::Tensor features;             ///< [T, P, D], any floating dtype
    at::Tensor attention;            ///< [T, P] attention received, or undefined (demo encoder)
    std::vector<double> frameTimes;  ///< [T] seconds (0, 1, 2, … when unknown)
    int gridH = 0, gridW = 0;        ///< P = gridH × gridW
    std::string backbone;            ///< encoder name, checked against the codebook's
    std::string featureSource;
    /// Special tokens the LLM gets besides the compressed ones (LLaVA's image_newline).
    int layoutTokens = 0;
    /// Sampled frames, one per feature row; empty for a feature file without its video.
    QVector<QImage> frames;
    /// [T·P] mean colour of each patch's image region (empty without frames).
    std::vector<QRgb> patchColours;

    std::int64_t numFrames() const { return features.defined() ? features.size(0) : 0; }
    std::int64_t patchesPerFrame() const { return features.defined() ? features.size(1) : 0; }
    std::int64_t numTokens() const { return numFrames() * patchesPerFrame(); }
    std::int64_t dim() const { return features.defined() ? features.size(2) : 0; }
    bool isEmpty() const { return !features.defined(); }
};

/// The grid of a [T, P, D] tensor when the file does not say it: the most square H×W = P.
void guessGrid(std::int64_t patches, int& gridH, int& gridW);

/// Converts uint8 RGB frames [T, H, W, 3] into images (scaled so the longer side is at most
/// `maxSide`) and computes the mean colour of each of the gridH×gridW patches of every frame,
/// assuming the encoder resized the whole frame to its square input (LLaVA: aspect not kept).
void attachFrames(VideoData& video, const at::Tensor& rgb, int maxSide = 640);

}  // namespace once::studio
