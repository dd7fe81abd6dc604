#pragma once
// Crash-safe writes: data goes to a temporary file beside the target, is flushed to disk, and is
// renamed over the target only when complete. A killed process leaves either the old file or
// the new one, never a half-written file under the final name.
#include <cstddef>
#include <string>

namespace once {

class AtomicFile {
  public:
    explicit AtomicFile(std::string path);
    ~AtomicFile();  ///< removes the temporary file unless commit() succeeded
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    void write(const void* data, std::size_t size);
    /// fsync + rename into place. Throws OnceError on failure (and leaves no temporary).
    void commit();
    const std::string& path() const noexcept { return path_; }

  private:
    std::string path_;
    std::string tmpPath_;
    int fd_ = -1;
    bool committed_ = false;
};

/// Writes a whole string atomically.
void writeFileAtomically(const std::string& path, const std::string& contents);
/// Reads a whole file; throws OnceError naming the file when it cannot.
std::string readWholeFile(const std::string& path);

}  // namespace once
