#include "util/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "util/error.h"
#include "util/regular_file.h"

namespace once {
namespace {

constexpr const char* kTemporaryInfix = ".tmp-";
// 12 random decimal digits: 10^12 names, so a planted name is hit by chance never, and a name
// taken by another writer (or planted) only costs one more try.
constexpr int kTemporaryDigits = 12;
constexpr int kTemporaryTries = 64;

std::string randomDigits() {
    static thread_local std::mt19937_64 gen{[] {
        std::random_device rd;  // getrandom() on Linux
        return (std::uint64_t(rd()) << 32) ^ rd() ^ std::uint64_t(::getpid());
    }()};
    std::string s(kTemporaryDigits, '0');
    std::uint64_t v = gen();
    for (char& c : s) {
        c = char('0' + v % 10);
        v /= 10;
    }
    return s;
}

const char* kindOf(mode_t mode) {
    if (S_ISLNK(mode)) {
        return "a symbolic link";
    }
    if (S_ISDIR(mode)) {
        return "a folder";
    }
    if (S_ISFIFO(mode)) {
        return "a FIFO";
    }
    if (S_ISCHR(mode) || S_ISBLK(mode)) {
        return "a device";
    }
    if (S_ISSOCK(mode)) {
        return "a socket";
    }
    return "not a regular file";
}

}  // namespace

void checkOutputPath(const std::string& path, OutputReplace replace, const std::string& field) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) {
            return;  // a new file
        }
        fail(std::string("cannot inspect the output path: ") + std::strerror(errno), path, field,
             "a writable path", std::strerror(errno));
    }
    if (S_ISREG(st.st_mode)) {
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        fail("the output path is a folder", path, field, "a file path", "a folder");
    }
    if (replace == OutputReplace::regularFile) {
        fail("the output path exists and is not a regular file; it is left alone (give "
             "--overwrite to replace it)",
             path, field, "a regular file or nothing", kindOf(st.st_mode));
    }
}

AtomicFile::AtomicFile(std::string path, OutputReplace replace) : path_(std::move(path)) {
    checkOutputPath(path_, replace);
    for (int attempt = 0; attempt < kTemporaryTries; ++attempt) {
        tmpPath_ = path_ + kTemporaryInfix + randomDigits();
        // O_EXCL: never an existing file; O_NOFOLLOW: never through a link at that name.
        fd_ = ::open(tmpPath_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd_ >= 0 || errno != EEXIST) {
            break;
        }
    }
    if (fd_ < 0) {
        const int err = errno;
        tmpPath_.clear();  // nothing of ours to remove
        fail(std::string("cannot create file: ") + std::strerror(err), path_);
    }
}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
    if (!committed_ && !tmpPath_.empty()) {
        ::unlink(tmpPath_.c_str());
    }
}

void AtomicFile::write(const void* data, std::size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        ssize_t n = ::write(fd_, p, size);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            fail(std::string("write failed: ") + std::strerror(errno), path_);
        }
        p += n;
        size -= std::size_t(n);
    }
}

void AtomicFile::renameIntoPlace() {
    if (::fsync(fd_) != 0) {
        fail(std::string("fsync failed: ") + std::strerror(errno), path_);
    }
    // rename() replaces the directory entry: a symlink at path_ (allowed by anyFile, or planted
    // after the check) is replaced, its target never written.
    if (::rename(tmpPath_.c_str(), path_.c_str()) != 0) {
        fail(std::string("cannot rename into place: ") + std::strerror(errno), path_);
    }
    committed_ = true;
}

void AtomicFile::commit() {
    renameIntoPlace();
    ::close(fd_);
    fd_ = -1;
}

int AtomicFile::commitKeepOpen() {
    renameIntoPlace();
    const int fd = fd_;
    fd_ = -1;
    return fd;
}

void writeFileAtomically(const std::string& path, const std::string& contents,
                         OutputReplace replace) {
    AtomicFile f(path, replace);
    f.write(contents.data(), contents.size());
    f.commit();
}

std::string readWholeFile(const std::string& path) {
    return readRegularFile(path, std::numeric_limits<std::size_t>::max());
}

std::string makeTemporaryFolder(const std::string& target) {
    int err = 0;
    for (int attempt = 0; attempt < kTemporaryTries; ++attempt) {
        const std::string path = target + kTemporaryInfix + randomDigits();
        if (::mkdir(path.c_str(), 0777) == 0) {
            return path;
        }
        err = errno;
        if (err != EEXIST) {
            break;
        }
    }
    fail(std::string("cannot create a temporary folder: ") + std::strerror(err), target);
}

std::string temporaryTarget(const std::string& name) {
    const std::size_t infix = std::strlen(kTemporaryInfix);
    const auto at = name.rfind(kTemporaryInfix);
    if (at == std::string::npos || at == 0 || at + infix == name.size()) {
        return {};
    }
    for (std::size_t i = at + infix; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9') {
            return {};
        }
    }
    return name.substr(0, at);
}

}  // namespace once
