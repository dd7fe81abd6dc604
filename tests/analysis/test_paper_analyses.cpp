// The paper's analyses as commands against NumPy references (tests/reference/analysis_paper.py)
// on small synthetic inputs: the public-video stress diagnostic (learned vs random-exemplar
// residual statistics, paired bootstrap CIs), the support-origin diagnostic (even/odd views,
// current vs donor support, disjoint pairs, simultaneous band) and the break-even count; plus
// the `once analyze` commands.
#include <ATen/ATen.h>

#include <QtTest>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis/break_even.h"
#include "analysis/stress_diagnostic.h"
#include "analysis/support_origin.h"
#include "codebook/codebook.h"
#include "eval/results_file.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;

namespace {

bool near(double a, double b, double tol = 1e-9) {
    return std::abs(a - b) <= tol;
}

// V videos [T, P, D] around per-video offsets (so pairs and supports differ), and a codebook.
struct Synthetic {
    at::Tensor codebook;
    std::vector<at::Tensor> videos;
};

Synthetic synthetic(int V, int T, int P, int D, int K, int seed) {
    at::manual_seed(seed);
    Synthetic s;
    s.codebook = at::randn({K, D}, at::kDouble);
    for (int v = 0; v < V; ++v) {
        at::Tensor offset = at::randn({1, 1, D}, at::kDouble) * 1.5;
        s.videos.push_back(at::randn({T, P, D}, at::kDouble) + offset);
    }
    return s;
}

std::string writeInput(const Synthetic& s,
                       const std::vector<std::pair<std::string, at::Tensor>>& extra) {
    SafetensorsWriter w;
    addTensor(w, "codebook", s.codebook.contiguous());
    for (std::size_t v = 0; v < s.videos.size(); ++v) {
        addTensor(w, "v" + std::to_string(v), s.videos[v].contiguous());
    }
    for (const auto& [name, t] : extra) {
        addTensor(w, name, t.contiguous());
    }
    std::string path = test::tempDir() + "/in.safetensors";
    w.write(path);
    return path;
}

}  // namespace

class TestPaperAnalyses : public QObject {
    Q_OBJECT

  private slots:
    void stressMatchesNumpy() {
        Synthetic s = synthetic(6, 3, 10, 5, 7, 1);
        StressOptions o;
        o.randomCodebooks = 3;
        o.randomSeed = 20260801;
        o.bootstrap = 300;
        o.bootstrapSeed = 20260811;
        std::string in =
            writeInput(s, {{"params", at::tensor({3L, 20260801L, 300L, 20260811L}, at::kLong)}});
        std::string out = test::tempDir() + "/stress.json";
        auto r = test::runPython("analysis_paper.py", {"stress", QString::fromStdString(in),
                                                       QString::fromStdString(out)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto want = nlohmann::json::parse(test::readText(out))["metrics"];
        StressResult got = stressDiagnostic(s.codebook, s.videos, o);
        QCOMPARE(got.metrics.size(), std::size_t(5));
        QCOMPARE(got.seeds.size(), std::size_t(3));
        for (std::size_t m = 0; m < 5; ++m) {
            const auto& g = got.metrics[m];
            const auto& w = want[m];
            QCOMPARE(g.name, w["name"].get<std::string>());
            QVERIFY2(near(g.learned, w["learned"].get<double>()), g.name.c_str());
            QVERIFY2(near(g.random, w["random"].get<double>()), g.name.c_str());
            QVERIFY2(near(g.difference.value, w["diff"].get<double>()), g.name.c_str());
            QVERIFY2(near(g.difference.lo, w["lo"].get<double>()), g.name.c_str());
            QVERIFY2(near(g.difference.hi, w["hi"].get<double>()), g.name.c_str());
            QCOMPARE(g.positiveVideos, w["positive"].get<std::int64_t>());
        }
        // A codebook made of the tokens themselves covers them exactly: zero residual.
        StressResult self =
            stressDiagnostic(at::cat({s.videos[0].reshape({-1, 5})}), {s.videos[0]}, {1, 7, 10, 3});
        QVERIFY(near(self.metrics[3].learned, 0.0, 1e-12));
        QVERIFY(stressCsv(got).rfind("metric,learned,random,difference,", 0) == 0);
        QVERIFY_THROWS_EXCEPTION(OnceError, stressDiagnostic(s.codebook, {}, o));
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 stressDiagnostic(at::randn({7, 4}, at::kDouble), s.videos, o));
    }

    void learnedCodebooksComparedPaired() {
        Synthetic s = synthetic(5, 3, 8, 5, 6, 4);
        at::Tensor other = at::randn({9, 5}, at::kDouble);
        std::string in =
            writeInput(s, {{"other", other}, {"params", at::tensor({200L, 20260811L}, at::kLong)}});
        std::string out = test::tempDir() + "/compare.json";
        auto r = test::runPython("analysis_paper.py", {"compare", QString::fromStdString(in),
                                                       QString::fromStdString(out)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto want = nlohmann::json::parse(test::readText(out));
        auto got = compareCodebooks(s.codebook, other, s.videos, 200, 20260811);
        QCOMPARE(got.size(), std::size_t(5));
        for (std::size_t m = 0; m < 5; ++m) {
            QCOMPARE(got[m].name, want[m]["name"].get<std::string>());
            QVERIFY(near(got[m].reference, want[m]["reference"].get<double>()));
            QVERIFY(near(got[m].other, want[m]["other"].get<double>()));
            QVERIFY(near(got[m].difference.value, want[m]["diff"].get<double>()));
            QVERIFY(near(got[m].difference.lo, want[m]["lo"].get<double>()));
            QVERIFY(near(got[m].difference.hi, want[m]["hi"].get<double>()));
            QCOMPARE(got[m].positiveVideos, want[m]["positive"].get<std::int64_t>());
        }
        // A codebook compared with itself: no difference.
        for (const auto& c : compareCodebooks(s.codebook, s.codebook, s.videos, 50, 1)) {
            QVERIFY(near(c.difference.value, 0.0) && c.positiveVideos == 0);
        }
    }

    void supportOriginMatchesNumpy() {
        Synthetic s = synthetic(7, 4, 9, 5, 12, 2);  // odd count: one video stays unpaired
        SupportOriginOptions o;
        o.budgets = {1, 2, 4, 8};
        o.bootstrap = 300;
        o.bootstrapSeed = 20260811;
        std::string in = writeInput(s, {{"budgets", at::tensor({1L, 2L, 4L, 8L}, at::kLong)},
                                        {"params", at::tensor({300L, 20260811L}, at::kLong)}});
        std::string out = test::tempDir() + "/support.json";
        auto r = test::runPython("analysis_paper.py", {"support", QString::fromStdString(in),
                                                       QString::fromStdString(out)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto want = nlohmann::json::parse(test::readText(out));
        SupportOriginResult got = supportOrigin(s.codebook, s.videos, o);
        QCOMPARE(got.pairs.size(), std::size_t(3));
        for (std::size_t p = 0; p < 3; ++p) {
            QCOMPARE(got.pairs[p].first, want["pairs"][p][0].get<std::int64_t>());
            QCOMPARE(got.pairs[p].second, want["pairs"][p][1].get<std::int64_t>());
        }
        QVERIFY(near(got.bandHalfWidth, want["band"].get<double>()));
        for (std::size_t b = 0; b < 4; ++b) {
            const auto& g = got.budgets[b];
            const auto& w = want["budgets"][b];
            QCOMPARE(g.budget, w["budget"].get<std::int64_t>());
            QVERIFY(near(g.deltaR95.value, w["delta_r95"].get<double>()));
            QVERIFY(near(g.deltaR95.lo, w["band"][0].get<double>()));
            QVERIFY(near(g.deltaR95.hi, w["band"][1].get<double>()));
            QCOMPARE(g.positivePairs, w["positive"].get<std::int64_t>());
            QVERIFY(near(g.deltaMeanResidual.value, w["delta_mean"].get<double>()));
            QVERIFY(near(g.deltaMeanResidual.lo, w["mean_ci"][0].get<double>()));
            QVERIFY(near(g.deltaMeanResidual.hi, w["mean_ci"][1].get<double>()));
            QVERIFY(near(g.retainedGainPts.value, w["retained"].get<double>()));
            QVERIFY(near(g.retainedGainPts.lo, w["retained_ci"][0].get<double>()));
            QVERIFY(near(g.retainedGainPts.hi, w["retained_ci"][1].get<double>()));
        }
        // The band is simultaneous: one half-width for every budget, at least the pointwise.
        QVERIFY(got.bandHalfWidth >= 0);
        // Groups keep same-group videos apart while another partner remains.
        std::vector<std::string> groups = {"a", "a", "b", "b", "c", "c", "d"};
        for (const auto& [i, j] : pairVideosByCentroid(s.videos, groups)) {
            QVERIFY(groups[std::size_t(i)] != groups[std::size_t(j)]);
        }
        QVERIFY_THROWS_EXCEPTION(OnceError, supportOrigin(s.codebook, {s.videos[0]}, o));
        QVERIFY(supportOriginCsv(got).rfind("budget,current_r95,donor_r95,delta_r95,", 0) == 0);
    }

    void breakEvenCountAndResults() {
        // The paper's LLaVA MVBench B = 512 example: 56,508.54 s offline, 2,634.43 ms saved.
        QVERIFY(std::abs(breakEvenCount(56508.54, 2.63443) - 21450.0) < 1.0);
        QVERIFY(std::isinf(breakEvenCount(100, 0)));
        QVERIFY(std::isinf(breakEvenCount(100, -1)));

        std::string path = test::tempDir() + "/r.jsonl";
        {
            ResultsWriter w(path);
            const double e2e[3][3] = {{5.0, 2.0, 6.0}, {4.0, 1.5, 4.5}, {7.0, 3.0, 7.5}};
            for (int q = 0; q < 3; ++q) {
                const char* methods[3] = {"dense", "once", "once"};
                const std::int64_t budgets[3] = {0, 16, 64};
                for (int m = 0; m < 3; ++m) {
                    EvalRecord r;
                    r.benchmark = "mvbench";
                    r.questionId = "q" + std::to_string(q);
                    r.method = methods[m];
                    r.budget = budgets[m];
                    r.seconds["e2e"] = m == 2 ? e2e[q][0] + 1.0 : e2e[q][m];
                    w.append(r);
                }
            }
        }
        auto rows = breakEvenFromResults(readResults(path), 1000.0);
        std::string out = test::tempDir() + "/be.json";
        auto py = test::runPython("analysis_paper.py", {"breakeven", QString::fromStdString(path),
                                                        "1000", QString::fromStdString(out)});
        QVERIFY2(py.exitCode == 0, qPrintable(py.err));
        auto want = nlohmann::json::parse(test::readText(out));
        QCOMPARE(rows.size(), want.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(rows[i].budget, want[i]["budget"].get<std::int64_t>());
            if (want[i]["n_star"].is_string()) {
                QVERIFY(std::isinf(rows[i].nStar));
            } else {
                QVERIFY(near(rows[i].nStar, want[i]["n_star"].get<double>(), 1e-9));
            }
        }
        auto cli = test::runCli({"analyze", "break-even", "--results", QString::fromStdString(path),
                                 "--stage-a", "900", "--stage-b", "100", "--csv",
                                 QString::fromStdString(out + ".csv")});
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QVERIFY(cli.out.contains("never"));
        QVERIFY(test::readText(out + ".csv").find("mvbench,once,16,3,") != std::string::npos);
    }

    void analyzeCommandsWriteCsv() {
        Synthetic s = synthetic(4, 4, 9, 5, 6, 3);
        std::string cb = test::tempDir() + "/cb.safetensors";
        Codebook::fromTensor(s.codebook.to(at::kFloat), "demo").save(cb);
        QStringList features;
        for (std::size_t v = 0; v < s.videos.size(); ++v) {
            const std::string path = test::writeFeatureFile(
                s.videos[v].to(at::kFloat),
                test::tempDir() + "/v" + std::to_string(v) + ".safetensors", 1.0, "synthetic");
            features << "--features" << QString::fromStdString(path);
        }
        const QString dir = QString::fromStdString(test::tempDir());
        auto st =
            test::runCli(QStringList{"analyze", "stress", "--codebook", QString::fromStdString(cb),
                                     "--codebook", QString::fromStdString(cb), "--random-codebooks",
                                     "2", "--bootstrap", "100", "--csv", dir + "/stress"}
                         << features);
        QVERIFY2(st.exitCode == 0, qPrintable(st.err));
        QVERIFY(st.out.contains("R95"));
        QVERIFY(test::readText((dir + "/stress.csv").toStdString()).find("R95,") !=
                std::string::npos);
        QVERIFY(QFile::exists(dir + "/stress_videos.csv"));
        QVERIFY(QFile::exists(dir + "/stress_1.csv"));
        QVERIFY(test::readText((dir + "/stress_vs_first_1.csv").toStdString()).find("R95,") !=
                std::string::npos);
        auto so = test::runCli(QStringList{"analyze", "support-origin", "--codebook",
                                           QString::fromStdString(cb), "--budgets", "2,4",
                                           "--bootstrap", "100", "--csv", dir + "/so.csv"}
                               << features);
        QVERIFY2(so.exitCode == 0, qPrintable(so.err));
        QVERIFY(so.out.contains("2 disjoint pair(s)"));
        QCOMPARE(QString::fromStdString(test::readText((dir + "/so.csv").toStdString()))
                     .split('\n', Qt::SkipEmptyParts)
                     .size(),
                 3);
    }
};

QTEST_GUILESS_MAIN(TestPaperAnalyses)
#include "test_paper_analyses.moc"
