#include "io/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/error.h"

namespace once {

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        fail(std::string("cannot open file: ") + std::strerror(errno), path);
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        fail("not a regular file", path);
    }
    std::shared_ptr<MappedFile> f(new MappedFile());
    f->path_ = path;
    f->size_ = std::size_t(st.st_size);
    if (f->size_ > 0) {
        void* p = ::mmap(nullptr, f->size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int e = errno;
            ::close(fd);
            fail(std::string("cannot map file: ") + std::strerror(e), path);
        }
        f->data_ = static_cast<const std::uint8_t*>(p);
        f->mapped_ = true;
    }
    ::close(fd);
    return f;
}

MappedFile::~MappedFile() {
    if (mapped_) {
        ::munmap(const_cast<std::uint8_t*>(data_), size_);
    }
}

}  // namespace once
