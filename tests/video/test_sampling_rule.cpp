// Sampling rules: parsing, canonical text, and frame indices against numpy/torch references.
#include <ATen/ATen.h>

#include <QtTest>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "support/test_support.h"
#include "util/error.h"
#include "video/sampling_rule.h"

using namespace once;

class TestSamplingRule : public QObject {
    Q_OBJECT
  private slots:
    void parsesForms() {
        auto u = SamplingRule::parse("uniform:32");
        QVERIFY(u.kind == SamplingRule::Kind::Uniform);
        QCOMPARE(u.count, 32);
        QCOMPARE(u.toString(), std::string("uniform:32"));
        auto f = SamplingRule::parse("fps:2");
        QVERIFY(f.kind == SamplingRule::Kind::Fps);
        QCOMPARE(f.fps, 2.0);
        QCOMPARE(f.minFrames, 4);
        QCOMPARE(f.maxFrames, 256);
        auto g = SamplingRule::parse("fps:0.5:8:64@10-20.5");
        QCOMPARE(g.fps, 0.5);
        QCOMPARE(g.minFrames, 8);
        QCOMPARE(g.maxFrames, 64);
        QCOMPARE(g.start, 10.0);
        QCOMPARE(g.end, 20.5);
        QCOMPARE(g.toString(), std::string("fps:0.5:8:64@10-20.5"));
        auto h = SamplingRule::parse("uniform:8@5-");
        QCOMPARE(h.start, 5.0);
        QCOMPARE(h.end, -1.0);
        QCOMPARE(h.toString(), std::string("uniform:8@5-"));
        for (auto text : {"uniform:32", "fps:2:4:256", "uniform:8@1.25-3", "fps:1.5:4:9@0-2"}) {
            QCOMPARE(SamplingRule::parse(SamplingRule::parse(text).toString()).toString(),
                     SamplingRule::parse(text).toString());
        }
    }

    void rejectsBadText_data() {
        QTest::addColumn<QString>("text");
        for (auto t :
             {"", "uniform", "uniform:", "uniform:0", "uniform:-3", "uniform:2.5", "uniform:abc",
              "fps:0", "fps:-1", "fps:2:4", "fps:2:9:4", "fps:x", "frames:3", "uniform:8@",
              "uniform:8@5", "uniform:8@5-2", "uniform:8@-1-2", "uniform:32:1", "uniform:nan",
              // Limits (issue 14): counts above kMaxSampledFrames, non-finite numbers, window
              // bounds above kMaxWindowSeconds.
              "uniform:4097", "uniform:1000000", "fps:2:4:4097", "fps:nan", "fps:inf", "fps:-inf",
              "fps:1e7", "uniform:4@1e300-", "uniform:4@nan-", "uniform:4@0-inf",
              "uniform:4@2e7-"}) {
            QTest::newRow(t) << QString(t);
        }
    }
    void rejectsBadText() {
        QFETCH(QString, text);
        try {
            SamplingRule::parse(text.toStdString());
            QFAIL("no error");
        } catch (const OnceError& e) {
            QCOMPARE(e.where().field, std::string("sampling"));
            QVERIFY(std::string(e.what()).find(text.toStdString()) != std::string::npos);
        }
    }

    void indicesMatchReferences() {
        auto r = test::runPython("video_sampling_reference.py", {});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        int cases = 0;
        for (const QString& line : r.out.split('\n', Qt::SkipEmptyParts)) {
            auto j = nlohmann::json::parse(line.toStdString());
            auto rule = SamplingRule::parse(j["rule"].get<std::string>());
            auto got = sampleIndices(rule, j["total"].get<std::int64_t>(), j["fps"].get<double>());
            auto want = j["indices"].get<std::vector<std::int64_t>>();
            QVERIFY2(got == want, qPrintable(QString::fromStdString(line.toStdString())));
            ++cases;
        }
        QCOMPARE(cases, 19);
    }

    void windowSelectsFramesInside() {
        // 10 s at 25 fps = 250 frames; window 2-4 s = frames 50..100.
        auto idx = sampleIndices(SamplingRule::parse("uniform:5@2-4"), 250, 25);
        QCOMPARE(idx, (std::vector<std::int64_t>{50, 62, 75, 87, 100}));
        // Open end.
        idx = sampleIndices(SamplingRule::parse("uniform:2@9-"), 250, 25);
        QCOMPARE(idx, (std::vector<std::int64_t>{225, 249}));
        // fps inside a window: 2 s at 2 fps = 4 frames (the minimum too).
        idx = sampleIndices(SamplingRule::parse("fps:2@2-4"), 250, 25);
        QCOMPARE(idx.size(), std::size_t(4));
        QVERIFY(idx.front() == 50 && idx.back() == 100);
        // Window past the end: no frame.
        QVERIFY(sampleIndices(SamplingRule::parse("uniform:4@20-30"), 250, 25).empty());
    }

    void boundsHold() {
        // A window past the end is empty (readFrames turns that into an error naming the file).
        QVERIFY(sampleIndices(SamplingRule::parse("uniform:4@9999999-"), 60, 30).empty());
        QVERIFY(sampleIndices(SamplingRule::parse("fps:2@30-"), 60, 30).empty());
        // Repeats are allowed up to kMaxRepeatedSampledFrames, refused beyond.
        QCOMPARE(sampleIndices(SamplingRule::parse("uniform:256"), 60, 30).size(),
                 std::size_t(256));
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 sampleIndices(SamplingRule::parse("uniform:257"), 60, 30));
        QCOMPARE(sampleIndices(SamplingRule::parse("uniform:4096"), 5000, 30).size(),
                 std::size_t(4096));
        // Non-finite or absurd video rates and frame counts.
        const double nan = std::nan("");
        QVERIFY_THROWS_EXCEPTION(OnceError, sampleIndices(SamplingRule::parse("fps:2"), 60, nan));
        QVERIFY_THROWS_EXCEPTION(OnceError, sampleIndices(SamplingRule::parse("fps:2"), 60,
                                                          std::numeric_limits<double>::infinity()));
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 sampleIndices(SamplingRule::parse("uniform:2@1-2"), 60, nan));
        QVERIFY_THROWS_EXCEPTION(
            OnceError, sampleIndices(SamplingRule::parse("uniform:2"), kMaxVideoFrames + 1, 30));
        // Long videos: float32 linspace rounding never steps outside the video.
        for (std::int64_t total : {std::int64_t(16777217), std::int64_t(99999999)}) {
            for (const auto& i :
                 sampleIndices(SamplingRule::parse("fps:0.001:4:4096"), total, 0.5)) {
                QVERIFY(i >= 0 && i < total);
            }
        }
        // A rule built in code gets the parser's checks.
        SamplingRule r;
        r.count = 1 << 30;
        QVERIFY_THROWS_EXCEPTION(OnceError, sampleIndices(r, 60, 30));
        r = SamplingRule{};
        r.start = nan;
        QVERIFY_THROWS_EXCEPTION(OnceError, sampleIndices(r, 60, 30));
    }

    void refusesNoFramesOrRate() {
        QVERIFY_THROWS_EXCEPTION(OnceError, sampleIndices(SamplingRule::parse("uniform:4"), 0, 25));
        QVERIFY_THROWS_EXCEPTION(OnceError, sampleIndices(SamplingRule::parse("fps:2"), 100, 0));
        // uniform without a window needs no rate.
        QCOMPARE(sampleIndices(SamplingRule::parse("uniform:2"), 10, 0).size(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestSamplingRule)
#include "test_sampling_rule.moc"
