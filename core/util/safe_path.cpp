#include "util/safe_path.h"

#include <filesystem>
#include <system_error>

#include "util/error.h"

namespace once {
namespace fs = std::filesystem;

namespace {

// weakly_canonical resolves the existing prefix through the real file system (symlinks
// included) and normalizes the rest lexically, so it is the same check for files that exist and
// for files about to be written.
fs::path canonicalOrFail(const fs::path& p, const std::string& file, const std::string& field) {
    std::error_code ec;
    fs::path c = fs::weakly_canonical(fs::absolute(p, ec), ec);
    if (ec) {
        fail("cannot resolve path: " + ec.message(), file, field, "a resolvable path", p.string());
    }
    // "sub/.." normalizes to "folder/"; drop the trailing separator so it compares as folder.
    if (!c.has_filename() && c.has_relative_path()) {
        c = c.parent_path();
    }
    return c;
}

}  // namespace

bool pathIsInside(const std::string& folder, const std::string& path) {
    const fs::path f = fs::path(folder).lexically_normal();
    const fs::path p = fs::path(path).lexically_normal();
    auto fi = f.begin();
    auto pi = p.begin();
    for (; fi != f.end(); ++fi, ++pi) {
        // A trailing separator yields an empty last component; it matches anything.
        if (fi->empty()) {
            continue;
        }
        if (pi == p.end() || *fi != *pi) {
            return false;
        }
    }
    return true;
}

std::string resolveInside(const std::string& folder, const std::string& name,
                          const std::string& file, const std::string& field) {
    const std::string expected = "a relative path inside " + folder;
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
    const fs::path base =
        canonicalOrFail(folder.empty() ? fs::path(".") : fs::path(folder), file, field);
    const fs::path target = canonicalOrFail(base / n, file, field);
    if (!pathIsInside(base.string(), target.string())) {
        fail("file name points outside its folder", file, field, expected,
             name + " (resolves to " + target.string() + ")");
    }
    if (target == base) {
        fail("file name names the folder itself", file, field, expected, name);
    }
    return target.string();
}

}  // namespace once
