// Qwen3.5 end to end, from a real video file to the answer, against transformers as its users
// run it (tests/reference/qwen3_5_video_path.py): a tiny random Qwen3_5ForConditionalGeneration
// with the published geometry (patch 16, temporal patch 2, merge 2; head_dim 256, M-RoPE
// [11, 11, 10]; DeltaNet 16/32 heads), saved by transformers 5 with its Qwen3VLProcessor.
// `once ask --backbone auto` (detected from config.json) with the backbone's default sampling
// (fps:2:4:256) must give transformers' prompt ids, M-RoPE positions and greedy ids dense, and
// with ONCE at a budget the ids, positions and greedy ids of the documented pooled-token rule
// (docs/models.md) applied by the reference to transformers' own features. Then: the
// qwen3-vl layout, encode → feature file → ask, ONCE on Qwen3.5 features against the NumPy
// reference, every peer on Qwen3.5 features, refusals, and Stage A/B from the video and at the
// 9B's width D = 4,096.
#include <ATen/ATen.h>

#include <QtTest>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "codebook/codebook.h"
#include "compress/compression.h"
#include "compress/token_compressor.h"
#include "features/feature_file.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "pipeline/session.h"
#include "support/models_fixture.h"
#include "support/test_support.h"
#include "util/atomic_file.h"
#include "util/error.h"

using namespace once;

namespace {

const char* const kClip = test::kRealClip;
const char* kQuestion = "What is in the video? Answer briefly.";
constexpr int kBudget = 12;

}  // namespace

class TestQwen3_5Path : public QObject {
    Q_OBJECT
    std::string dir_, model_, codebook_, features_;
    nlohmann::json ref_;

    test::ProcessResult cli(const QStringList& args) {
        auto r = test::runCli(args);
        if (r.exitCode != 0) {
            qWarning().noquote() << r.err;
        }
        return r;
    }

    /// `once ask` on the clip (or `source` given as --features FILE) as JSON.
    nlohmann::json ask(const QStringList& extra, const QStringList& source = {}) {
        const QStringList input = source.isEmpty() ? QStringList{kClip} : source;
        auto r = cli(QStringList{"ask"} + input +
                     QStringList{"--model", QString::fromStdString(model_), "--question", kQuestion,
                                 "--max-new-tokens", "12", "--json", "--dtype", "float32"} +
                     extra);
        [&] { QCOMPARE(r.exitCode, 0); }();
        return nlohmann::json::parse(r.out.toStdString());
    }

    std::vector<std::int64_t> ids(const nlohmann::json& j) {
        return j.get<std::vector<std::int64_t>>();
    }

  private slots:
    void initTestCase() {
        if (!QFileInfo::exists(kClip)) {
            QFAIL("the real clip of python3-imageio is missing: run scripts/setup.sh");
        }
        dir_ = test::tempDir();
        model_ = dir_ + "/model";
        codebook_ = dir_ + "/codebook.safetensors";
        features_ = dir_ + "/features.safetensors";
        test::writeRandomCodebook(codebook_, 40, 64, "qwen3.5",
                                  "merged patch grid (2x2 merger output)");
        const auto ref = test::runPathReference(
            "qwen3_5_video_path.py", dir_,
            {kClip, "--question", kQuestion, "--codebook", QString::fromStdString(codebook_),
             "--budget", QString::number(kBudget)});
        QVERIFY(ref);
        ref_ = *ref;
    }

    void denseMatchesTransformers() {
        // No --backbone and no --sampling: detected from config.json, fps:2:4:256 by default.
        const nlohmann::json j = ask({"--dense"});
        QCOMPARE(j["backbone"].get<std::string>(), std::string("qwen3.5"));
        QCOMPARE(j["sampling"].get<std::string>(), std::string("fps:2:4:256"));
        const auto grid = ids(ref_["grid"]);
        QCOMPARE(ref_["frames"].get<int>(), 4);  // 1.2 s at 2 FPS, at least 4 frames
        const std::int64_t content = grid[0] * (grid[1] / 2) * (grid[2] / 2);
        QCOMPARE(ref_["content_tokens"].get<std::int64_t>(), content);
        QCOMPARE(j["visual_tokens"]["content"].get<std::int64_t>(), content);
        QCOMPARE(j["visual_tokens"]["source"].get<std::int64_t>(), content);
        // Timestamps and vision start/end are layout tokens, counted as transformers has them.
        QCOMPARE(j["visual_tokens"]["layout"].get<std::int64_t>(),
                 ref_["layout_tokens"].get<std::int64_t>());
        QCOMPARE(j["placeholder_index"].get<std::int64_t>(), std::int64_t(-1));
        QCOMPARE(ids(j["prompt_ids"]), ids(ref_["input_ids"]));
        QVERIFY(ids(ref_["input_ids"]).size() > 64);  // longer than one DeltaNet chunk
        QVERIFY(j["prompt_positions"] == ref_["positions"]);
        QCOMPARE(j["prompt_tokens"].get<std::size_t>(), ids(ref_["input_ids"]).size());
        const auto want = ids(ref_["generated"]), got = ids(j["token_ids"]);
        qInfo("dense greedy ids: transformers %s, once %s", nlohmann::json(want).dump().c_str(),
              nlohmann::json(got).dump().c_str());
        QCOMPARE(got, want);
        QVERIFY(j["prefill_flops"].get<double>() > 0);
    }

    void compressedMatchesTheRuleAppliedToTransformers() {
        for (const char* rule : {"first", "mean"}) {
            QStringList extra{"--codebook", QString::fromStdString(codebook_), "--budget",
                              QString::number(kBudget)};
            if (std::string(rule) != "first") {
                extra << "--positions" << rule;  // "first" is the default
            }
            const nlohmann::json j = ask(extra);
            const nlohmann::json& want = ref_["compressed_" + std::string(rule)];
            const QByteArray what = QByteArray("rule ") + rule;
            QVERIFY2(j["visual_tokens"]["content"].get<std::int64_t>() <= kBudget, what);
            QCOMPARE(j["visual_tokens"]["content"].get<std::int64_t>(),
                     want["content_tokens"].get<std::int64_t>());
            QCOMPARE(j["visual_tokens"]["layout"].get<std::int64_t>(),
                     ref_["layout_tokens"].get<std::int64_t>());
            QVERIFY2(ids(j["prompt_ids"]) == ids(want["ids"]), what);
            QVERIFY2(j["prompt_positions"] == want["positions"], what);
            const auto wantIds = ids(want["generated"]), got = ids(j["token_ids"]);
            qInfo("ONCE B=%d positions=%s greedy ids: transformers %s, once %s", kBudget, rule,
                  nlohmann::json(wantIds).dump().c_str(), nlohmann::json(got).dump().c_str());
            QVERIFY2(got == wantIds, what);
        }
        // The two rules do give different positions on this video.
        QVERIFY(ref_["compressed_first"]["positions"] != ref_["compressed_mean"]["positions"]);
        // Sequential: the compressed prompt re-packed 0 … S-1 on all three axes.
        const nlohmann::json s = ask({"--codebook", QString::fromStdString(codebook_), "--budget",
                                      QString::number(kBudget), "--positions", "sequential"});
        QCOMPARE(ids(s["prompt_ids"]), ids(ref_["compressed_first"]["ids"]));
        for (const auto& axis : s["prompt_positions"]) {
            const auto p = ids(axis);
            for (std::size_t i = 0; i < p.size(); ++i) {
                QCOMPARE(p[i], std::int64_t(i));
            }
        }
    }

    void qwen3VlLayoutOnRequest() {
        // Qwen's original processor replaces the template's whole vision start/pad/end: the
        // transformers 5 prompt without its outer pair.
        const nlohmann::json j = ask({"--dense", "--prompt-format", "qwen3-vl"});
        auto want = ids(ref_["input_ids"]);
        const std::int64_t video = ref_["video_token_id"].get<std::int64_t>();
        const auto firstPad = std::find(want.begin(), want.end(), video) - want.begin();
        const auto lastPad = want.rend() - std::find(want.rbegin(), want.rend(), video) - 1;
        // Outer <|vision_start|> before the first timestamp, outer <|vision_end|> after the
        // inner one that closes the last group.
        const std::int64_t outerEnd = lastPad + 2;
        std::int64_t outerStart = firstPad - 1;
        while (outerStart > 0 &&
               want[std::size_t(outerStart - 1)] != want[std::size_t(firstPad - 1)]) {
            --outerStart;
        }
        --outerStart;
        QCOMPARE(want[std::size_t(outerStart)], want[std::size_t(firstPad - 1)]);
        want.erase(want.begin() + outerEnd);
        want.erase(want.begin() + outerStart);
        QCOMPARE(ids(j["prompt_ids"]), want);
        QCOMPARE(j["visual_tokens"]["layout"].get<std::int64_t>(),
                 ref_["layout_tokens"].get<std::int64_t>() - 2);
        QVERIFY(j["prompt_format"].get<std::string>().find("qwen3-vl") != std::string::npos);
    }

    void refusals() {
        const QString model = QString::fromStdString(model_);
        auto r = test::runCli({"ask", kClip, "--model", model, "--dense", "--question", "x",
                               "--backbone", "llava-onevision"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("config.json") && r.err.contains("backbone") &&
                     r.err.contains("qwen3.5"),
                 qPrintable(r.err));
        r = test::runCli({"ask", kClip, "--model", model, "--dense", "--question", "x",
                          "--positions", "centre"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("positions") && r.err.contains("first, mean or sequential"),
                 qPrintable(r.err));
        r = test::runCli({"ask", kClip, "--model", model, "--dense", "--question", "x",
                          "--prompt-format", "llava-next"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("prompt-format") && r.err.contains("qwen3-vl"), qPrintable(r.err));
        // Features of another encoder have no place in Qwen's prompt, even at the same width.
        const std::string demo = dir_ + "/demo_features.safetensors";
        test::writeFeatureFile(at::randn({2, 24, 64}), demo);
        r = test::runCli({"ask", "--features", QString::fromStdString(demo), "--model", model,
                          "--dense", "--question", "x"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("Qwen3.5 vision encoder") && r.err.contains("demo"),
                 qPrintable(r.err));
    }

    void encodeThenAskTheFeatureFile() {
        auto r = cli({"encode", kClip, "--model", QString::fromStdString(model_), "--dtype",
                      "float32", "-o", QString::fromStdString(features_), "--json"});
        QCOMPARE(r.exitCode, 0);
        const auto e = nlohmann::json::parse(r.out.toStdString());
        const auto grid = ids(ref_["grid"]);
        QCOMPARE(e["backbone"].get<std::string>(), std::string("qwen3.5"));
        QCOMPARE(e["sampling"].get<std::string>(), std::string("fps:2:4:256"));
        QCOMPARE(e["frames"].get<std::int64_t>(), grid[0]);  // one per temporal pair
        QCOMPARE(e["patches"].get<std::int64_t>(), (grid[1] / 2) * (grid[2] / 2));
        QCOMPARE(e["grid"].get<std::string>(),
                 std::to_string(grid[1] / 2) + "x" + std::to_string(grid[2] / 2));
        const EncodedVideo v = loadFeatureFile(features_);
        QCOMPARE(std::int64_t(v.frameTimes.size()), grid[0]);
        QCOMPARE(v.extra.at("temporal_patch_size"), std::string("2"));
        const QStringList f{"--features", QString::fromStdString(features_)};
        const nlohmann::json dense = ask({"--dense"}, f);
        QCOMPARE(ids(dense["prompt_ids"]), ids(ref_["input_ids"]));
        QCOMPARE(ids(dense["token_ids"]), ids(ref_["generated"]));
        const nlohmann::json once = ask(
            {"--codebook", QString::fromStdString(codebook_), "--budget", QString::number(kBudget)},
            f);
        QCOMPARE(ids(once["prompt_ids"]), ids(ref_["compressed_first"]["ids"]));
        QCOMPARE(ids(once["token_ids"]), ids(ref_["compressed_first"]["generated"]));
    }

    void onceOnQwenFeaturesIsTheReferenceRule() {
        if (!QFileInfo::exists(QString::fromStdString(features_))) {
            encodeThenAskTheFeatureFile();
        }
        const std::string out = dir_ + "/once_ref.safetensors";
        auto r =
            test::runPython("once_on_features.py",
                            {QString::fromStdString(features_), QString::fromStdString(codebook_),
                             QString::fromStdString(out), "--budgets", "1,5,12,30,60"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto file = SafetensorsFile::open(out);
        const EncodedVideo v = loadFeatureFile(features_);
        const at::Tensor x = v.features.to(at::kFloat);
        QVERIFY(at::equal(x, loadTensor(file, "features")));
        const Codebook cb = Codebook::load(codebook_);
        const Assignment a = assignTokens(x, cb, {});
        int checked = 0;
        for (const std::string& variant : variantNames()) {
            for (std::int64_t b : {1, 5, 12, 30, 60}) {
                const std::string key = variant + "/" + std::to_string(b) + "/";
                CompressOptions o;
                o.budget = b;
                o.variant = parseVariant(variant);
                o.seed = 7;
                const CompressionResult c = compressAssigned(x, a, cb, o);
                const QByteArray where = QByteArray::fromStdString(key);
                QVERIFY2(at::equal(c.codewordIds, loadTensor(file, key + "codeword_ids")), where);
                QVERIFY2(at::equal(c.groupOfToken, loadTensor(file, key + "group_of_token")),
                         where);
                QVERIFY2(test::maxAbsDiff(c.tokens, loadTensor(file, key + "tokens")) < 2e-5,
                         where);
                ++checked;
            }
        }
        QCOMPARE(checked, int(variantNames().size()) * 5);
    }

    void everyPeerRunsOnQwenFeatures() {
        if (!QFileInfo::exists(QString::fromStdString(features_))) {
            encodeThenAskTheFeatureFile();
        }
        SessionOptions so;
        so.modelDir = model_;
        Session session(so);
        QCOMPARE(session.options().backbone, std::string("qwen3.5"));
        session.loadFeatures(features_);
        const EncodedVideo& v = session.video();
        const std::int64_t video = ref_["video_token_id"].get<std::int64_t>();
        int peers = 0;
        for (const CompressorInfo& info : compressorInfos()) {
            if (info.needsCodebook) {
                continue;
            }
            // Every peer works on Qwen's merged grid (a feature frame is a pair of frames, a
            // cell 2 x 2 patches); a budget below a method's minimum keeps nothing.
            BudgetShape shape{v.numFrames(), v.patchesPerFrame(), v.gridH, v.gridW, 0};
            const std::int64_t b = std::max<std::int64_t>(8, budgetRange(info.method, shape).min);
            AskOptions ao;
            ao.budget = b;
            ao.method = info.method;
            ao.maxNewTokens = 2;
            const QByteArray what = QByteArray::fromStdString(info.method);
            try {
                const AskReport rep = session.ask(kQuestion, ao);
                QVERIFY2(rep.contentTokens >= 1 && rep.contentTokens <= b, what);
                QCOMPARE(rep.layoutTokens, ref_["layout_tokens"].get<std::int64_t>());
                QCOMPARE(std::count(rep.promptIds.begin(), rep.promptIds.end(), video),
                         std::ptrdiff_t(rep.contentTokens));
                QCOMPARE(rep.promptPositions.size(), std::size_t(3));
                QVERIFY2(!rep.tokenIds.empty(), what);
            } catch (const OnceError& e) {
                QFAIL(qPrintable(what + ": " + e.what()));
            }
            ++peers;
        }
        QVERIFY(peers >= 7);
    }

    void evaluationHarnessRunsQwen() {
        // `once eval` on an MVBench-format fixture whose videos are the clip: the backbone and
        // its sampling come from the folder, dense and ONCE records carry Qwen's token counts,
        // and a run with another position rule is another configuration.
        const QString root = QString::fromStdString(dir_ + "/bench");
        auto m = test::runPython("eval_benchmarks.py", {"make", root, kClip});
        QVERIFY2(m.exitCode == 0, qPrintable(m.err));
        const QString out = root + "/results.jsonl";
        const QStringList args{"eval",
                               "--benchmark",
                               "mvbench",
                               "--annotations",
                               root + "/mvbench",
                               "--videos",
                               root + "/videos/mvbench",
                               "--model",
                               QString::fromStdString(model_),
                               "--methods",
                               "once",
                               "--budgets",
                               "4",
                               "--codebook",
                               QString::fromStdString(codebook_),
                               "--limit",
                               "2",
                               "--dtype",
                               "float32",
                               "--bootstrap",
                               "10",
                               "-o",
                               out};
        auto r = cli(args);
        QCOMPARE(r.exitCode, 0);
        std::ifstream in(out.toStdString());
        int records = 0;
        for (std::string line; std::getline(in, line);) {
            const auto j = nlohmann::json::parse(line);
            QVERIFY2(
                j["config"].get<std::string>().find("sampling=fps:2:4:256") != std::string::npos,
                line.c_str());
            QCOMPARE(j["visual_tokens"]["layout"].get<std::int64_t>(),
                     ref_["layout_tokens"].get<std::int64_t>());
            const auto content = j["visual_tokens"]["content"].get<std::int64_t>();
            if (j["method"] == "dense") {
                QCOMPARE(content, ref_["content_tokens"].get<std::int64_t>());
            } else {
                QVERIFY(content >= 1 && content <= 4);
            }
            ++records;
        }
        QCOMPARE(records, 4);  // 2 questions × (dense, once at 4)
        r = test::runCli(args + QStringList{"--positions", "mean"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("positions=mean"), qPrintable(r.err));
    }

    void stageAAndBFromTheVideo() {
        const std::string dir = dir_ + "/train_video";
        std::filesystem::create_directories(dir);
        writeFileAtomically(dir + "/corpus.jsonl",
                            std::string("{\"video\": \"") + kClip + "\", \"category\": \"a\"}\n" +
                                "{\"video\": \"" + kClip + "\", \"category\": \"b\"}\n");
        const QString d = QString::fromStdString(dir);
        auto r = cli({"train", "sketch", "--manifest", d + "/corpus.jsonl", "--model",
                      QString::fromStdString(model_), "-o", d + "/cache", "--R", "4", "--bins", "2",
                      "--m-min", "2", "--m-max", "4", "--json"});
        QCOMPARE(r.exitCode, 0);
        const auto s = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(s["done"].get<int>(), 2);
        QCOMPARE(s["source_tokens"].get<std::int64_t>(),
                 2 * ref_["content_tokens"].get<std::int64_t>());
        r = cli({"train", "fit", "--cache", d + "/cache", "-K", "4", "--candidates", "16",
                 "--batch", "8", "--epochs", "1", "-o", d + "/cb.safetensors"});
        QCOMPARE(r.exitCode, 0);
        const Codebook cb = Codebook::load(dir + "/cb.safetensors");
        QCOMPARE(cb.dim(), std::int64_t(64));
        QCOMPARE(cb.backbone(), std::string("qwen3.5"));
        const nlohmann::json j = ask({"--codebook", d + "/cb.safetensors", "--budget", "4"});
        QVERIFY(j["visual_tokens"]["content"].get<std::int64_t>() <= 4);
    }

    void stageAAndBAtTheQwenWidth() {
        // The 9B's merger width: Stage A and B run unchanged at D = 4,096.
        constexpr std::int64_t D = 4096;
        const std::string dir = dir_ + "/train_4096";
        std::filesystem::create_directories(dir);
        std::string manifest;
        at::manual_seed(11);
        for (int i = 0; i < 3; ++i) {
            EncodedVideo v(at::randn({4, 24, D}));
            v.gridH = 4;
            v.gridW = 6;
            v.frameTimes = {0.25, 1.25, 2.25, 3.25};
            v.backbone = "qwen3.5";
            v.featureSource = "merged patch grid (2x2 merger output)";
            v.sampling = "fps:2:4:256";
            const std::string path = dir + "/v" + std::to_string(i) + ".safetensors";
            saveFeatureFile(v, path);
            manifest +=
                "{\"video\": \"" + path + "\", \"category\": \"c" + std::to_string(i) + "\"}\n";
        }
        writeFileAtomically(dir + "/corpus.jsonl", manifest);
        const QString d = QString::fromStdString(dir);
        auto r = cli({"train", "sketch", "--manifest", d + "/corpus.jsonl", "-o", d + "/cache",
                      "--R", "8", "--m-min", "4", "--m-max", "8", "--json"});
        QCOMPARE(r.exitCode, 0);
        r = cli({"train", "fit", "--cache", d + "/cache", "-K", "8", "--candidates", "24",
                 "--batch", "8", "--epochs", "2", "-o", d + "/cb.safetensors"});
        QCOMPARE(r.exitCode, 0);
        const Codebook cb = Codebook::load(dir + "/cb.safetensors");
        QCOMPARE(cb.dim(), D);
        QCOMPARE(cb.size(), std::int64_t(8));
        QCOMPARE(cb.backbone(), std::string("qwen3.5"));
        r = cli({"compress", "--features", d + "/v0.safetensors", "--codebook",
                 d + "/cb.safetensors", "--budget", "4", "-o", d + "/z.safetensors"});
        QCOMPARE(r.exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TestQwen3_5Path)
#include "test_qwen3_5_path.moc"
