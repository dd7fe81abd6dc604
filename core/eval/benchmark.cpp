#include "eval/benchmark.h"

#include <filesystem>

#include "eval/egoschema.h"
#include "eval/longvideobench.h"
#include "eval/mvbench.h"
#include "eval/videomme.h"
#include "util/error.h"

namespace once {

std::string optionLetter(int index) {
    return std::string(1, char('A' + index));
}

std::vector<std::string> benchmarkNames() {
    return {"mvbench", "egoschema", "videomme", "longvideobench"};
}

Benchmark loadBenchmark(const std::string& name, const std::string& annotations,
                        const std::string& videoDir) {
    if (!std::filesystem::exists(annotations)) {
        fail("annotations not found", annotations, "annotations", "an existing file or folder",
             "nothing at that path");
    }
    if (name == "mvbench") {
        return readMvbench(annotations, videoDir);
    }
    if (name == "egoschema") {
        return readEgoschema(annotations, videoDir);
    }
    if (name == "videomme") {
        return readVideomme(annotations, videoDir);
    }
    if (name == "longvideobench") {
        return readLongVideoBench(annotations, videoDir);
    }
    fail("unknown benchmark", {}, "benchmark", "mvbench, egoschema, videomme or longvideobench",
         name);
}

std::string resolveVideo(const std::string& dir, const std::vector<std::string>& candidates) {
    namespace fs = std::filesystem;
    for (const auto& c : candidates) {
        fs::path p = fs::path(dir) / c;
        if (fs::exists(p)) {
            return p.string();
        }
    }
    return (fs::path(dir) / candidates.front()).string();
}

}  // namespace once
