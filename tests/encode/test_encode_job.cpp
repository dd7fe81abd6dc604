// The encode job end to end: `once encode` on the embedded demo video with --json, the feature
// file it writes, and the resumable batch over a folder and a JSONL manifest.
#include <ATen/ATen.h>

#include <QElapsedTimer>
#include <QProcess>
#include <QtTest>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "encode/batch_encode.h"
#include "encode/encode_job.h"
#include "features/feature_file.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "models/visual_encoder.h"
#include "support/test_support.h"
#include "util/error.h"
#include "util/sha256.h"
#include "video/sampling_rule.h"
#include "video/video_reader.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

const std::string kDemo = "resources/demo/demo.mp4";
const char* const kRealShort =
    "/usr/lib/python3/dist-packages/imageio/resources/images/realshort.mp4";

int countLines(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    int n = 0;
    while (std::getline(in, line))
        n += line.empty() ? 0 : 1;
    return n;
}

}  // namespace

class TestEncodeJob : public QObject {
    Q_OBJECT
  private slots:
    void cliEncodesDemoVideo() {
        const std::string out = test::tempDir() + "/demo.safetensors";
        const std::string video = test::sourcePath(kDemo);
        auto r = test::runCli({"encode", QString::fromStdString(video), "--sample", "uniform:16",
                               "-o", QString::fromStdString(out), "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["frames"].get<int>(), 16);
        QCOMPARE(j["patches"].get<int>(), 729);
        QCOMPARE(j["dim"].get<int>(), 64);
        QCOMPARE(j["grid"].get<std::string>(), std::string("27x27"));
        QCOMPARE(j["backbone"].get<std::string>(), std::string("demo"));
        QCOMPARE(j["video_info"]["frame_count"].get<int>(), 280);
        const std::string sha = Sha256::hexOfFile(video);
        QCOMPARE(j["source_sha256"].get<std::string>(), sha);

        EncodedVideo f = loadFeatureFile(out);
        QCOMPARE(f.features.sizes().vec(), (std::vector<std::int64_t>{16, 729, 64}));
        QCOMPARE(f.backbone, std::string("demo"));
        QCOMPARE(f.gridText(), std::string("27x27"));
        QCOMPARE(f.sampling, std::string("uniform:16"));
        QCOMPARE(f.source, std::string("demo.mp4"));
        QCOMPARE(f.sourceSha256, sha);
        // 280 frames at 20 fps: linspace(0, 279, 16) truncated; times = index / 20.
        QCOMPARE(f.frameTimes[1], 18 / 20.0);
        QCOMPARE(f.frameTimes[15], 279 / 20.0);
        QCOMPARE(f.extra.at("frame_indices").substr(0, 7), std::string("0,18,37"));

        // The same file through the library gives the same features (deterministic).
        EncodeOptions o;
        o.sampling = SamplingRule::parse("uniform:16");
        auto enc = makeVisualEncoder("demo", {});
        EncodedVideo g = encodeVideo(video, *enc, o);
        QVERIFY(at::equal(g.features, f.features));

        // Human-readable summary without --json; bf16 storage.
        r = test::runCli({"encode", QString::fromStdString(video), "--sample", "fps:1",
                          "--store-dtype", "bfloat16", "-o", QString::fromStdString(out)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("encoded 14 frames"), qPrintable(r.out));  // 14 s at fps:1
        QCOMPARE(loadFeatureFile(out).features.scalar_type(), at::kBFloat16);
    }

    void cliReportsErrors() {
        const std::string dir = test::tempDir();
        auto r = test::runCli({"encode", QString::fromStdString(dir + "/nothing.mp4"), "-o",
                               QString::fromStdString(dir + "/x.safetensors")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("nothing.mp4"), qPrintable(r.err));
        r = test::runCli({"encode", QString::fromStdString(test::sourcePath(kDemo)), "--sample",
                          "uniform:zero", "-o", QString::fromStdString(dir + "/x.safetensors")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("sampling"));
        r = test::runCli({"encode", QString::fromStdString(test::sourcePath(kDemo))});
        QCOMPARE(r.exitCode, 2);
        r = test::runCli({"encode", QString::fromStdString(test::sourcePath(kDemo)), "--backbone",
                          "nope", "-o", QString::fromStdString(dir + "/x.safetensors")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("demo"));
        QVERIFY(!fs::exists(dir + "/x.safetensors"));
    }

    void batchResumes() {
        const std::string root = test::tempDir();
        const std::string outDir = root + "/features";
        fs::create_directories(root + "/videos/sub");
        fs::copy_file(test::sourcePath(kDemo), root + "/videos/demo.mp4");
        fs::copy_file(kRealShort, root + "/videos/sub/realshort.mp4");
        std::ofstream(root + "/videos/broken.mp4") << "not a video";
        {
            std::ofstream m(root + "/videos/manifest.jsonl");
            m << R"({"video": "demo.mp4", "category": "demo"})"
              << "\n\n"
              << R"({"video": "sub/realshort.mp4", "category": "office"})"
              << "\n"
              << R"({"video": "broken.mp4", "category": "bad"})"
              << "\n";
        }
        EncodeOptions o;
        o.sampling = SamplingRule::parse("uniform:4");
        const std::string manifest = root + "/videos/manifest.jsonl";
        auto items = listBatch(manifest);
        QCOMPARE(items.size(), std::size_t(3));
        QCOMPARE(items[1].output, std::string("sub__realshort.safetensors"));
        QCOMPARE(items[1].category, std::string("office"));

        BatchReport first = encodeBatch(manifest, outDir, o);
        QCOMPARE(first.encoded, std::int64_t(2));
        QCOMPARE(first.skipped, std::int64_t(0));
        QCOMPARE(first.failures.size(), std::size_t(1));
        QVERIFY(first.failures[0].second.find("broken.mp4") != std::string::npos);
        QCOMPARE(countLines(outDir + "/" + kBatchManifestName), 2);

        // Rerun: both finished videos are skipped.
        BatchReport second = encodeBatch(manifest, outDir, o);
        QCOMPARE(second.encoded, std::int64_t(0));
        QCOMPARE(second.skipped, std::int64_t(2));

        // A killed run: the output is gone, only a temporary file is left. It does not count.
        fs::remove(outDir + "/demo.safetensors");
        std::ofstream(outDir + "/demo.safetensors.tmp-12345") << "half";
        BatchReport third = encodeBatch(manifest, outDir, o);
        QCOMPARE(third.encoded, std::int64_t(1));
        QCOMPARE(third.skipped, std::int64_t(1));
        QVERIFY(loadFeatureFile(outDir + "/demo.safetensors").features.size(0) == 4);

        // A different sampling rule is not "finished".
        o.sampling = SamplingRule::parse("uniform:2");
        BatchReport fourth = encodeBatch(manifest, outDir, o);
        QCOMPARE(fourth.encoded, std::int64_t(2));

        // Folder mode through the CLI, twice; the second run skips everything.
        const std::string outDir2 = root + "/features2";
        auto r = test::runCli({"encode", QString::fromStdString(root + "/videos"), "--out-dir",
                               QString::fromStdString(outDir2), "--sample", "uniform:3", "--json"});
        QCOMPARE(r.exitCode, 1);  // broken.mp4 fails, the others are written
        auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["encoded"].get<int>(), 1);  // folder mode: demo.mp4 (sub/ is not scanned)
        QCOMPARE(j["failed"].get<int>(), 1);
        r = test::runCli({"encode", "--manifest", QString::fromStdString(manifest), "--out-dir",
                          QString::fromStdString(outDir2), "--sample", "uniform:3", "--json"});
        j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["skipped"].get<int>(), 1);
        QCOMPARE(j["encoded"].get<int>(), 1);
    }

    void cliEncodesWithLlavaOnevision() {
        // `once encode --backbone llava-onevision` on a tiny random checkpoint that transformers
        // builds: pooled 2x2 grid, BF16 storage, the image_newline layout token, and the same
        // tokens the library's encoder gives for the same frames.
        const std::string dir = test::tempDir();
        auto ref = test::runPython(
            "llava_ov_vision_reference.py",
            {QString::fromStdString(dir), "--grid", "4", "--patch", "14", "--layer", "-2"});
        QVERIFY2(ref.exitCode == 0, qPrintable(ref.err.right(3000)));
        const std::string model = dir + "/model";
        const std::string out = dir + "/llava.safetensors";
        auto r = test::runCli(
            {"encode", QString::fromStdString(test::sourcePath(kDemo)), "--backbone",
             "llava-onevision", "--model", QString::fromStdString(model), "--sample", "uniform:3",
             "--pool-stride", "2", "--store-dtype", "bfloat16", "-o", QString::fromStdString(out),
             "--json", "--dtype", "float32"});  // as the library's encoder below (auto may be BF16)
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const EncodedVideo f = loadFeatureFile(out);
        QCOMPARE(f.features.scalar_type(), at::kBFloat16);
        QCOMPARE(f.features.size(0), std::int64_t{3});
        QCOMPARE(f.features.size(1), std::int64_t{4});  // 4x4 patches pooled to 2x2
        QCOMPARE(f.gridText(), std::string("2x2"));
        QVERIFY2(f.backbone.find("llava-onevision") != std::string::npos, f.backbone.c_str());
        QVERIFY(f.layoutTokens.defined());
        QCOMPARE(f.layoutTokens.size(0), std::int64_t{1});
        QCOMPARE(f.layoutTokens.size(1), f.features.size(2));

        EncoderOptions eo;
        eo.modelDir = model;
        eo.poolStride = 2;
        auto encoder = makeVisualEncoder("llava-onevision", eo);
        const SampledFrames frames =
            readFrames(test::sourcePath(kDemo), SamplingRule::parse("uniform:3"));
        const EncodedVideo v = encoder->encode(frames.rgb);
        QVERIFY(f.features.equal(v.features.to(at::kBFloat16)));
        QVERIFY(
            f.layoutTokens.to(at::kFloat).equal(v.layoutTokens.to(at::kBFloat16).to(at::kFloat)));
        // The attention each (pooled) token received in the vision tower is stored with them.
        QVERIFY(f.attention.defined());
        QCOMPARE(f.attention.sizes().vec(), (std::vector<std::int64_t>{3, 4}));
        QVERIFY(f.attention.equal(v.attention));

        // ...and VisionZip ranks by it in a real run: at B = 3 (one token per frame, all of it
        // dominant) each frame keeps exactly its most attended token.
        const std::string compressed = dir + "/visionzip.safetensors";
        r = test::runCli({"compress", "--features", QString::fromStdString(out), "--method",
                          "visionzip", "--budget", "3", "-o", QString::fromStdString(compressed)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto result = SafetensorsFile::open(compressed);
        const at::Tensor tokens = loadTensor(result, "tokens").to(at::kFloat);
        QCOMPARE(tokens.size(0), std::int64_t{3});
        for (std::int64_t t = 0; t < 3; ++t) {
            const std::int64_t top = f.attention[t].argmax().item<std::int64_t>();
            QVERIFY2(tokens[t].equal(f.features[t][top].to(at::kFloat)),
                     qPrintable(QStringLiteral("frame %1").arg(t)));
        }
    }

    void batchSurvivesSigkill() {
        // A real kill (SIGKILL) of `once encode FOLDER --out-dir` once the first video is
        // finished: every feature file left is whole and listed, no half file looks whole, and
        // the rerun encodes exactly the rest.
        const std::string root = test::tempDir();
        constexpr int kVideos = 8;
        fs::create_directories(root + "/videos");
        for (int i = 0; i < kVideos; ++i) {
            fs::copy_file(test::sourcePath(kDemo), root + "/videos/v" + std::to_string(i) + ".mp4");
        }
        const std::string outDir = root + "/features";
        const QStringList args{"encode",    QString::fromStdString(root + "/videos"),
                               "--out-dir", QString::fromStdString(outDir),
                               "--sample",  "uniform:32",
                               "--json"};
        QProcess p;
        p.start(QStringLiteral(ONCE_CLI_PATH), args);
        QVERIFY(p.waitForStarted());
        const std::string listed = outDir + "/" + kBatchManifestName;
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 120000 && (!fs::exists(listed) || countLines(listed) < 1)) {
            QTest::qWait(5);
        }
        ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished());
        const int done = countLines(listed);
        QVERIFY2(done >= 1 && done < kVideos, qPrintable(QString::number(done)));
        int whole = 0;
        for (const auto& e : fs::directory_iterator(outDir)) {
            const std::string name = e.path().filename().string();
            if (e.path().extension() == ".safetensors") {
                QCOMPARE(loadFeatureFile(e.path().string()).features.size(0), std::int64_t{32});
                ++whole;
            } else {
                QVERIFY2(name == kBatchManifestName || name.find(".tmp-") != std::string::npos,
                         name.c_str());
            }
        }
        QCOMPARE(whole, done);

        auto r = test::runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["skipped"].get<int>(), done);
        QCOMPARE(j["encoded"].get<int>(), kVideos - done);
        QCOMPARE(countLines(listed), kVideos);
    }

    void badManifest() {
        const std::string dir = test::tempDir();
        std::ofstream(dir + "/m.jsonl") << R"({"video": "a.mp4"})"
                                        << "\n"
                                        << "{oops\n";
        try {
            listBatch(dir + "/m.jsonl");
            QFAIL("no error");
        } catch (const OnceError& e) {
            QCOMPARE(e.where().field, std::string("line 2"));
        }
        QVERIFY_THROWS_EXCEPTION(OnceError, listBatch(dir + "/none.jsonl"));
    }
};

QTEST_GUILESS_MAIN(TestEncodeJob)
#include "test_encode_job.moc"
