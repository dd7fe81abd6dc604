#pragma once
// Read-only memory map of a whole file (RAII). Large tensor files are mapped, not copied.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace once {

class MappedFile {
  public:
    /// Maps `path` read-only. Throws OnceError naming the file when it cannot be opened/mapped.
    static std::shared_ptr<const MappedFile> open(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const std::uint8_t* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }
    const std::string& path() const noexcept { return path_; }

  private:
    MappedFile() = default;
    std::string path_;
    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
    bool mapped_ = false;
};

}  // namespace once
