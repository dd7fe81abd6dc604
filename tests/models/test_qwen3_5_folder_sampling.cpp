// Qwen3.5 samples a video as its model folder's video processor says, as transformers does:
// with no --sampling, the fps, min_frames and max_frames of processor_config.json's
// video_processor (or video_preprocessor_config.json; Qwen3VLVideoProcessor's class defaults,
// max 768 frames, without either) give the frames, which must be the very frames transformers'
// sample_frames picks (tests/reference/qwen3_5_folder_sampling.py), with a notice naming the file
// and the values. The paper's rule is one flag away (--sampling fps:2:4:256, no notice). `once
// encode` says both counts: the frames sampled and the temporal pairs the features hold.
// The model: the tiny Qwen3.5 of the whole-path suite as save_pretrained writes it
// (tests/reference/hub_cache.py).
#include <QtTest>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "features/feature_file.h"
#include "support/bounded_cli.h"
#include "support/models_fixture.h"
#include "support/test_support.h"

using namespace once;
namespace fs = std::filesystem;

class TestQwen3_5FolderSampling : public QObject {
    Q_OBJECT
    std::string source_;

    QString q(const std::string& s) const { return QString::fromStdString(s); }

    // A copy of the model folder whose video processor settings are `settings` (merged into
    // processor_config.json's video_processor, or written as video_preprocessor_config.json
    // when `hubStyle`; none at all when null).
    std::string folder(const nlohmann::json& settings, bool hubStyle = false) {
        const std::string d = test::tempDir() + "/qwen";
        test::copyTree(source_, d);
        nlohmann::json proc = nlohmann::json::parse(test::readText(d + "/processor_config.json"));
        nlohmann::json video = proc["video_processor"];
        if (settings.is_null() || hubStyle) {
            proc.erase("video_processor");
        }
        if (!settings.is_null()) {
            video.update(settings);
            if (hubStyle) {
                test::writeText(d + "/video_preprocessor_config.json", video.dump(1));
            } else {
                proc["video_processor"] = video;
            }
        }
        fs::remove(d + "/processor_config.json");
        test::writeText(d + "/processor_config.json", proc.dump(1));
        return d;
    }

    struct Encoded {
        nlohmann::json report;
        std::vector<std::int64_t> indices;
        QString text, err;
    };
    Encoded encode(const std::string& model, const QStringList& extra = {}) {
        const std::string out = test::tempDir() + "/f.safetensors";
        Encoded e;
        const test::BoundedRun r =
            test::runCliBounded(QStringList{"encode", test::kRealClip, "--model", q(model),
                                            "--dtype", "float32", "-o", q(out), "--json"} +
                                    extra,
                                300);
        e.err = r.err;
        [&] { QVERIFY2(r.exitCode == 0, qPrintable(r.text())); }();
        if (r.exitCode != 0) {
            return e;
        }
        e.report = nlohmann::json::parse(r.out.toStdString());
        for (const QString& i :
             QString::fromStdString(loadFeatureFile(out).extra.at("frame_indices")).split(',')) {
            e.indices.push_back(i.toLongLong());
        }
        const test::BoundedRun t =
            test::runCliBounded(QStringList{"encode", test::kRealClip, "--model", q(model),
                                            "--dtype", "float32", "-o", q(out)} +
                                    extra,
                                300);
        e.text = t.out;
        return e;
    }

    std::vector<std::int64_t> transformersIndices(const std::string& model) {
        const auto r = test::runPython("qwen3_5_folder_sampling.py", {q(model), test::kRealClip});
        [&] { QVERIFY2(r.exitCode == 0, qPrintable(r.err)); }();
        return nlohmann::json::parse(r.out.toStdString())["indices"]
            .get<std::vector<std::int64_t>>();
    }

  private slots:
    void initTestCase() {
        const std::string dir = test::tempDir();
        const auto py = test::runPython("hub_cache.py", {q(dir)});
        QVERIFY2(py.exitCode == 0, qPrintable(py.err));
        source_ = dir + "/src/qwen3.5-tiny";
    }

    void theFoldersSettingsGiveTransformersFrames() {
        // 36 frames at 30 fps: 10 FPS gives 11 frames (an odd count: the last pair repeats
        // its frame), 6 temporal pairs.
        const std::string m = folder({{"fps", 10}, {"max_frames", 768}});
        const Encoded e = encode(m);
        QCOMPARE(e.report["sampling"].get<std::string>(), std::string("fps:10:4:768"));
        QCOMPARE(e.indices, transformersIndices(m));
        QCOMPARE(e.report["sampled_frames"].get<std::int64_t>(), std::int64_t(11));
        QCOMPARE(e.report["frames"].get<std::int64_t>(), std::int64_t(6));
        QVERIFY2(e.text.contains("encoded 11 frames (6 temporal pairs)"), qPrintable(e.text));
        for (const char* part : {"processor_config.json", "fps:10:4:768", "fps 10", "min_frames 4",
                                 "max_frames 768", "--sampling fps:2:4:256"}) {
            QVERIFY2(e.err.contains(part), qPrintable(QString(part) + " not in: " + e.err));
        }
    }

    void theHubsVideoPreprocessorFileToo() {
        const std::string m = folder({{"fps", 1}, {"min_frames", 6}, {"max_frames", 8}}, true);
        const Encoded e = encode(m);
        QCOMPARE(e.report["sampling"].get<std::string>(), std::string("fps:1:6:8"));
        QCOMPARE(e.indices, transformersIndices(m));
        QVERIFY2(e.err.contains("video_preprocessor_config.json"), qPrintable(e.err));
    }

    void withoutSettingsTheClassDefaults() {
        const Encoded e = encode(folder(nullptr));
        QCOMPARE(e.report["sampling"].get<std::string>(), std::string("fps:2:4:768"));
        QVERIFY2(e.err.contains("Qwen3VLVideoProcessor's defaults"), qPrintable(e.err));
    }

    void thePapersRuleIsOneFlagAway() {
        const std::string m = folder({{"fps", 10}, {"max_frames", 768}});
        const Encoded e = encode(m, {"--sampling", "fps:2:4:256"});
        QCOMPARE(e.report["sampling"].get<std::string>(), std::string("fps:2:4:256"));
        QCOMPARE(e.report["sampled_frames"].get<std::int64_t>(), std::int64_t(4));
        QVERIFY2(e.text.contains("encoded 4 frames (2 temporal pairs)"), qPrintable(e.text));
        QVERIFY2(!e.err.contains("note: frame sampling"), qPrintable(e.err));
        // `once ask` names the folder's sampling in its notices too.
        const test::BoundedRun a = test::runCliBounded(
            {"ask", test::kRealClip, "--dense", "--model", q(m), "--question", "What is it?",
             "--max-new-tokens", "2", "--json", "--dtype", "float32"},
            300);
        QVERIFY2(a.exitCode == 0, qPrintable(a.text()));
        const nlohmann::json j = nlohmann::json::parse(a.out.toStdString());
        QCOMPARE(j["sampling"].get<std::string>(), std::string("fps:10:4:768"));
        QVERIFY2(j["notices"].dump().find("fps:10:4:768") != std::string::npos,
                 j["notices"].dump().c_str());
    }

    void badSettingsAreNamed() {
        const std::string m = folder({{"fps", 1e9}});
        const test::BoundedRun r = test::runCliBounded(
            {"encode", test::kRealClip, "--model", q(m), "-o", q(test::tempDir() + "/f")}, 120);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("processor_config.json") && r.err.contains("fps"),
                 qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestQwen3_5FolderSampling)
#include "test_qwen3_5_folder_sampling.moc"
