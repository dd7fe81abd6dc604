// clang-format off
// fuzz-sources: core/models/qwen2/qwen2_config.cpp core/models/llava_ov/processor_config.cpp core/models/processor_ranges.cpp core/util/error.cpp core/util/atomic_file.cpp core/util/json_file.cpp core/util/regular_file.cpp
// clang-format on
// libFuzzer target for a model folder's settings: config.json's language-model part
// (Qwen2Config::fromJson) and the processor files (processor_config.json with nested processors,
// video_preprocessor_config.json, preprocessor_config.json). The first byte picks the file; the
// rest is its content. Any input must parse or throw OnceError; a parsed config must hold only
// the values its reader promises.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz_check.h"
#include "models/llava_ov/processor_config.h"
#include "models/qwen2/qwen2_config.h"
#include "util/error.h"

// A reader that lets through a value it promises to refuse aborts.
using once::fuzz::check;

namespace {

const std::string& folder() {
    static const std::string dir = [] {
        std::string t = (std::filesystem::temp_directory_path() / "once-fuzz-XXXXXX").string();
        if (!mkdtemp(t.data())) {
            std::abort();
        }
        return t;
    }();
    return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) {
        return 0;
    }
    const int which = data[0] % 4;
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        if (which == 0) {
            nlohmann::json j;
            try {
                j = nlohmann::json::parse(text);
            } catch (const nlohmann::json::exception&) {
                return 0;  // config.json's JSON errors are the folder reader's (HfCheckpoint)
            }
            const once::Qwen2Config c = once::Qwen2Config::fromJson(j, "config.json");
            check(c.hiddenSize > 0 && c.numHeads > 0 && c.numKvHeads > 0 && c.headDim > 0 &&
                  c.numHeads % c.numKvHeads == 0 && c.rmsNormEps > 0 && c.rope.theta > 0);
            return 0;
        }
        static const char* names[] = {"", "processor_config.json", "video_preprocessor_config.json",
                                      "preprocessor_config.json"};
        for (int k = 1; k < 4; ++k) {
            std::filesystem::remove(folder() + "/" + names[k]);
        }
        std::ofstream(folder() + "/" + names[which], std::ios::binary) << text;
        const once::SiglipPreprocessConfig c =
            once::SiglipPreprocessConfig::fromFolder(folder(), 384);
        check(c.height > 0 && c.width > 0 && c.height <= once::kMaxProcessorSide &&
              c.width <= once::kMaxProcessorSide && c.rescaleFactor >= once::kMinRescaleFactor &&
              c.rescaleFactor <= once::kMaxRescaleFactor);
        for (int k = 0; k < 3; ++k) {
            check(std::abs(c.mean[k]) <= once::kMaxAbsImageMean && c.std[k] >= once::kMinImageStd &&
                  c.std[k] <= once::kMaxImageStd);
        }
    } catch (const once::OnceError&) {
    }
    return 0;
}
