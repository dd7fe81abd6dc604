#include "util/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>

#include "util/error.h"
#include "util/regular_file.h"

namespace once {

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
    tmpPath_ = path_ + ".tmp-" + std::to_string(::getpid());
    fd_ = ::open(tmpPath_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) {
        fail(std::string("cannot create file: ") + std::strerror(errno), path_);
    }
}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
    if (!committed_) {
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

void AtomicFile::commit() {
    if (::fsync(fd_) != 0) {
        fail(std::string("fsync failed: ") + std::strerror(errno), path_);
    }
    ::close(fd_);
    fd_ = -1;
    if (::rename(tmpPath_.c_str(), path_.c_str()) != 0) {
        fail(std::string("cannot rename into place: ") + std::strerror(errno), path_);
    }
    committed_ = true;
}

void writeFileAtomically(const std::string& path, const std::string& contents) {
    AtomicFile f(path);
    f.write(contents.data(), contents.size());
    f.commit();
}

std::string readWholeFile(const std::string& path) {
    return readRegularFile(path, std::numeric_limits<std::size_t>::max());
}

}  // namespace once
