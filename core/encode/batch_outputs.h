#pragma once
// Whose files stand at the names a batch writes (`once encode --out-dir`). The output folder may
// hold the user's own files: a batch replaces only what it wrote itself. A finished output of an
// earlier run is recognised by its metadata and resumed; anything else at an output's name (a
// file the tool did not write, another video's features, a symlink, a FIFO, a folder) is refused
// before any video is encoded, named, and left alone — unless the user said --overwrite.
#include <cstdint>
#include <string>

#include "util/atomic_file.h"

namespace once {

/// What stands at the output name of one video.
struct BatchOutputCheck {
    enum class State {
        free,      ///< nothing there (or, with --overwrite, something the run may replace)
        finished,  ///< this tool's features of the video, with the run's backbone and sampling
        outdated,  ///< this tool's features of the video under other settings: encoded again
    };
    State state = State::free;
    std::int64_t frames = 0;   ///< of a finished output
    std::string sourceSha256;  ///< of a finished output
};

/// Classifies `path`, the output of `video` (resolved as the batch lists it), for a run with
/// `backbone` and `sampling`. Throws OnceError naming `path` for anything the tool did not write
/// for this video, unless `replace` is anyFile (then it is free to replace, a folder excepted).
BatchOutputCheck checkBatchOutput(const std::string& path, const std::string& video,
                                  const std::string& backbone, const std::string& sampling,
                                  OutputReplace replace);

/// The run's list of finished videos (encoded.jsonl): absent, or a regular file whose every line
/// is a record the tool writes (a JSON object with a "features" name). Throws OnceError naming
/// the file (and line) otherwise, unless `replace` is anyFile (the list is then rewritten).
void checkFinishedList(const std::string& path, OutputReplace replace);

}  // namespace once
