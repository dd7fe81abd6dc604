#pragma once
// The real video clips that Debian packages install (../shared/research/real-data.md), for the
// suites that must survive what users really open: H.264, MPEG-2, Theora, MJPEG/XviD AVI.
#include <string>
#include <vector>

namespace once::test {

/// The clips of real-data.md that are installed on this machine (absolute paths).
std::vector<std::string> installedRealClips();

/// The installed real files with sound: MP3 in MP4 (cockatoo), AAC in MP4 (realshort) and the
/// Vorbis song of python-nbsphinx-doc (sound only, no picture).
std::vector<std::string> installedSoundClips();

/// The 1906 Theora film of python-nbsphinx-doc (Qt Multimedia's FFmpeg plugin died on it).
inline constexpr const char* kTheoraFilm =
    "/usr/share/doc/python-nbsphinx/html/www/wikimediacommons/"
    "Shepard_Calais_1906_FrenchGP.ogv.160p.ogv";

}  // namespace once::test
