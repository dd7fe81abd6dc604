#pragma once
// Names read from files (a shard in a safetensors index, a video in an annotation file, an entry
// of a cache manifest) are untrusted: they must name something inside the folder they are
// relative to. resolveInside is the one check every reader uses, so that `../../etc/passwd` or an
// absolute path is refused the same way everywhere.
//
// The check is lexical, on the name as written: where the user's own file system points a name
// (the Hugging Face hub cache stores snapshots/REV/FILE as symlinks to ../../blobs/SHA; a user
// may link a videos folder to another disk) is the user's choice, not the file's. What the name
// then opens must be a regular file (util/regular_file.h), never a FIFO or a device.
#include <string>

namespace once {

/// Joins `name` (read from `file`, entry `field`) to `folder` and returns folder/name with "."
/// components removed (not made absolute; symlinks not resolved). Throws OnceError naming `file`
/// and `field` when `name` is empty, absolute, contains a NUL byte or a ".." component, or names
/// the folder itself. The target need not exist.
std::string resolveInside(const std::string& folder, const std::string& name,
                          const std::string& file, const std::string& field);

}  // namespace once
