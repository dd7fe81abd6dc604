#pragma once
// A saved studio session (`.oncesession`): which inputs were open (video or feature file,
// codebook, model folder) and how they were looked at (method, budget, variant, backbone,
// sampling, dtype, current frame), as a small versioned JSON object:
//
//   {"format": "once-session", "version": 1,
//    "video": "clips/a.mp4", "video_kind": "video", "codebook": "/data/cb.safetensors",
//    "model_folder": "models/llava", "method": "once", "budget": 64, "variant": "full",
//    "backbone": "demo", "sampling": "uniform:32", "dtype": "float32", "frame": 3,
//    "question": "What is the bird doing?", "dense_answer": "…", "compressed_answer": "…"}
//
// Paths below the session file's folder are stored relative to it (the session moves with its
// inputs), others absolute. Every key but "format" and "version" is optional.
//
// The file is untrusted input. A file that is not such an object at all (not JSON, too large,
// another format or a newer version) is refused with an OnceError; a bad *field* is not: it is
// left out of the result and described in `problems` (file, field, expected, found), so the
// studio opens the rest of the session and says what it skipped. Byte-level only: no Qt, no
// LibTorch, no file system access (names are checked against the vocabulary the caller gives,
// taken from the registries), so it can be fuzzed on its own (tests/fuzz/fuzz_session_file.cpp).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace once {

/// Largest session file read (1 MiB; a real one is a few hundred bytes).
constexpr std::size_t kMaxSessionFileBytes = std::size_t(1) << 20;
/// Longest path or name kept from a session file (bytes; PATH_MAX on Linux is 4096).
constexpr std::size_t kMaxSessionStringBytes = 4096;
/// Longest question or answer kept (bytes): the question panel's answers are a few hundred
/// tokens; the studio's autosave keeps the last question and its two answers.
constexpr std::size_t kMaxSessionTextBytes = std::size_t(64) << 10;
/// Largest budget or frame index accepted before the inputs are known (2^31 - 1); the studio
/// then checks the budget against the method's range and the frame against the frame count.
constexpr std::int64_t kMaxSessionIndex = 2147483647;
/// The version this build writes and the newest it reads.
constexpr int kSessionFileVersion = 1;
/// The value of "format".
inline constexpr std::string_view kSessionFileFormat = "once-session";
/// The extension the studio gives session files and recognises them by (open, recent, drops).
inline constexpr std::string_view kSessionFileExtension = ".oncesession";

struct SessionFile {
    enum class VideoKind { Video, FeatureFile };
    std::string video;  ///< absolute after parseSessionFile ("" none)
    VideoKind videoKind = VideoKind::Video;
    std::string codebook;     ///< absolute ("" none)
    std::string modelFolder;  ///< absolute ("" none)
    std::optional<std::string> method;
    std::optional<std::int64_t> budget;
    std::optional<std::string> variant;
    std::optional<std::string> backbone;
    std::optional<std::string> sampling;
    std::optional<std::string> dtype;
    std::optional<std::int64_t> frame;
    std::optional<std::string> question;          ///< the last question asked
    std::optional<std::string> denseAnswer;       ///< its answer with all visual tokens
    std::optional<std::string> compressedAnswer;  ///< its answer with the chosen method
};

/// A field of a session file that was skipped: where, what was expected and what was found.
struct SessionProblem {
    std::string file;
    std::string field;
    std::string expected;
    std::string found;
    /// One line naming all four, as OnceError composes its message.
    std::string message() const;
};

/// The names a session file may use, from the registries (the studio passes core's compressor
/// registry, variantNames(), visualEncoderNames() and the dtype names). An empty list accepts
/// any non-empty name. `checkSampling`, when set, throws OnceError for a bad sampling rule
/// (SamplingRule::parse).
struct SessionVocabulary {
    std::vector<std::string> methods;
    std::vector<std::string> variants;
    std::vector<std::string> backbones;
    std::vector<std::string> dtypes;
    std::function<void(const std::string&)> checkSampling;
};

struct ParsedSession {
    SessionFile session;
    std::vector<SessionProblem> problems;
};

/// Parses the text of session file `file` (its name, for messages and to resolve relative
/// paths against its folder). Throws OnceError for a text longer than kMaxSessionFileBytes, not
/// JSON, nested too deeply, not an object, "format" other than kSessionFileFormat, or
/// "version" not an integer in 1 … kSessionFileVersion. Every other bad value — a wrong type,
/// an unknown name, a number out of range, a path with a NUL byte, an empty or overlong string,
/// a relative path that leaves the session's folder, an unknown key — is a problem and left
/// out. Checks nothing on disk (see dropMissingSessionFiles).
ParsedSession parseSessionFile(std::string_view text, const std::string& file,
                               const SessionVocabulary& vocabulary = {});

/// The JSON text of `session` for a file at `file`: paths below its folder relative, others
/// absolute, unset values left out. Throws OnceError for a string over kMaxSessionStringBytes
/// or with a NUL byte, a budget or frame outside 1/0 … kMaxSessionIndex.
std::string serializeSessionFile(const SessionFile& session, const std::string& file);

/// Clears the paths of `session` (read from `file`) that are not there and returns a problem
/// for each: a video that is neither a file nor a folder (of frames), a feature file or a
/// codebook that is not a file, a model folder that is not a folder.
std::vector<SessionProblem> dropMissingSessionFiles(SessionFile& session, const std::string& file);

}  // namespace once
