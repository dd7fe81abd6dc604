#pragma once
// Opening a file whose path came from a user or from another file (a model folder's
// tokenizer.json, a shard named by an index, a codebook, an eval merge plan, a video). Such a path
// may name a FIFO or a device: a plain open() of a FIFO blocks until a writer appears, and a read
// of /dev/zero never ends. Every reader opens through openRegularFile, which opens without
// blocking (O_NONBLOCK), checks what was opened (fstat on the descriptor, so the check and the
// read concern the same file) and refuses anything that is not a regular file, naming it, before
// a byte is read. Symlinks are followed: where the user's own file system points a name is the
// user's choice (docs/security.md, "Symlinks and special files").
#include <cstddef>
#include <cstdint>
#include <string>

namespace once {

/// A read-only descriptor of a regular file, closed on destruction. Move-only.
class RegularFile {
  public:
    RegularFile() = default;
    ~RegularFile();
    RegularFile(RegularFile&& o) noexcept;
    RegularFile& operator=(RegularFile&& o) noexcept;
    RegularFile(const RegularFile&) = delete;
    RegularFile& operator=(const RegularFile&) = delete;

    /// Opens `path`. Throws OnceError naming `path` and `field` when it is missing, a folder, a
    /// FIFO, a device or a socket (found: which one), or cannot be opened (found: the reason).
    static RegularFile open(const std::string& path, const std::string& field = {});

    int fd() const noexcept { return fd_; }
    /// Size in bytes when opened.
    std::uint64_t size() const noexcept { return size_; }
    const std::string& path() const noexcept { return path_; }
    /// Reads up to `n` bytes (fewer only at the end of the file); retries when a signal
    /// interrupts the read. Throws OnceError naming the file on an I/O error.
    std::size_t read(void* buffer, std::size_t n);

  private:
    int fd_ = -1;
    std::uint64_t size_ = 0;
    std::string path_;
};

/// The whole of `path`, at most `maxBytes` bytes (checked against the size before reading and
/// again while reading, so a file growing meanwhile cannot exceed it). Throws OnceError naming the
/// file as RegularFile::open does, and "file too large" with the limit.
std::string readRegularFile(const std::string& path, std::size_t maxBytes,
                            const std::string& field = {});

/// Throws as RegularFile::open does unless `path` is a regular file; for libraries that open the
/// file by name themselves (FFmpeg). The file is opened and closed to check it.
void requireRegularFile(const std::string& path, const std::string& field = {});

/// "a FIFO", "a character device", "a folder" … for messages about what was found at a path.
std::string fileTypeName(unsigned mode);

}  // namespace once
