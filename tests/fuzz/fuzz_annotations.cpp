// clang-format off
// fuzz-sources: core/eval/annotation_json.cpp core/eval/benchmark.cpp core/eval/mvbench.cpp core/eval/egoschema.cpp core/eval/videomme.cpp core/eval/longvideobench.cpp core/eval/eval_record.cpp core/eval/results_file.cpp core/pipeline/multiple_choice.cpp core/util/json_file.cpp core/util/safe_path.cpp core/util/error.cpp core/util/regular_file.cpp core/util/atomic_file.cpp
// clang-format on
// libFuzzer target for the evaluation harness's file readers: the four benchmarks' annotation
// parsers (MVBench, EgoSchema, Video-MME, LongVideoBench) and the results-file reader. The first
// byte picks the reader, the rest is the file (for EgoSchema: questions.json, a NUL byte, then
// subset_answers.json). Any input must either load, with every video path inside the videos
// folder and every answer an index of its options, or throw OnceError.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "eval/benchmark.h"
#include "eval/results_file.h"
#include "util/error.h"

namespace {

namespace fs = std::filesystem;

const fs::path& workDir() {
    static const fs::path dir = [] {
        fs::path d =
            fs::temp_directory_path() / ("once_fuzz_annotations_" + std::to_string(::getpid()));
        fs::create_directories(d / "videos");
        fs::create_directories(d / "ego");
        std::atexit([] {
            std::error_code ec;
            fs::remove_all(workDir(), ec);
        });
        return d;
    }();
    return dir;
}

void writeFile(const fs::path& p, const std::string& data) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << data;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) {
        return 0;
    }
    const int which = data[0] % 5;
    const std::string body(reinterpret_cast<const char*>(data + 1), size - 1);
    const fs::path dir = workDir();
    const std::string videos = (dir / "videos").string();
    try {
        if (which == 4) {
            const fs::path p = dir / "results.jsonl";
            writeFile(p, body);
            for (const auto& r : once::readResults(p.string())) {
                if (r.budget < 0 || r.contentTokens < 0 || r.prefillFlops < 0) {
                    std::abort();
                }
                (void)r.key();
            }
            once::checkResultsFile(p.string());
            return 0;
        }
        once::Benchmark b;
        if (which == 0) {
            const fs::path p = dir / "action_count.json";
            writeFile(p, body);
            b = once::loadBenchmark("mvbench", p.string(), videos);
        } else if (which == 1) {
            const auto nul = body.find('\0');
            writeFile(dir / "ego" / "questions.json", body.substr(0, nul));
            writeFile(dir / "ego" / "subset_answers.json",
                      nul == std::string::npos ? std::string("{}") : body.substr(nul + 1));
            b = once::loadBenchmark("egoschema", (dir / "ego").string(), videos);
        } else {
            const fs::path p = dir / (which == 2 ? "videomme.jsonl" : "lvb_val.json");
            writeFile(p, body);
            b = once::loadBenchmark(which == 2 ? "videomme" : "longvideobench", p.string(), videos);
        }
        const std::string inside = fs::weakly_canonical(videos).string() + "/";
        for (const auto& q : b.questions) {
            if (q.videoPath.rfind(inside, 0) != 0) {
                std::abort();  // a video path outside the videos folder
            }
            if (q.answer < 0 || q.answer >= int(q.options.size())) {
                std::abort();
            }
            for (const char* out : {"A", "The answer is B", "(c) x", ""}) {
                (void)b.parse(out, q);
            }
        }
    } catch (const once::OnceError&) {
    }
    return 0;
}
