#include "eval/benchmark.h"

#include <filesystem>

#include "eval/egoschema.h"
#include "eval/longvideobench.h"
#include "eval/mvbench.h"
#include "eval/videomme.h"
#include "util/error.h"
#include "util/safe_path.h"

namespace once {

std::string optionLetter(int index) {
    return std::string(1, char('A' + index));
}

std::vector<std::string> benchmarkNames() {
    return {"mvbench", "egoschema", "videomme", "longvideobench"};
}

Benchmark loadBenchmark(const std::string& name, const std::string& annotations,
                        const std::string& videoDir) {
    std::error_code ec;
    if (!std::filesystem::exists(annotations, ec)) {
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

std::string resolveVideo(const std::string& dir, const std::vector<std::string>& candidates,
                         const std::string& file, const std::string& field) {
    std::vector<std::string> resolved;
    for (const auto& c : candidates) {
        resolved.push_back(resolveInside(dir, c, file, field));
    }
    for (const auto& p : resolved) {
        std::error_code ec;
        if (std::filesystem::exists(p, ec)) {
            return p;
        }
    }
    return resolved.front();
}

}  // namespace once
