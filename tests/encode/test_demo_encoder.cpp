// Demo encoder: shape, determinism, content sensitivity, pooling; prints frames/s (not timed).
#include <ATen/ATen.h>

#include <QtTest>
#include <chrono>

#include "models/demo_encoder.h"
#include "models/visual_encoder.h"
#include "support/test_support.h"
#include "util/error.h"
#include "video/video_reader.h"

using namespace once;

namespace {

at::Tensor demoFrames(int count) {
    return readFrames(test::sourcePath("resources/demo/demo.mp4"),
                      SamplingRule::parse("uniform:" + std::to_string(count)))
        .rgb;
}

at::Tensor cosine(const at::Tensor& a, const at::Tensor& b) {
    return (a * b).sum(-1) / (a.norm(2, -1) * b.norm(2, -1)).clamp_min(1e-12);
}

}  // namespace

class TestDemoEncoder : public QObject {
    Q_OBJECT
  private slots:
    void registeredWithShape() {
        auto names = visualEncoderNames();
        QVERIFY(std::find(names.begin(), names.end(), "demo") != names.end());
        auto enc = makeVisualEncoder("demo", {});
        QCOMPARE(enc->backbone(), std::string("demo"));
        QCOMPARE(enc->dim(), kDemoEncoderDim);
        auto out = enc->encode(demoFrames(4));
        QCOMPARE(out.features.sizes().vec(), (std::vector<std::int64_t>{4, 729, 64}));
        QCOMPARE(out.features.scalar_type(), at::kFloat);
        QCOMPARE(out.gridH, 27);
        QCOMPARE(out.gridW, 27);
        QCOMPARE(out.layoutTokens.sizes().vec(), (std::vector<std::int64_t>{0, 64}));
        QVERIFY(at::isfinite(out.features).all().item<bool>());
    }

    void deterministic() {
        at::Tensor frames = demoFrames(10);
        auto a = makeVisualEncoder("demo", {})->encode(frames).features;
        auto b = makeVisualEncoder("demo", {})->encode(frames).features;
        QVERIFY(at::equal(a, b));
        // Chunking must not change the motion features: frames 8.. encoded in one call equal
        // the same frames encoded as part of the longer clip (chunk size 8).
        QVERIFY(at::equal(a.slice(0, 0, 8),
                          makeVisualEncoder("demo", {})->encode(frames.slice(0, 0, 8)).features));
    }

    void descriptorsFollowContent() {
        // Flat colours: red patches are near each other and far from blue ones.
        at::Tensor frames = at::zeros({2, 100, 100, 3}, at::kByte);
        frames[0].select(2, 0).fill_(220);
        frames[1].select(2, 2).fill_(220);
        auto f = makeVisualEncoder("demo", {})->encode(frames).features;
        QVERIFY(cosine(f[0][0], f[0][400]).item<double>() > 0.999);
        QVERIFY(cosine(f[0][0], f[1][0]).item<double>() < 0.5);
        // Vertical vs horizontal stripes differ in gradient orientation.
        at::Tensor stripes = at::zeros({2, 378, 378, 3}, at::kByte);
        auto idx = at::arange(378);
        auto on = (idx.floor_divide(3) % 2 == 0).to(at::kByte) * 255;
        stripes[0].copy_(on.view({1, 378, 1}).expand({378, 378, 3}));
        stripes[1].copy_(on.view({378, 1, 1}).expand({378, 378, 3}));
        auto s = makeVisualEncoder("demo", {})->encode(stripes).features;
        // Compare the orientation block only (the colour and motion blocks coincide).
        auto o0 = s[0][364].slice(0, 30, 38), o1 = s[1][364].slice(0, 30, 38);
        QVERIFY(cosine(o0, o1).item<double>() < 0.2);
    }

    void poolStrideTwo() {
        EncoderOptions o;
        o.poolStride = 2;
        auto out = makeVisualEncoder("demo", o)->encode(demoFrames(3));
        QCOMPARE(out.features.sizes().vec(), (std::vector<std::int64_t>{3, 196, 64}));
        QCOMPARE(out.gridH, 14);
        o.poolStride = 3;
        QVERIFY_THROWS_EXCEPTION(OnceError, makeVisualEncoder("demo", o));
        o.poolStride = 1;
        o.device = "cuda";
        QVERIFY_THROWS_EXCEPTION(OnceError, makeVisualEncoder("demo", o));
    }

    void refusesBadFrames() {
        auto enc = makeVisualEncoder("demo", {});
        QVERIFY_THROWS_EXCEPTION(OnceError, enc->encode(at::zeros({2, 10, 10}, at::kByte)));
        QVERIFY_THROWS_EXCEPTION(OnceError, enc->encode(at::zeros({2, 10, 10, 3}, at::kFloat)));
    }

    void printsSpeed() {
        at::Tensor frames = demoFrames(64);
        auto enc = makeVisualEncoder("demo", {});
        const int threads = at::get_num_threads();
        at::set_num_threads(1);
        auto t0 = std::chrono::steady_clock::now();
        enc->encode(frames);
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        at::set_num_threads(threads);
        qInfo("demo encoder: %.1f frames/s on one thread (320x240 input)", 64 / s);
        at::Tensor hd = at::randint(0, 255, {16, 720, 1280, 3}, at::kByte);
        at::set_num_threads(1);
        t0 = std::chrono::steady_clock::now();
        enc->encode(hd);
        s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        at::set_num_threads(threads);
        qInfo("demo encoder: %.1f frames/s on one thread (1280x720 input)", 16 / s);
    }
};

QTEST_GUILESS_MAIN(TestDemoEncoder)
#include "test_demo_encoder.moc"
