#include "util/safe_path.h"

#include <filesystem>

#include "util/error.h"

namespace once {
namespace fs = std::filesystem;

std::string resolveInside(const std::string& folder, const std::string& name,
                          const std::string& file, const std::string& field) {
    const std::string expected =
        "a relative path inside " + (folder.empty() ? std::string(".") : folder);
    if (name.empty()) {
        fail("empty file name", file, field, expected, "an empty name");
    }
    if (name.find('\0') != std::string::npos) {
        fail("file name contains a NUL byte", file, field, expected, "a NUL byte");
    }
    const fs::path n(name);
    if (n.is_absolute() || n.has_root_name() || n.has_root_directory()) {
        fail("absolute file names are not allowed", file, field, expected, name);
    }
    // Any "..", even one that would come back ("sub/../x"): no real index, annotation or
    // manifest writes one, and a name without ".." cannot leave the folder however it is read.
    bool named = false;
    for (const fs::path& part : n) {
        if (part == "..") {
            fail("file name points outside its folder", file, field, expected,
                 name + " (\"..\" leaves the folder)");
        }
        named = named || (part != "." && !part.empty());
    }
    if (!named) {
        fail("file name names the folder itself", file, field, expected, name);
    }
    return (fs::path(folder.empty() ? "." : folder) / n).lexically_normal().string();
}

}  // namespace once
