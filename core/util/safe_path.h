#pragma once
// Names read from files (a shard in a safetensors index, a video in an annotation file, an entry
// of a cache manifest) are untrusted: they must name something inside the folder they are
// relative to. resolveInside is the one check every reader uses, so that `../../etc/passwd`, an
// absolute path or a symlink pointing out of the folder is refused the same way everywhere.
#include <string>

namespace once {

/// Resolves `name` (read from `file`, entry `field`) against `folder` and returns the resolved
/// path (absolute, symlinks of existing components resolved). Throws OnceError naming `file` and
/// `field` when `name` is empty, absolute, contains a NUL byte, or resolves (through `..` or a
/// symlink) to the folder itself or anywhere outside it. The target need not exist.
std::string resolveInside(const std::string& folder, const std::string& name,
                          const std::string& file, const std::string& field);

/// True when `path` (already weakly canonical) is `folder` (weakly canonical) or lies below it,
/// compared component by component (so /data/ab is not inside /data/a).
bool pathIsInside(const std::string& folder, const std::string& path);

}  // namespace once
