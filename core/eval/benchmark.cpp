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

std::string withoutAnswerPrefixes(const std::string& output,
                                  std::initializer_list<const char*> prefixes) {
    const auto b = output.find_first_not_of(" \t\n\r\f\v");
    std::string s = b == std::string::npos
                        ? ""
                        : output.substr(b, output.find_last_not_of(" \t\n\r\f\v") - b + 1);
    for (const char* prefix : prefixes) {
        for (std::size_t at; (at = s.find(prefix)) != std::string::npos;) {
            s.erase(at, std::string(prefix).size());
        }
    }
    return s;
}

EvalRecord questionRecord(const std::string& benchmark, const EvalQuestion& q,
                          const std::string& method,
                          const std::map<std::string, std::string>& params, std::int64_t budget,
                          std::uint64_t seed) {
    return EvalRecord{.benchmark = benchmark,
                      .questionId = q.id,
                      .videoId = q.videoId,
                      .task = q.task,
                      .method = method,
                      .params = params,
                      .budget = budget,
                      .seed = seed,
                      .answer = optionLetter(q.answer)};
}

}  // namespace once
