// Peak memory of the streamed Stage-B fit (docs/training.md "Memory"), measured rather than
// guessed: writes a synthetic Stage-A cache of U random unit rows of width D (shard files of
// 65,536 rows, one video per 1,024 rows), then runs fitCodebook on the mapped cache
// (train/cache_reader.h) and prints the process's peak resident set (getrusage ru_maxrss) and
// the time. Not a ctest (minutes at useful sizes); build and run by hand:
//   tests/cluster/tools/fit_memory_probe.sh U D K B [epochs]
// With epochs 0 it only writes the cache (with provenance, so that the exemplar selection of
// `once train fit` has work to do) and leaves it: fit_memory_probe.sh --cli measures the whole
// command on it.
#include <ATen/ATen.h>
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "train/cache_reader.h"
#include "train/sketch_provenance.h"
#include "train/stage_a_manifest.h"
#include "train/stage_b.h"
#include "util/atomic_file.h"

using namespace once;

// Anonymous resident memory (heap, tensors) from /proc/self/status, in GiB. The mapped cache's
// pages count in ru_maxrss but not here: the kernel evicts them under pressure.
static double rssAnonGiB() {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    char line[256];
    double kb = 0;
    while (f && std::fgets(line, sizeof line, f)) {
        if (std::sscanf(line, "RssAnon: %lf kB", &kb) == 1) {
            break;
        }
    }
    if (f)
        std::fclose(f);
    return kb / (1024.0 * 1024.0);
}

static double peakGiB() {
    rusage r{};
    getrusage(RUSAGE_SELF, &r);
    return double(r.ru_maxrss) / (1024.0 * 1024.0);
}

int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: %s DIR U D K B [epochs]\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    const std::int64_t u = std::stoll(argv[2]), d = std::stoll(argv[3]), k = std::stoll(argv[4]),
                       b = std::stoll(argv[5]);
    const int epochs = argc > 6 ? std::stoi(argv[6]) : 1;
    const std::int64_t perVideo = 1024, shardRows = 65536;
    std::filesystem::create_directories(dir);
    StageAManifest m;
    const std::int64_t videos = (u + perVideo - 1) / perVideo;
    nlohmann::json corpus = nlohmann::json::array();
    for (std::int64_t v = 0; v < videos; ++v) {
        corpus.push_back({{"source", "v" + std::to_string(v) + ".safetensors"}, {"category", ""}});
    }
    m.request = {{"bins", 4},
                 {"R", 256},
                 {"m_min", 16},
                 {"m_max_requested", perVideo},
                 {"cap", 0},
                 {"iterations", 10},
                 {"seed", 42},
                 {"shard_rows", shardRows},
                 {"backbone", "probe"},
                 {"corpus", corpus}};
    m.mMax = perVideo;
    m.backbone = "probe";
    m.dim = d;
    m.complete = true;
    m.provenance = true;
    at::manual_seed(1);
    std::int64_t row = 0;
    for (std::int64_t s = 0; row < u; ++s) {
        const std::int64_t n = std::min(shardRows, u - row);
        at::Tensor reps = at::randn({n, d});
        reps = (reps / reps.norm(2, {1}, true)).to(at::kBFloat16);
        at::Tensor video = (at::arange(row, row + n, at::kLong) / perVideo).to(at::kInt);
        SafetensorsWriter w;
        addTensor(w, "reps", reps);
        addTensor(w, "weights", at::full({n}, 2, at::kInt));
        addTensor(w, "category", at::full({n}, -1, at::kInt));
        addTensor(w, "video", video);
        addTensor(w, "bin", at::zeros({n}, at::kInt));
        // Exemplar patch of each row: frame = row within its video, a 1 x 1 grid.
        at::Tensor exemplar = at::zeros({n, kExemplarColumns}, at::kInt);
        exemplar.select(1, kExemplarFrame).copy_(at::arange(row, row + n, at::kLong) % perVideo);
        exemplar.select(1, kExemplarSourceFrame).fill_(-1);
        exemplar.select(1, kExemplarTimeMs).fill_(-1);
        exemplar.select(1, kExemplarGridRows).fill_(1);
        exemplar.select(1, kExemplarGridCols).fill_(1);
        addTensor(w, "exemplar", exemplar);
        w.setMetadata("format", kStageAShardFormat);
        w.write(dir + "/" + stageAShardName(std::size_t(s)));
        m.shards.push_back({stageAShardName(std::size_t(s)), n});
        row += n;
    }
    for (std::int64_t v = 0; v < videos; ++v) {
        StageAVideoRecord r;
        r.status = StageAVideoRecord::Status::Done;
        r.rowBegin = v * perVideo;
        r.rowEnd = std::min(u, (v + 1) * perVideo);
        r.reps = r.rowEnd - r.rowBegin;
        r.tokens = 2 * r.reps;
        r.shard = stageAShardName(std::size_t(r.rowBegin / shardRows));
        m.videos.push_back(r);
    }
    writeFileAtomically(dir + "/manifest.json", m.toJson().dump());
    const double afterWrite = peakGiB();
    if (epochs == 0) {
        std::printf("{\"U\": %lld, \"D\": %lld, \"cache_gib\": %.3f}\n", (long long)u, (long long)d,
                    double(u) * double(d) * 2 / double(1 << 30));
        return 0;
    }
    std::atomic<bool> stop{false};
    std::atomic<double> anonPeak{0};
    std::thread sampler([&] {
        while (!stop) {
            const double a = rssAnonGiB();
            if (a > anonPeak)
                anonPeak = a;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    const auto t0 = std::chrono::steady_clock::now();
    const CacheReader cache = CacheReader::open(dir);
    FitConfig c;
    c.codewords = k;
    c.batch = b;
    c.epochs = epochs;
    c.candidates = std::max<std::int64_t>(k, std::min<std::int64_t>(65536, u));
    FitResult r = fitCodebook(cache, c);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    stop = true;
    sampler.join();
    std::printf(
        "{\"U\": %lld, \"D\": %lld, \"K\": %lld, \"B\": %lld, \"epochs\": %d, "
        "\"cache_gib\": %.3f, \"peak_rss_gib_while_writing\": %.3f, \"peak_rss_gib\": %.3f, "
        "\"peak_anon_gib\": %.3f, \"seconds\": %.1f, \"selected_epoch\": %d}\n",
        (long long)u, (long long)d, (long long)k, (long long)b, epochs,
        double(u) * double(d) * 2 / double(1 << 30), afterWrite, peakGiB(), anonPeak.load(), secs,
        r.selectedEpoch);
    return 0;
}
