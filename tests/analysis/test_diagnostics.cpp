// Codebook diagnostics against the NumPy reference (same SplitMix64 resamples, float64), plus
// the CLI's --json top level.
#include <ATen/ATen.h>

#include <QtTest>
#include <nlohmann/json.hpp>

#include "analysis/diagnostics.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "support/test_support.h"
#include "train/spherical_kmeans.h"
#include "util/atomic_file.h"

using namespace once;

class TestDiagnostics : public QObject {
    Q_OBJECT
  private slots:
    void matchesNumpyReference() {
        at::manual_seed(11);
        const std::int64_t n = 1200, d = 12, k = 40;
        at::Tensor centres = at::randn({8, d});
        at::Tensor x =
            centres.index_select(0, at::randint(8, {n}, at::kLong)) + 0.5 * at::randn({n, d});
        at::Tensor cb = at::randn({k, d});
        cb.slice(0, 0, 5).mul_(0.01).add_(at::randn({1, d}) * 10);  // a few near-duplicates
        at::Tensor w = at::randint(1, 30, {n}, at::kInt).to(at::kDouble);
        at::Tensor video = at::randint(0, 15, {n}, at::kLong);
        video.slice(0, 0, 15).copy_(at::arange(15, at::kLong));  // every video present
        DiagnosticsOptions o;
        o.bootstrap = 200;
        o.randomCodebooks = 3;
        SafetensorsWriter wr;
        addTensor(wr, "codebook", cb);
        addTensor(wr, "x", x);
        addTensor(wr, "w", w);
        addTensor(wr, "video", video);
        addTensor(wr, "params",
                  at::tensor({double(o.bootstrap), double(o.bootstrapSeed),
                              double(o.randomCodebooks), double(o.randomSeed)},
                             at::kDouble));
        std::string in = test::tempDir() + "/in.safetensors", out = test::tempDir() + "/o.json";
        wr.write(in);
        auto r = test::runPython("analysis_diagnostics.py",
                                 {QString::fromStdString(in), QString::fromStdString(out)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto ref = nlohmann::json::parse(readWholeFile(out));

        TokenSet t{x, w, video, 15};
        auto ours = nlohmann::json::parse(diagnoseCodebook(cb, t, o).toJson());
        auto near = [](double a, double b) { return std::abs(a - b) < 1e-5; };
        for (const char* key : {"active_codes_pct", "entropy_capacity_pct", "mean_cosine_error"}) {
            QVERIFY2(near(ours[key], ref[key]), key);
            QVERIFY2(near(ours["ci95"][key][0], ref["ci95"][key][0]), key);
            QVERIFY2(near(ours["ci95"][key][1], ref["ci95"][key][1]), key);
        }
        for (int i = 0; i < 10; ++i) {
            QVERIFY(near(ours["decile_shares"][i], ref["decile_shares"][i]));
        }
        for (const char* key : {"R50", "R90", "R95", "R99"}) {
            QVERIFY2(near(ours["residual_percentiles"][key], ref["residual_percentiles"][key]),
                     key);
            QVERIFY2(near(ours["ci95"][key][0], ref["ci95"][key][0]), key);
            QVERIFY2(near(ours["ci95"][key][1], ref["ci95"][key][1]), key);
        }
        for (const char* key : {"random_minus_full_mean_residual", "random_minus_full_R95"}) {
            auto& a = ours["random_exemplar"][key];
            auto& b = ref["random_exemplar"][key];
            QVERIFY2(near(a["value"], b["value"]), key);
            QVERIFY2(near(a["ci95"][0], b["ci95"][0]) && near(a["ci95"][1], b["ci95"][1]), key);
        }
        // Some codes are unused (near-duplicates), so the statistics are not trivially 100%.
        QVERIFY(ours["active_codes_pct"].get<double>() < 100.0);
    }

    void percentileIsNumpyLinear() {
        QCOMPARE(percentileLinear({1, 2, 3, 4}, 50), 2.5);
        QCOMPARE(percentileLinear({4, 1, 3, 2}, 95), 3.85);
        QCOMPARE(percentileLinear({7}, 99), 7.0);
    }
};

QTEST_GUILESS_MAIN(TestDiagnostics)
#include "test_diagnostics.moc"
