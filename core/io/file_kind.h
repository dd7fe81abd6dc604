#pragma once
// What kind of input a path is, and which file names are videos: known in one place for the
// CLI's batch and corpus readers, the studio's open dialogs, drops and trainer, and the tests.
// Only a .safetensors header is read (cheap enough for a GUI thread); nothing is trusted
// beyond choosing which loader reports on the file.
#include <string>
#include <vector>

namespace once {

enum class FileKind {
    Video,        ///< a container by extension, or a folder of numbered frames
    FeatureFile,  ///< .safetensors holding a "features" tensor (features/feature_file.h)
    Codebook,     ///< .npy/.pt/.pth/.bin, or any other .safetensors (codebook/codebook.h)
    ModelFolder,  ///< a folder with config.json (Hugging Face layout)
    Unknown,
};

/// Lower-case video file extensions with their dot (".mp4", ".mkv", …), the order shown to users.
const std::vector<std::string>& videoExtensions();
/// Lower-case extensions of frame images inside a frame folder (".jpg", ".jpeg", ".png").
const std::vector<std::string>& frameImageExtensions();

/// True when the extension of `path` (any case) is one of videoExtensions().
bool hasVideoExtension(const std::string& path);
/// True when `path` is a folder holding at least one frame image.
bool holdsFrameImages(const std::string& path);

/// The kind of `path`. A folder is a ModelFolder when it holds config.json, else a Video
/// (frames). A broken .safetensors is a Codebook, so that the codebook loader names what is
/// wrong with it.
FileKind classifyPath(const std::string& path);

/// "*.mp4 *.mkv …" for a file dialog's filter.
std::string videoGlobPatterns();

}  // namespace once
