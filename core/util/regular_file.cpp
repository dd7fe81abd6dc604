#include "util/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "util/error.h"

namespace once {
namespace {

[[noreturn]] void notRegular(const std::string& path, const std::string& field, unsigned mode) {
    if (S_ISDIR(mode)) {
        fail("expected a file, found a folder", path, field, "a file", "a folder");
    }
    fail("not a regular file", path, field, "a regular file", fileTypeName(mode));
}

[[noreturn]] void cannotOpen(const std::string& path, const std::string& field, int error) {
    if (error == ENOENT || error == ENOTDIR) {
        fail("file not found", path, field, "a readable file", "nothing at that path");
    }
    fail(std::string("cannot open file: ") + std::strerror(error), path, field, "a readable file",
         error == EACCES ? "no read access" : std::strerror(error));
}

}  // namespace

std::string fileTypeName(unsigned mode) {
    if (S_ISREG(mode)) {
        return "a regular file";
    }
    if (S_ISDIR(mode)) {
        return "a folder";
    }
    if (S_ISFIFO(mode)) {
        return "a FIFO (named pipe)";
    }
    if (S_ISCHR(mode)) {
        return "a character device";
    }
    if (S_ISBLK(mode)) {
        return "a block device";
    }
    if (S_ISSOCK(mode)) {
        return "a socket";
    }
    return "another kind of file";
}

RegularFile::~RegularFile() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
}

RegularFile::RegularFile(RegularFile&& o) noexcept
    : fd_(std::exchange(o.fd_, -1)), size_(o.size_), path_(std::move(o.path_)) {}

RegularFile& RegularFile::operator=(RegularFile&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) {
            ::close(fd_);
        }
        fd_ = std::exchange(o.fd_, -1);
        size_ = o.size_;
        path_ = std::move(o.path_);
    }
    return *this;
}

RegularFile RegularFile::open(const std::string& path, const std::string& field) {
    if (path.empty()) {
        fail("file not found", path, field, "a readable file", "an empty path");
    }
    // A look before opening, so that a device is refused without being opened at all (opening
    // some devices has effects of its own).
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        cannotOpen(path, field, errno);
    }
    if (!S_ISREG(st.st_mode)) {
        notRegular(path, field, st.st_mode);
    }
    // O_NONBLOCK: should the name have become a FIFO meanwhile, open() returns at once instead of
    // waiting for a writer; fstat below then refuses it. O_NOCTTY: a terminal never becomes ours.
    RegularFile f;
    f.path_ = path;
    do {
        f.fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    } while (f.fd_ < 0 && errno == EINTR);
    if (f.fd_ < 0) {
        cannotOpen(path, field, errno);
    }
    if (::fstat(f.fd_, &st) != 0) {
        fail(std::string("cannot inspect file: ") + std::strerror(errno), path, field,
             "a readable file", std::strerror(errno));
    }
    if (!S_ISREG(st.st_mode)) {
        notRegular(path, field, st.st_mode);
    }
    // Reads of a regular file never wait on O_NONBLOCK anyway; clearing it keeps the descriptor
    // plain for whoever reads or maps it.
    const int flags = ::fcntl(f.fd_, F_GETFL);
    if (flags < 0 || ::fcntl(f.fd_, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        fail(std::string("cannot set up file: ") + std::strerror(errno), path, field,
             "a readable file", std::strerror(errno));
    }
    f.size_ = std::uint64_t(st.st_size);
    return f;
}

std::size_t RegularFile::read(void* buffer, std::size_t n) {
    std::size_t got = 0;
    auto* out = static_cast<char*>(buffer);
    while (got < n) {
        const ssize_t r = ::read(fd_, out + got, n - got);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r < 0) {
            fail(std::string("read error: ") + std::strerror(errno), path_, {}, "a readable file",
                 "an I/O error");
        }
        if (r == 0) {
            break;
        }
        got += std::size_t(r);
    }
    return got;
}

std::string readRegularFile(const std::string& path, std::size_t maxBytes,
                            const std::string& field) {
    RegularFile f = RegularFile::open(path, field);
    const auto tooLarge = [&](const std::string& found) {
        fail("file too large", path, field, "at most " + std::to_string(maxBytes) + " bytes",
             found);
    };
    if (f.size() > maxBytes) {
        tooLarge(std::to_string(f.size()) + " bytes");
    }
    std::string text(std::size_t(f.size()), '\0');
    text.resize(f.read(text.data(), text.size()));
    // A file that grew since fstat: read on, still within the limit.
    char buf[1 << 16];
    while (const std::size_t n = f.read(buf, sizeof buf)) {
        if (n > maxBytes - text.size()) {
            tooLarge("more");
        }
        text.append(buf, n);
    }
    return text;
}

void requireRegularFile(const std::string& path, const std::string& field) {
    RegularFile::open(path, field);
}

}  // namespace once
