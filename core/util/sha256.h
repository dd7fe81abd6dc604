#pragma once
// SHA-256 (FIPS 180-4), used to fingerprint codebook tensors and source videos.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace once {

class Sha256 {
  public:
    Sha256();
    void update(const void* data, std::size_t size);
    /// Finishes the hash; the object must not be updated afterwards.
    std::array<std::uint8_t, 32> digest();
    /// Finishes the hash and returns it as 64 lowercase hex characters.
    std::string hexDigest();

    static std::string hex(const void* data, std::size_t size);
    static std::string hexOfFile(const std::string& path);

  private:
    void block(const std::uint8_t* p);
    std::array<std::uint32_t, 8> h_;
    std::array<std::uint8_t, 64> buf_{};
    std::size_t bufLen_ = 0;
    std::uint64_t totalBytes_ = 0;
};

}  // namespace once
