#include "support/train_fixture.h"

#include <filesystem>

#include "util/atomic_file.h"

namespace once::test {

std::map<std::string, std::string> folderBytes(const std::string& dir) {
    std::map<std::string, std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        out[e.path().filename().string()] = readWholeFile(e.path().string());
    }
    return out;
}

}  // namespace once::test
