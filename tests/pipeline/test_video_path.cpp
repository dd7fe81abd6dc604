// The whole path from a real video file to the answer, against transformers as its users run it
// (tests/reference/llava_ov_video_path.py): a tiny random LLaVA-OneVision with the published
// geometry (SigLIP 384 px / patch 14 → 27×27, 16 heads; Qwen2 14/2 heads) saved by transformers 5
// with its processor; transformers' chat template, LlavaOnevisionProcessor and video processor on
// PyAV's frames, and greedy `generate`. `once ask VIDEO` must give the same number of visual
// tokens, the same prompt ids and the same greedy ids, dense and with a codebook (ONCE by the
// NumPy reference on transformers' own video features).
#include <ATen/ATen.h>

#include <QtTest>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "codebook/codebook.h"
#include "support/models_fixture.h"
#include "support/test_support.h"

using namespace once;

namespace {

const char* const kClip = test::kRealClip;
const char* kQuestion = "What is in the video?";
constexpr int kFrames = 4;

/// Our prompt ids with the one placeholder expanded to `visual` copies of it, as transformers'
/// processor writes the video tokens.
std::vector<std::int64_t> expanded(const nlohmann::json& j, std::int64_t visual) {
    std::vector<std::int64_t> ids = j["prompt_ids"].get<std::vector<std::int64_t>>();
    const auto at = j["placeholder_index"].get<std::int64_t>();
    const std::int64_t placeholder = ids[std::size_t(at)];
    ids.insert(ids.begin() + at, std::size_t(visual - 1), placeholder);
    return ids;
}

}  // namespace

class TestVideoPath : public QObject {
    Q_OBJECT
    std::string dir_, codebook_;
    nlohmann::json ref_;

    nlohmann::json ask(const QStringList& extra) {
        auto r = test::runCli(
            QStringList{"ask", kClip, "--model", QString::fromStdString(dir_ + "/model"),
                        "--sampling", QString("uniform:%1").arg(kFrames), "--pool-stride", "2",
                        "--question", kQuestion, "--max-new-tokens", "12", "--json",
                        // transformers' reference runs in F32 (auto is BF16 on some CPUs)
                        "--dtype", "float32"} +
            extra);
        if (r.exitCode != 0) {
            qWarning().noquote() << r.err;
        }
        [&] { QCOMPARE(r.exitCode, 0); }();
        return nlohmann::json::parse(r.out.toStdString());
    }

  private slots:
    void initTestCase() {
        if (!QFileInfo::exists(kClip)) {
            QFAIL("the real clip of python3-imageio is missing: run scripts/setup.sh");
        }
        dir_ = test::tempDir();
        codebook_ = dir_ + "/codebook.safetensors";
        test::writeRandomCodebook(codebook_, 40, 112, "llava-onevision", "projected patch grid");
        const auto ref = test::runPathReference(
            "llava_ov_video_path.py", dir_,
            {kClip, "--frames", QString::number(kFrames), "--question", kQuestion, "--codebook",
             QString::fromStdString(codebook_), "--budget", "12"});
        QVERIFY(ref);
        ref_ = *ref;
    }

    void denseMatchesTransformers() {
        const nlohmann::json j = ask({"--dense"});
        const auto visual = ref_["visual_tokens"].get<std::int64_t>();
        QCOMPARE(visual, std::int64_t(kFrames * 14 * 14 + 1));  // 27 → 14 per side, + newline
        QCOMPARE(j["visual_tokens"]["total"].get<std::int64_t>(), visual);
        // The folder's chat template is the llava-hf one: followed, as transformers does.
        QVERIFY2(
            j["prompt_format"].get<std::string>().find("chat_template.jinja") != std::string::npos,
            j["prompt_format"].dump().c_str());
        QVERIFY2(j["notices"].empty(), j["notices"].dump().c_str());
        QCOMPARE(expanded(j, visual), ref_["input_ids"].get<std::vector<std::int64_t>>());
        auto want = ref_["generated"].get<std::vector<std::int64_t>>();
        auto got = j["token_ids"].get<std::vector<std::int64_t>>();
        qInfo("dense greedy ids: transformers %s, once %s", nlohmann::json(want).dump().c_str(),
              nlohmann::json(got).dump().c_str());
        // Both stop at the first <|im_end|> / <|endoftext|> (kept) or after 12 tokens.
        QCOMPARE(got, want);
    }

    void compressedMatchesTransformers() {
        const nlohmann::json j =
            ask({"--codebook", QString::fromStdString(codebook_), "--budget", "12"});
        const auto visual = ref_["compressed_visual_tokens"].get<std::int64_t>();
        QVERIFY(visual >= 2 && visual <= 12 + 1);
        QCOMPARE(j["visual_tokens"]["total"].get<std::int64_t>(), visual);
        QCOMPARE(j["visual_tokens"]["source"].get<std::int64_t>(), std::int64_t(kFrames * 196));
        // Outside the visual rows the prompt is the processor's.
        auto ids = ref_["input_ids"].get<std::vector<std::int64_t>>();
        const auto dense = ref_["visual_tokens"].get<std::int64_t>();
        auto first = std::find(ids.begin(), ids.end(), ref_["video_token_id"].get<std::int64_t>());
        ids.erase(first + visual, first + dense);
        QCOMPARE(expanded(j, visual), ids);
        auto want = ref_["compressed_generated"].get<std::vector<std::int64_t>>();
        auto got = j["token_ids"].get<std::vector<std::int64_t>>();
        qInfo("ONCE B=12 greedy ids: transformers %s, once %s", nlohmann::json(want).dump().c_str(),
              nlohmann::json(got).dump().c_str());
        QCOMPARE(got, want);
    }

    void encodeCommandReadsThePublishedGeometry() {
        // `once encode` with the older --sample spelling (kept as an alias of --sampling).
        const QString out = QString::fromStdString(dir_ + "/features.safetensors");
        auto r = test::runCli({"encode", kClip, "--backbone", "llava-onevision", "--model",
                               QString::fromStdString(dir_ + "/model"), "--sample",
                               QString("uniform:%1").arg(kFrames), "-o", out, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["patches"].get<std::int64_t>(), std::int64_t(27 * 27));  // stride 1: 729
        QVERIFY(j["notices"].empty());
        QVERIFY(!r.err.contains("note:"));

        // Without any processor file the values used are said, not silently assumed.
        const std::string bare = dir_ + "/bare";
        std::filesystem::create_directories(bare);
        for (const char* f : {"config.json", "model.safetensors", "tokenizer.json"}) {
            std::filesystem::copy_file(dir_ + "/model/" + f, bare + "/" + f);
        }
        r = test::runCli({"encode", kClip, "--backbone", "llava-onevision", "--model",
                          QString::fromStdString(bare), "--sampling", "uniform:2", "-o", out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(
            r.err.contains("note: no processor settings in") && r.err.contains("mean = std = 0.5"),
            qPrintable(r.err));
        r = test::runCli({"encode", "--help"});
        QVERIFY(r.out.contains("--pool-stride") && r.out.contains("transformers") &&
                r.out.contains("(also --sample)"));
    }

    void decodingLimitsAreOptions() {
        // The demo encoder needs no model: only the decoder's limits are exercised. 320 x 240 x 3
        // bytes a frame, 8 frames = 1.8 MB decoded.
        const QString out = QString::fromStdString(dir_ + "/limits.safetensors");
        auto r = test::runCli(
            {"encode", kClip, "--sampling", "uniform:8", "--max-decoded-gib", "0.001", "-o", out});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("realshort.mp4"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
        r = test::runCli({"encode", kClip, "--sampling", "uniform:8", "--max-frame-megapixels",
                          "0.05", "-o", out});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("realshort.mp4"), qPrintable(r.err));
        r = test::runCli({"encode", kClip, "--sampling", "uniform:8", "--max-decoded-gib", "0.01",
                          "--max-frame-megapixels", "0.1", "-o", out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = test::runCli({"encode", kClip, "--max-decoded-gib", "nan", "-o", out});
        QCOMPARE(r.exitCode, 2);
    }

    void llavaNextPromptOnRequest() {
        // The paper's lmms-eval prompt stays one option away, with its system turn.
        const nlohmann::json j = ask({"--dense", "--prompt-format", "llava-next"});
        QVERIFY(j["prompt_format"].get<std::string>().find("LLaVA-NeXT") != std::string::npos);
        QCOMPARE(j["prompt_tokens"].get<std::int64_t>(),
                 std::int64_t(j["prompt_ids"].size()) - 1 +
                     j["visual_tokens"]["total"].get<std::int64_t>());
        QVERIFY(j["prompt_ids"].size() >
                ref_["input_ids"].size() - ref_["visual_tokens"].get<std::size_t>() + 1);
    }
};

QTEST_GUILESS_MAIN(TestVideoPath)
#include "test_video_path.moc"
