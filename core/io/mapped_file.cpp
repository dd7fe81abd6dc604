#include "io/mapped_file.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>

#include "util/error.h"
#include "util/regular_file.h"

namespace once {

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path) {
    const RegularFile file = RegularFile::open(path);  // never a FIFO or a device
    std::shared_ptr<MappedFile> f(new MappedFile());
    f->path_ = path;
    f->size_ = std::size_t(file.size());
    if (f->size_ > 0) {
        void* p = ::mmap(nullptr, f->size_, PROT_READ, MAP_PRIVATE, file.fd(), 0);
        if (p == MAP_FAILED) {
            fail(std::string("cannot map file: ") + std::strerror(errno), path);
        }
        f->data_ = static_cast<const std::uint8_t*>(p);
        f->mapped_ = true;
    }
    return f;
}

MappedFile::~MappedFile() {
    if (mapped_) {
        ::munmap(const_cast<std::uint8_t*>(data_), size_);
    }
}

}  // namespace once
