#pragma once
// Crash-safe writes that cannot be redirected. Data goes to a temporary file beside the target,
// created exclusively under a random name (O_CREAT | O_EXCL | O_NOFOLLOW: a symlink planted at a
// guessable name cannot make the tool write through it), is flushed to disk, and is renamed over
// the target only when complete. A killed process leaves either the old file or the new one,
// never a half-written file under the final name. rename() replaces the name itself: an output
// that is a symlink is replaced, never followed — and only when the user said so (docs/security.md
// "Temporary files and outputs").
#include <cstddef>
#include <string>

namespace once {

/// What may stand at an output path for a writer to replace it. The output the user named is
/// replaced when it is a regular file; a symlink, FIFO, device or socket there is refused unless
/// the user said `--overwrite` (anyFile). A folder is never replaced.
enum class OutputReplace { regularFile, anyFile };

/// The replace policy of a command's `--overwrite` flag.
inline OutputReplace outputReplace(bool overwrite) {
    return overwrite ? OutputReplace::anyFile : OutputReplace::regularFile;
}

/// Throws OnceError naming `path` and `field` unless `path` is absent, a regular file, or (with
/// anyFile) a symlink or special file. Commands call it before long work, so a refused output is
/// reported first; AtomicFile checks again when it is created.
void checkOutputPath(const std::string& path, OutputReplace replace,
                     const std::string& field = "output");

class AtomicFile {
  public:
    explicit AtomicFile(std::string path, OutputReplace replace = OutputReplace::regularFile);
    ~AtomicFile();  ///< removes the temporary file unless commit() succeeded
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    void write(const void* data, std::size_t size);
    /// fsync + rename into place. Throws OnceError on failure (and leaves no temporary).
    void commit();
    /// commit(), keeping the descriptor open: later writes go to the file now at path() (a
    /// results file that grows record by record). The caller closes the descriptor.
    int commitKeepOpen();
    const std::string& path() const noexcept { return path_; }
    /// The temporary file's descriptor (open for writing until commit()), for writers that
    /// must seek back into what they wrote (an MP4 muxer patches its headers); -1 after commit.
    int descriptor() const noexcept { return fd_; }

  private:
    void renameIntoPlace();

    std::string path_;
    std::string tmpPath_;
    int fd_ = -1;
    bool committed_ = false;
};

/// Writes a whole string atomically.
void writeFileAtomically(const std::string& path, const std::string& contents,
                         OutputReplace replace = OutputReplace::regularFile);
/// Reads a whole file; throws OnceError naming the file when it cannot.
std::string readWholeFile(const std::string& path);

/// Creates a new, empty folder beside `target` for building it whole ("TARGET.tmp-DIGITS",
/// mkdir: never an existing entry, never through a link at that name) and returns its path.
/// Throws OnceError naming `target` when it cannot.
std::string makeTemporaryFolder(const std::string& target);

/// The target's file name when `name` is an AtomicFile temporary ("NAME.tmp-DIGITS" -> "NAME":
/// a write a kill interrupted), else "".
std::string temporaryTarget(const std::string& name);

}  // namespace once
