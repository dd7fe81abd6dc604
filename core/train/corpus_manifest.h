#pragma once
// The corpus manifest Stage A reads (`once train sketch --corpus`): JSONL, one video a line,
// {"video": path, "category": name}. Its own file because the sketcher, the cluster runner and
// the studio's trainer all read it, and its parser is fuzzed on its own.
#include <cstddef>
#include <string>
#include <vector>

namespace once {

/// Largest corpus manifest read (512 MiB, a few million lines).
constexpr std::size_t kMaxCorpusManifestBytes = std::size_t(512) << 20;

struct CorpusEntry {
    std::string source;
    std::string category;
};

/// The lines of the manifest at `path`. Relative paths are resolved against the manifest's
/// folder; a missing or null category is "". Throws OnceError naming the file and line for
/// invalid JSON, a missing or empty path, a path with a NUL byte, a category that is not a
/// string, a manifest listing no video, or a file over kMaxCorpusManifestBytes.
std::vector<CorpusEntry> readCorpusManifest(const std::string& path);

}  // namespace once
