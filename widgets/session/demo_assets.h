#pragma once
// Where the embedded demo (video, codebook) lives: beside an installed binary
// (<prefix>/share/once-studio/demo), in the source tree of a developer build, or wherever
// ONCE_DEMO_DIR points.
#include <QString>

namespace once::studio {

struct DemoAssets {
    QString folder;    ///< empty when no demo folder was found
    QString video;     ///< demo.mp4, empty when missing
    QString codebook;  ///< demo_codebook.safetensors, empty when missing
    static DemoAssets locate();
    bool hasVideo() const { return !video.isEmpty(); }
    bool hasCodebook() const { return !codebook.isEmpty(); }
};

}  // namespace once::studio
