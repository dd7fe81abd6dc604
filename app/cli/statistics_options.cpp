#include "cli/statistics_options.h"

#include "eval/report.h"  // kMaxBootstrapResamples

namespace once::cli {

void declareBootstrap(ArgParser& p, const std::string& help, std::int64_t resamples,
                      std::uint64_t seed) {
    p.option("bootstrap", "N", help, std::to_string(resamples))
        .integerIn(0, kMaxBootstrapResamples)
        .option("bootstrap-seed", "S", "bootstrap seed", std::to_string(seed))
        .integerIn(0, kMaxSeedOption);
}

void declareRandomCodebooks(ArgParser& p, const std::string& help, std::int64_t min,
                            std::int64_t count, const std::string& seedHelp, std::uint64_t seed) {
    p.option("random-codebooks", "N", help, std::to_string(count))
        .integerIn(min, kMaxRandomCodebooks)
        .option("random-seed", "S", seedHelp, std::to_string(seed))
        .integerIn(0, kMaxSeedOption);
}

}  // namespace once::cli
