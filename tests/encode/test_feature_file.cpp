// Feature files: round trip (F32 and BF16), metadata, and the validation errors of load/save.
#include <ATen/ATen.h>

#include <QtTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "features/feature_file.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "support/safetensors_files.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;

namespace {

EncodedVideo sample(at::ScalarType type) {
    EncodedVideo f;
    f.features = at::randn({3, 4, 5}).to(type);
    f.frameTimes = {0.0, 0.5, 1.25};
    f.backbone = "demo";
    f.gridH = 2;
    f.gridW = 2;
    f.sampling = "uniform:3";
    f.source = "clip.mp4";
    f.sourceSha256 = std::string(64, 'a');
    f.featureSource = "demo patch descriptors";
    f.extra["frame_indices"] = "0,5,9";
    return f;
}

void expectLoadError(const std::string& path, const std::string& field) {
    try {
        loadFeatureFile(path);
        QFAIL("no error");
    } catch (const OnceError& e) {
        QVERIFY2(e.where().field == field, e.what());
        QCOMPARE(e.where().file, path);
    }
}

// Writes `tensors` and `meta` as `name` in a fresh folder; returns the path.
std::string writeTensors(const std::string& name, const std::map<std::string, at::Tensor>& tensors,
                         const std::map<std::string, std::string>& meta = {}) {
    return test::writeSafetensors(test::tempDir() + "/" + name, tensors, meta);
}

// A valid file of two frames of four 3-dim tokens and their times, with tensor `side` = `value`
// beside them.
std::string withSideTensor(const std::string& side, const at::Tensor& value) {
    return writeTensors(side + ".safetensors", {{"features", at::zeros({2, 4, 3})},
                                                {"frame_times", at::zeros({2}, at::kDouble)},
                                                {side, value}});
}

}  // namespace

class TestFeatureFile : public QObject {
    Q_OBJECT
  private slots:
    void roundTrip() {
        for (auto type : {at::kFloat, at::kBFloat16}) {
            EncodedVideo f = sample(type);
            const std::string path = test::tempDir() + "/f.safetensors";
            saveFeatureFile(f, path);
            EncodedVideo g = loadFeatureFile(path);
            QVERIFY(at::equal(g.features, f.features));
            QCOMPARE(g.features.scalar_type(), type);
            QVERIFY(g.frameTimes == f.frameTimes);
            QCOMPARE(g.backbone, f.backbone);
            QCOMPARE(g.gridText(), f.gridText());
            QCOMPARE(g.sampling, f.sampling);
            QCOMPARE(g.source, f.source);
            QCOMPARE(g.sourceSha256, f.sourceSha256);
            QCOMPARE(g.featureSource, f.featureSource);
            QCOMPARE(g.extra.at("frame_indices"), std::string("0,5,9"));
            QCOMPARE(g.extra.count("format"), std::size_t(0));
            auto raw = SafetensorsFile::open(path);
            QCOMPARE(raw.meta("format"), std::string("once-features/1"));
            QCOMPARE(raw.entry("frame_times").dtype, DType::F64);
            QVERIFY(!g.layoutTokens.defined());  // none written, none read
        }
    }

    void layoutTokensRoundTrip() {
        EncodedVideo f = sample(at::kBFloat16);
        f.layoutTokens = at::randn({1, 5});
        const std::string path = test::tempDir() + "/layout.safetensors";
        saveFeatureFile(f, path);
        EncodedVideo g = loadFeatureFile(path);
        QVERIFY(g.layoutTokens.defined());
        QCOMPARE(g.layoutTokens.scalar_type(), at::kBFloat16);  // stored like the features
        QVERIFY(at::equal(g.layoutTokens, f.layoutTokens.to(at::kBFloat16)));
        f.layoutTokens = at::randn({1, 4});  // wrong D
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 saveFeatureFile(f, test::tempDir() + "/bad-layout.safetensors"));
        expectLoadError(withSideTensor("layout_tokens", at::zeros({3})), "layout_tokens");
    }

    // Qwen3.5's temporal pairs: one typed field, written only when not 1 and read with its
    // bounds; the studio's frames and Stage A's provenance read the same field.
    void temporalPatchSizeRoundTrip() {
        EncodedVideo f = sample(at::kFloat);
        const std::string one = test::tempDir() + "/k1.safetensors";
        saveFeatureFile(f, one);
        QCOMPARE(SafetensorsFile::open(one).meta("temporal_patch_size"), std::string());
        QCOMPARE(loadFeatureFile(one).temporalPatchSize, 1);
        f.temporalPatchSize = 2;
        const std::string two = test::tempDir() + "/k2.safetensors";
        saveFeatureFile(f, two);
        QCOMPARE(SafetensorsFile::open(two).meta("temporal_patch_size"), std::string("2"));
        const EncodedVideo g = loadFeatureFile(two);
        QCOMPARE(g.temporalPatchSize, 2);
        QCOMPARE(g.extra.count("temporal_patch_size"), std::size_t(0));
        f.temporalPatchSize = kMaxTemporalPatchSize + 1;
        QVERIFY_THROWS_EXCEPTION(OnceError, saveFeatureFile(f, test::tempDir() + "/k.safetensors"));
        for (const char* bad : {"0", "65", "-2", "2.5", "two", " 2", "99999999999"}) {
            expectLoadError(writeTensors("k.safetensors",
                                         {{"features", at::zeros({2, 4, 3})},
                                          {"frame_times", at::zeros({2}, at::kDouble)}},
                                         {{"temporal_patch_size", bad}}),
                            "temporal_patch_size");
        }
    }

    void attentionRoundTrip() {
        EncodedVideo f = sample(at::kBFloat16);
        f.attention = at::rand({3, 4}, at::kDouble);
        const std::string path = test::tempDir() + "/attention.safetensors";
        saveFeatureFile(f, path);
        EncodedVideo g = loadFeatureFile(path);
        QCOMPARE(g.attention.scalar_type(), at::kFloat);  // F32 whatever the features' dtype
        QVERIFY(at::equal(g.attention, f.attention.to(at::kFloat)));
        const std::string none = test::tempDir() + "/none.safetensors";
        saveFeatureFile(sample(at::kFloat), none);
        QVERIFY(!loadFeatureFile(none).attention.defined());  // optional: none written
        f.attention = at::rand({3, 5});                       // not one value per token
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 saveFeatureFile(f, test::tempDir() + "/bad-att.safetensors"));
        expectLoadError(withSideTensor("attention", at::zeros({4, 2})), "attention");
    }

    void saveValidates() {
        const std::string path = test::tempDir() + "/bad.safetensors";
        EncodedVideo f = sample(at::kFloat);
        f.features = at::zeros({3, 4}, at::kFloat);
        QVERIFY_THROWS_EXCEPTION(OnceError, saveFeatureFile(f, path));
        f = sample(at::kFloat);
        f.frameTimes = {0.0, 0.0};
        QVERIFY_THROWS_EXCEPTION(OnceError, saveFeatureFile(f, path));
        f = sample(at::kFloat);
        f.gridH = 3;
        f.gridW = 3;
        QVERIFY_THROWS_EXCEPTION(OnceError, saveFeatureFile(f, path));
        f = sample(at::kFloat);
        f.features = at::zeros({3, 4, 5}, at::kLong);
        QVERIFY_THROWS_EXCEPTION(OnceError, saveFeatureFile(f, path));
        QVERIFY(!std::filesystem::exists(path));
    }

    void loadValidates() {
        const std::string dir = test::tempDir();
        at::Tensor feats = at::zeros({2, 4, 3});
        at::Tensor times = at::zeros({2}, at::kDouble);
        expectLoadError(writeTensors("nofeat.safetensors", {{"frame_times", times}}), "features");
        expectLoadError(writeTensors("notimes.safetensors", {{"features", feats}}), "frame_times");
        expectLoadError(writeTensors("2d.safetensors",
                                     {{"features", at::zeros({2, 4})}, {"frame_times", times}}),
                        "features");
        expectLoadError(
            writeTensors("int.safetensors",
                         {{"features", at::zeros({2, 4, 3}, at::kInt)}, {"frame_times", times}}),
            "features");
        expectLoadError(
            writeTensors("t.safetensors",
                         {{"features", feats}, {"frame_times", at::zeros({3}, at::kDouble)}}),
            "frame_times");
        expectLoadError(
            writeTensors("cb.safetensors", {{"features", feats}, {"frame_times", times}},
                         {{"format", "once-codebook/1"}}),
            "__metadata__.format");
        expectLoadError(
            writeTensors("grid.safetensors", {{"features", feats}, {"frame_times", times}},
                         {{"grid", "27x27"}}),
            "grid");
        // NaN or Inf anywhere is refused, naming the element; so are a wrong attention shape
        // and a grid whose sides would overflow.
        at::Tensor nanFeats = feats.clone();
        nanFeats[1][2][0] = std::numeric_limits<float>::quiet_NaN();
        expectLoadError(writeTensors("nan.safetensors", {{"features", nanFeats.to(at::kBFloat16)},
                                                         {"frame_times", times}}),
                        "features[1, 2, 0]");
        at::Tensor infTimes = times.clone();
        infTimes[1] = -std::numeric_limits<double>::infinity();
        expectLoadError(
            writeTensors("inftimes.safetensors", {{"features", feats}, {"frame_times", infTimes}}),
            "frame_times[1]");
        expectLoadError(withSideTensor("attention", at::ones({4, 2})), "attention");
        expectLoadError(withSideTensor("attention", at::full({2, 4}, NAN)), "attention[0, 0]");
        expectLoadError(withSideTensor("layout_tokens", at::full({1, 3}, INFINITY)),
                        "layout_tokens[0, 0]");
        for (const char* grid : {"4294967296x4294967296", "-2x-2", "2x2x1", "x4", "+2x2", "2x 2"}) {
            expectLoadError(
                writeTensors("g.safetensors", {{"features", feats}, {"frame_times", times}},
                             {{"grid", grid}}),
                "grid");
        }
        QCOMPARE(loadFeatureFile(writeTensors("grid.safetensors",
                                              {{"features", feats}, {"frame_times", times}},
                                              {{"grid", "2x2"}}))
                     .gridText(),
                 std::string("2x2"));
        // A bare but consistent file (F32 times, no metadata) loads.
        auto f = loadFeatureFile(writeTensors(
            "ok.safetensors", {{"features", feats}, {"frame_times", at::zeros({2})}}, {}));
        QCOMPARE(f.frameTimes.size(), std::size_t(2));
        // Not a safetensors file at all.
        const std::string junk = dir + "/junk.safetensors";
        std::ofstream(junk) << "hello";
        QVERIFY_THROWS_EXCEPTION(OnceError, loadFeatureFile(junk));
        QVERIFY_THROWS_EXCEPTION(OnceError, loadFeatureFile(dir + "/missing.safetensors"));
    }
};

QTEST_GUILESS_MAIN(TestFeatureFile)
#include "test_feature_file.moc"
