#pragma once
// Helpers of the model suites (tests/pipeline/test_video_path.cpp, test_qwen3_5_path.cpp,
// tests/models/test_qwen2_*.cpp): the real clip they run on, a random codebook for a backbone,
// and the transformers reference runs that write the models and their expected outputs.
#include <QString>
#include <QStringList>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace at {
class Tensor;
}

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

/// A random causal language model of architecture `arch` (`flags` as
/// tests/reference/llm_reference.py takes them) with its reference outputs, in a new temporary
/// folder; the script's stderr is printed when it fails (the folder is then incomplete).
std::string makeCausalLmReference(const QString& arch, const QStringList& flags);
/// The tensor `name` of `dir`/ref.safetensors (copied out of the mapped file).
at::Tensor referenceTensor(const std::string& dir, const std::string& name);

}  // namespace once::test
