#include "serve/access.h"

#include <arpa/inet.h>

#include <array>
#include <cstdint>

#include "util/error.h"
#include "util/json_file.h"
#include "util/sha256.h"

namespace once::serve {

bool isLoopbackHost(const std::string& host) {
    if (host == "localhost") {
        return true;
    }
    std::array<unsigned char, 16> addr{};
    if (inet_pton(AF_INET, host.c_str(), addr.data()) == 1) {
        return addr[0] == 127;
    }
    if (inet_pton(AF_INET6, host.c_str(), addr.data()) == 1) {
        static const std::array<unsigned char, 16> loopback = {0, 0, 0, 0, 0, 0, 0, 0,
                                                               0, 0, 0, 0, 0, 0, 0, 1};
        return addr == loopback;
    }
    return false;
}

bool sameSecret(std::string_view presented, std::string_view expected) {
    Sha256 a, b;
    a.update(presented.data(), presented.size());
    b.update(expected.data(), expected.size());
    const auto da = a.digest(), db = b.digest();
    unsigned diff = 0;
    for (std::size_t i = 0; i < da.size(); ++i) {
        diff |= unsigned(da[i] ^ db[i]);
    }
    return diff == 0;
}

std::string readApiKeyFile(const std::string& path) {
    constexpr std::size_t kMax = 4096;
    std::string text = readFileLimited(path, kMax + 2);
    const auto eol = text.find_first_of("\r\n");
    std::string key = text.substr(0, eol);
    const auto first = key.find_first_not_of(" \t");
    const auto last = key.find_last_not_of(" \t");
    key = first == std::string::npos ? std::string() : key.substr(first, last - first + 1);
    if (key.size() < 16 || key.size() > kMax) {
        fail("the API key must be 16 to 4096 characters on the file's first line", path, "API key",
             "16..4096 characters", std::to_string(key.size()) + " characters");
    }
    for (char c : key) {
        if (c < 0x21 || c > 0x7e) {
            fail("the API key must be printable ASCII without spaces", path, "API key",
                 "printable ASCII", "a control, space or non-ASCII byte");
        }
    }
    return key;
}

std::string bearerToken(std::string_view header) {
    constexpr std::string_view prefix = "Bearer ";
    if (header.size() <= prefix.size() || header.substr(0, prefix.size()) != prefix) {
        return {};
    }
    return std::string(header.substr(prefix.size()));
}

}  // namespace once::serve
