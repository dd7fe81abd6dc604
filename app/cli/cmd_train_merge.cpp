// once train merge: the Stage-A caches of the tasks of a sharded run -> the cache one process
// builds from the whole corpus, bit for bit (core/train/cache_merge.h, docs/cluster.md).
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/output_options.h"
#include "train/cache_merge.h"

namespace once::cli {
namespace {

void declare(ArgParser& p) {
    p.positional("SHARD", "cache folder of each task (`once train sketch --shard I/N`)", true, true)
        .option("output", "DIR", "merged cache folder (new or empty)", std::nullopt, "-o")
        .flag("json", "print a JSON summary (no progress bar)");
}

int run(const ArgParser& a) {
    Progress progress = terminalProgress(a.flagSet("json"));
    const CacheMergeSummary s = mergeSketchCaches(a.getAll("SHARD"), a.get("output"), &progress);
    if (a.flagSet("json")) {
        printJson({{"cache", a.get("output")},
                   {"shards", s.shards},
                   {"videos", s.videos},
                   {"done", s.done},
                   {"failed", s.failed},
                   {"reps", s.reps},
                   {"shard_files", s.files}});
    } else {
        std::cout << "merged " << s.shards << " shard caches: " << s.done << " of " << s.videos
                  << " video(s) sketched (" << s.failed << " failed), " << s.reps
                  << " representatives in " << s.files << " shard file(s) -> " << a.get("output")
                  << "\n";
    }
    return 0;
}

const CommandRegistrar reg{{"train merge",
                            "merge the Stage-A caches of a sharded run into one cache "
                            "(identical to a single-process run)",
                            declare, run}};

}  // namespace
}  // namespace once::cli
