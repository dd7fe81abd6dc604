#pragma once
// Helpers of the whole-path model suites (tests/pipeline/test_video_path.cpp,
// test_qwen3_5_path.cpp): the real clip they run on, a random codebook for a backbone, and the
// transformers reference run that writes the expected ids.
#include <QString>
#include <QStringList>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace once::test {

/// A real H.264 clip (320 × 240, 1.2 s) of python3-imageio (scripts/setup.sh installs it).
inline constexpr const char* kRealClip =
    "/usr/lib/python3/dist-packages/imageio/resources/images/realshort.mp4";

/// Saves a random codebook (seed 5) of `rows` × `dim` for `backbone` (`space` its feature
/// space) to `path`.
void writeRandomCodebook(const std::string& path, std::int64_t rows, std::int64_t dim,
                         const std::string& backbone, const std::string& space);

/// Runs tests/reference/`script` `dir` `args…` and returns `dir`/ref.json; nullopt (its stderr
/// printed) when the script fails.
std::optional<nlohmann::json> runPathReference(const QString& script, const std::string& dir,
                                               const QStringList& args);

}  // namespace once::test
