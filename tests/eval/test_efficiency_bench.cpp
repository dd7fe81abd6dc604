// `once bench` (core/eval/efficiency_bench.*, app/cli/cmd_bench.cpp) at a tiny shape: a tiny
// random LLaVA-OneVision with the published geometry (tests/reference/llava_ov_model_folder.py),
// a real clip, Dense, ONCE, ForestPrune and FastVID at two budgets. Every column is present and
// consistent (Dense speed-up 1, content tokens <= budget, times positive, the fixed number of
// new tokens decoded), the CSV has the same rows, the studio's reader reads the JSON back, and
// bad input is refused before any work with nothing written.
#include <QtTest>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "eval/efficiency_bench_file.h"
#include "support/models_fixture.h"
#include "support/test_support.h"

using namespace once;

namespace {

const QStringList kNumbers = {
    "visual_tokens",       "content_tokens",  "source_tokens", "prepare_ms", "compress_ms",
    "compression_ms",      "prefill_ms",      "prefill_ms_sd", "ttft_ms",    "decode_ms",
    "decode_tokens_per_s", "e2e_ms",          "e2e_ms_sd",     "e2e_ms_min", "e2e_ms_max",
    "e2e_speedup",         "prefill_speedup", "prefill_flops", "samples",    "new_tokens",
    "peak_rss_bytes"};

}  // namespace

class TestEfficiencyBench : public QObject {
    Q_OBJECT
    std::string dir_, model_, codebook_;

    QStringList base(const std::string& out) const {
        return {"bench",
                test::kRealClip,
                "--model",
                QString::fromStdString(model_),
                "--frames",
                "2",
                "--pool-stride",
                "2",
                "--dtype",
                "float32",
                "--codebook",
                QString::fromStdString(codebook_),
                "-o",
                QString::fromStdString(out)};
    }

    /// Runs `once bench` with `extra`; expects a refusal naming `needle` and no output written.
    void expectRefused(const QStringList& extra, const QString& needle) {
        const std::string out = dir_ + "/refused.json";
        const auto r = test::runCli(base(out) + extra);
        QVERIFY2(r.exitCode != 0, qPrintable(r.out));
        QVERIFY2(r.err.contains(needle), qPrintable(r.err));
        QVERIFY(!std::filesystem::exists(out));
    }

  private slots:
    void initTestCase() {
        dir_ = test::tempDir();
        model_ = dir_ + "/model";
        const auto made =
            test::runPython("llava_ov_model_folder.py", {QString::fromStdString(model_)});
        QVERIFY2(made.exitCode == 0, qPrintable(made.err));
        codebook_ = dir_ + "/codebook.safetensors";
        test::writeRandomCodebook(codebook_, 40, 112, "llava-onevision", "projected patch grid");
    }

    void everyColumnIsPresentAndConsistent() {
        const std::string out = dir_ + "/bench.json";
        const auto r = test::runCli(
            base(out) + QStringList{"--methods", "dense,once,forestprune,fastvid", "--budgets",
                                    "16,64", "--new-tokens", "3", "--reps", "2", "--warmup", "1",
                                    "--csv", QString::fromStdString(dir_ + "/bench")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("forestprune"), qPrintable(r.out));  // the printed table
        const nlohmann::json j = nlohmann::json::parse(test::readText(out));
        QCOMPARE(j["format"].get<std::string>(), std::string("once-bench/1"));
        for (const char* k : {"cpu_model", "cpu_flags", "threads", "logical_cpus", "device",
                              "torch_version", "gpu"}) {
            QVERIFY2(j["machine"].contains(k), k);
        }
        QVERIFY(j["machine"]["gpu"].is_null());  // CPU run
        QCOMPARE(j["videos"].size(), std::size_t(1));
        QCOMPARE(j["videos"][0]["frames"].get<int>(), 2);
        QCOMPARE(j["videos"][0]["source_tokens"].get<int>(), 2 * 196);
        QVERIFY(j["videos"][0]["encode_ms"].get<double>() > 0);
        const auto& rows = j["rows"];
        QCOMPARE(rows.size(), std::size_t(1 + 3 * 2));
        QCOMPARE(rows[0]["method"].get<std::string>(), std::string("dense"));
        QVERIFY(rows[0]["budget"].is_null());
        QCOMPARE(rows[0]["e2e_speedup"].get<double>(), 1.0);
        QCOMPARE(rows[0]["prefill_speedup"].get<double>(), 1.0);
        QCOMPARE(rows[0]["content_tokens"].get<double>(), 2.0 * 196);
        for (const auto& row : rows) {
            const std::string where = row.dump();
            for (const QString& k : kNumbers) {
                QVERIFY2(row.contains(k.toStdString()) && row[k.toStdString()].is_number(),
                         qPrintable(k + " in " + QString::fromStdString(where)));
            }
            // The CPU has no CUDA peaks: present and null.
            QVERIFY(row["cuda_peak_reserved_bytes"].is_null());
            QVERIFY(row["cuda_peak_allocated_bytes"].is_null());
            QCOMPARE(row["samples"].get<int>(), 2);
            QCOMPARE(row["new_tokens"].get<int>(), 3);
            for (const char* t :
                 {"prefill_ms", "ttft_ms", "decode_ms", "e2e_ms", "e2e_ms_min",
                  "decode_tokens_per_s", "prefill_flops", "e2e_speedup", "prefill_speedup"}) {
                QVERIFY2(row[t].get<double>() > 0, (std::string(t) + " in " + where).c_str());
            }
            QVERIFY(row["e2e_ms_min"].get<double>() <= row["e2e_ms"].get<double>());
            QVERIFY(row["e2e_ms"].get<double>() <= row["e2e_ms_max"].get<double>());
            QVERIFY(row["ttft_ms"].get<double>() < row["e2e_ms"].get<double>());
            QVERIFY(row["peak_rss_bytes"].get<double>() > 0);
            QCOMPARE(row["source_tokens"].get<double>(), 2.0 * 196);
            // Compression = prepare + compress; TTFT = compression + prefill.
            QVERIFY(std::abs(row["compression_ms"].get<double>() - row["prepare_ms"].get<double>() -
                             row["compress_ms"].get<double>()) < 1e-6);
            QVERIFY(std::abs(row["ttft_ms"].get<double>() - row["compression_ms"].get<double>() -
                             row["prefill_ms"].get<double>()) < 1e-6);
            if (row["method"] != "dense") {
                const auto b = row["budget"].get<double>();
                QVERIFY2(row["content_tokens"].get<double>() <= b, where.c_str());
                QVERIFY2(row["content_tokens"].get<double>() >= 1, where.c_str());
                QVERIFY2(row["compression_ms"].get<double>() > 0, where.c_str());
                // One newline token after the compressed rows (LLaVA-OneVision's layout).
                QCOMPARE(row["visual_tokens"].get<double>(),
                         row["content_tokens"].get<double>() + 1);
                QVERIFY(row["prefill_flops"].get<double>() <
                        rows[0]["prefill_flops"].get<double>());
            }
        }
        // ONCE's assignment is prepared once per video: both budgets carry the same prepare time.
        QCOMPARE(rows[1]["method"].get<std::string>(), std::string("once"));
        QCOMPARE(rows[1]["prepare_ms"].get<double>(), rows[2]["prepare_ms"].get<double>());
        QVERIFY(rows[1]["prepare_ms"].get<double>() > 0);

        // The CSV has a header with every column and one line per row.
        const QStringList csv = QString::fromStdString(test::readText(dir_ + "/bench_rows.csv"))
                                    .split('\n', Qt::SkipEmptyParts);
        QCOMPARE(csv.size(), 1 + 7);
        const QStringList header = csv[0].split(',');
        for (const QString& k : kNumbers + QStringList{"method", "budget"}) {
            QVERIFY2(header.contains(k), qPrintable(k));
        }
        QVERIFY(csv[1].startsWith("dense,,"));
        QVERIFY(std::filesystem::exists(dir_ + "/bench_videos.csv"));

        // The studio's reader reads it back.
        const EfficiencyBench back = loadEfficiencyBench(out);
        QCOMPARE(back.rows.size(), std::size_t(7));
        QCOMPARE(back.rows[3].method, std::string("forestprune"));
        QCOMPARE(back.rows[3].budget, std::int64_t(16));
        QCOMPARE(back.rows[0].e2eSpeedup, 1.0);
        QCOMPARE(back.rows[0].cudaPeakReservedBytes, std::int64_t(-1));
        QCOMPARE(back.settings.at("sampling"), std::string("uniform:2"));
    }

    void featureFilesAreMeasuredLikeVideos() {
        // A build without a video decoder (the GPU preset) measures encoded features instead.
        const std::string features = dir_ + "/clip.safetensors";
        auto r = test::runCli({"encode", test::kRealClip, "--model", QString::fromStdString(model_),
                               "--sampling", "uniform:2", "--pool-stride", "2", "--dtype",
                               "float32", "-o", QString::fromStdString(features)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const std::string out = dir_ + "/features.json";
        r = test::runCli({"bench", "--features", QString::fromStdString(features), "--model",
                          QString::fromStdString(model_), "--methods", "dense,forestprune",
                          "--budgets", "16", "--reps", "1", "--warmup", "0", "--new-tokens", "2",
                          "--dtype", "float32", "-o", QString::fromStdString(out)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const nlohmann::json j = nlohmann::json::parse(test::readText(out));
        QCOMPARE(j["videos"][0]["input"].get<std::string>(), std::string("features"));
        QCOMPARE(j["videos"][0]["source_tokens"].get<int>(), 2 * 196);
        QCOMPARE(j["rows"].size(), std::size_t(2));
        QVERIFY(j["rows"][1]["content_tokens"].get<double>() <= 16);
        QCOMPARE(loadEfficiencyBench(out).videos.at(0).featureFile, true);
    }

    void badInputIsRefusedBeforeAnyWork() {
        expectRefused({"--methods", "dense,nosuch"}, "nosuch");
        expectRefused({"--methods", "forestprune", "--budgets", "0,16"}, "budget");
        expectRefused({"--methods", "forestprune", "--param", "forestprune.depth=1"}, "depth");
        expectRefused({"--methods", "forestprune,forestprune"}, "twice");
        expectRefused({"--reps", "0"}, "reps");
        // A codebook of another backbone (and width) is refused before the video is encoded.
        const std::string other = dir_ + "/qwen_codebook.safetensors";
        test::writeRandomCodebook(other, 40, 64, "qwen3.5", "merged patches");
        expectRefused({"--methods", "dense,once", "--codebook", QString::fromStdString(other)},
                      "codebook");
        // A missing model folder, a missing video, an output in a missing folder.
        const std::string out = dir_ + "/missing.json";
        auto r = test::runCli({"bench", test::kRealClip, "--model",
                               QString::fromStdString(dir_ + "/nomodel"), "--methods", "dense",
                               "-o", QString::fromStdString(out)});
        QVERIFY(r.exitCode != 0 && r.err.contains("nomodel"));
        QVERIFY(!std::filesystem::exists(out));
        r = test::runCli({"bench", QString::fromStdString(dir_ + "/no.mp4"), "--model",
                          QString::fromStdString(model_), "--methods", "dense", "-o",
                          QString::fromStdString(out)});
        QVERIFY(r.exitCode != 0 && r.err.contains("no.mp4"));
        r = test::runCli({"bench", test::kRealClip, "--model", QString::fromStdString(model_),
                          "--methods", "dense", "-o",
                          QString::fromStdString(dir_ + "/nofolder/out.json")});
        QVERIFY(r.exitCode != 0 && r.err.contains("nofolder"));
    }

    void readerRefusesOtherFiles() {
        const std::string path = dir_ + "/other.json";
        test::writeText(path, R"({"format": "once-features/1", "rows": []})");
        QVERIFY(
            QString(test::errorOf([&] { loadEfficiencyBench(path); }).what()).contains("format"));
        test::writeText(
            path, R"({"format": "once-bench/1", "machine": {}, "rows": [{"method": "dense"}]})");
        QVERIFY(
            QString(test::errorOf([&] { loadEfficiencyBench(path); }).what()).contains("samples"));
        test::writeText(
            path, R"({"format": "once-bench/1", "machine": {}, "rows": [{"method": "tome"}]})");
        QVERIFY(
            QString(test::errorOf([&] { loadEfficiencyBench(path); }).what()).contains("budget"));
    }
};

QTEST_GUILESS_MAIN(TestEfficiencyBench)
#include "test_efficiency_bench.moc"
