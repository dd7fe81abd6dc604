// The certified BF16 kernel (compress/certified_topl.h) against the F32 product: the per-token
// error bound holds on random and adversarial vectors, and the re-budget's certified argmax is
// the F32 one; every certified list is a prefix of the
// exact list (at least k̂, −1/NaN after it); tokens with nothing certified take the F32 product;
// completed lists equal the exact ones; every variant at every budget and Q groups the tokens
// exactly as the F32 kernel does; and where cosines differ by F32 rounding only, both kernels'
// picks are optimal within 1e-6. The kernel is forced here, so CPUs without native BF16 run it
// too (slowly); "auto" uses it only where BF16 dot products are native.
#include <ATen/ATen.h>

#include <QtTest>
#include <cmath>

#include "codebook/codebook.h"
#include "compress/assignment.h"
#include "compress/certified_topl.h"
#include "compress/compression.h"

using namespace once;

namespace {

at::Tensor unitRows(const at::Tensor& x) {
    return x / x.norm(2, 1, true).clamp_min(1e-12);
}

Assignment assignWith(const at::Tensor& x, const Codebook& cb, const char* kernel) {
    AssignOptions o;
    o.float32Kernel = kernel;
    o.tileRows = 100;  // several tiles, the last one short
    return assignTokens(x, cb, o);
}

struct Case {
    const char* name;
    at::Tensor x, codebook;
};

std::vector<Case> cases() {
    at::manual_seed(11);
    std::vector<Case> out;
    // Clustered: each token near one of 32 centres, 8 codewords around each centre.
    const at::Tensor centres = at::randn({32, 64});
    const at::Tensor cb = centres.repeat_interleave(8, 0) + 0.3 * at::randn({256, 64});
    const at::Tensor x =
        centres.index_select(0, at::randint(0, 32, {300}, at::kLong)) + 0.4 * at::randn({300, 64});
    out.push_back({"clustered", x, cb});
    // Isotropic: no structure at all.
    out.push_back({"isotropic", at::randn({249, 96}), at::randn({300, 96})});
    // Nearly one direction: every score within 1e-3 of the others, nothing can be certified.
    const at::Tensor v = at::randn({1, 48});
    out.push_back(
        {"near-uniform", v + 1e-4 * at::randn({120, 48}), v + 1e-4 * at::randn({200, 48})});
    // Duplicated codewords: exact ties, which go to the lower index.
    const at::Tensor base = at::randn({40, 32});
    out.push_back({"duplicates", at::randn({150, 32}), at::cat({base, base, base}, 0)});
    // One clear best codeword, then a crowd of 60 nearly equal ones (scores apart by about
    // 1e-3, under the bound): the prefix stops after the best.
    const at::Tensor a = unitRows(at::randn({1, 40})), w = unitRows(at::randn({1, 40}));
    out.push_back({"crowd", 0.8 * a + 0.6 * w + 0.02 * at::randn({99, 40}),
                   at::cat({a, w + 1e-3 * at::randn({60, 40}), at::randn({30, 40})})});
    // Fewer codewords than candidates: every codeword is a candidate, all certified.
    out.push_back({"small K", at::randn({90, 24}), at::randn({10, 24})});
    return out;
}

}  // namespace

class TestCertifiedTopL : public QObject {
    Q_OBJECT
  private slots:
    void errorBoundHolds() {
        at::manual_seed(3);
        for (std::int64_t d : {16, 64, 896, 3584}) {
            // Random rows, and rows of equal magnitudes placed halfway between BF16 values so
            // every element rounds by nearly the most it can, all errors with one sign.
            at::Tensor x = unitRows(at::randn({64, d}));
            at::Tensor c = unitRows(at::randn({128, d}));
            const double halfway = 1.0 + std::ldexp(1.0, -8) * 0.999;
            const at::Tensor worst = unitRows(at::full({1, d}, halfway));
            x = at::cat({x, worst}).contiguous();
            c = at::cat({c, worst, -worst}).contiguous();
            const at::Tensor xb = x.to(at::kBFloat16), cb = c.to(at::kBFloat16);
            const at::Tensor g = at::mm(xb, cb.t()).to(at::kFloat).contiguous();
            const Bf16RowNorms codes = maxBf16RowNorms(c, cb);
            double tightest = 1, loosest = 0, worstRatio = 0;
            for (std::int64_t i = 0; i < x.size(0); ++i) {
                const float* xi = x.data_ptr<float>() + i * d;
                const double slack =
                    bf16TokenSlack(bf16RowNorms(xi, bf16Bits(xb) + i * d, d), codes, d);
                tightest = std::min(tightest, slack);
                loosest = std::max(loosest, slack);
                for (std::int64_t k = 0; k < c.size(0); ++k) {
                    const float gk = g[i][k].item<float>();
                    const double f = dotF32(xi, c.data_ptr<float>() + k * d, d);
                    QVERIFY2(
                        bf16ScoreLower(gk, slack) <= f && f <= bf16ScoreUpper(gk, slack),
                        qPrintable(
                            QStringLiteral("D = %1, token %2, codeword %3").arg(d).arg(i).arg(k)));
                    worstRatio =
                        std::max(worstRatio, std::abs(f - gk) / (bf16ScoreUpper(gk, slack) - gk));
                }
            }
            qInfo("D = %lld: slack %.4g .. %.4g, largest |f − g| / bound %.2f",
                  static_cast<long long>(d), tightest, loosest, worstRatio);
            // Random rows: well under the operand-only worst case 2u (what makes the candidate
            // sets small); the halfway rows reach up to it.
            QVERIFY(tightest < 1.2 * std::ldexp(1.0, -8));
            QVERIFY(loosest < 2.2 * std::ldexp(1.0, -8));
        }
    }

    void certifiedArgmaxIsTheF32Argmax() {
        // Against the brute-force dotF32 argmax (ties to the lower id) over selections of
        // isotropic, near-uniform and duplicated codewords.
        at::manual_seed(8);
        for (const Case& cs : cases()) {
            const std::int64_t d = cs.x.size(1);
            const at::Tensor x = unitRows(cs.x).contiguous();
            const at::Tensor c = unitRows(cs.codebook).contiguous();
            // A shuffled selection, so positions and ids disagree in order.
            const at::Tensor perm = at::randperm(c.size(0), at::kLong);
            const std::int64_t s = std::min<std::int64_t>(c.size(0), 50);
            const at::Tensor sel = perm.slice(0, 0, s);
            const at::Tensor rows = c.index_select(0, sel).contiguous();
            const at::Tensor rowsB = rows.to(at::kBFloat16);
            std::vector<std::int32_t> ids(static_cast<std::size_t>(s));
            for (std::int64_t p = 0; p < s; ++p) {
                ids[std::size_t(p)] = std::int32_t(sel[p].item<std::int64_t>());
            }
            const Bf16RowNorms codes = maxBf16RowNorms(rows, rowsB);
            const at::Tensor xb = x.to(at::kBFloat16);
            const at::Tensor g = at::mm(xb, rowsB.t()).to(at::kFloat).contiguous();
            std::int64_t rescored = 0;
            for (std::int64_t i = 0; i < x.size(0); ++i) {
                const float* xi = x.data_ptr<float>() + i * d;
                std::int64_t want = 0;
                float wantScore = dotF32(xi, rows.data_ptr<float>(), d);
                for (std::int64_t p = 1; p < s; ++p) {
                    const float f = dotF32(xi, rows.data_ptr<float>() + p * d, d);
                    if (f > wantScore ||
                        (f == wantScore && ids[std::size_t(p)] < ids[std::size_t(want)])) {
                        want = p;
                        wantScore = f;
                    }
                }
                const double slack =
                    bf16TokenSlack(bf16RowNorms(xi, bf16Bits(xb) + i * d, d), codes, d);
                float score = 0;
                const std::int64_t got =
                    certifiedArgmax(xi, rows.data_ptr<float>(), d, g.data_ptr<float>() + i * s,
                                    ids.data(), s, slack, score, rescored);
                QVERIFY2(
                    got == want,
                    qPrintable(QStringLiteral("%1: token %2").arg(QLatin1String(cs.name)).arg(i)));
                QCOMPARE(score, wantScore);
            }
            qInfo("%s: %lld of %lld scores re-scored in F32", cs.name,
                  static_cast<long long>(rescored), static_cast<long long>(x.size(0) * s));
        }
    }

    void dotIsFixedOrderAndAccurate() {
        at::manual_seed(5);
        const at::Tensor a = at::randn({1000}), b = at::randn({1000});
        const float got = dotF32(a.data_ptr<float>(), b.data_ptr<float>(), 1000);
        const double want = (a.to(at::kDouble) * b.to(at::kDouble)).sum().item<double>();
        QVERIFY(std::abs(got - want) < 1e-4);
        QCOMPARE(dotF32(a.data_ptr<float>(), b.data_ptr<float>(), 1000), got);
        QCOMPARE(dotF32(a.data_ptr<float>(), b.data_ptr<float>(), 7),
                 dotF32(a.data_ptr<float>(), b.data_ptr<float>(), 7));
    }

    void certifiedListsArePrefixesOfTheExactOnes() {
        bool sawPrefix = false, sawFallback = false, sawComplete = false;
        for (const Case& c : cases()) {
            const Codebook cb = Codebook::fromTensor(c.codebook);
            const Assignment exact = assignWith(c.x, cb, "sgemm");
            const Assignment cert = assignWith(c.x, cb, "bf16-certified");
            QCOMPARE(cert.kernel, std::string("bf16-certified"));
            QVERIFY(exact.listsComplete);
            const std::int64_t n = exact.numTokens, l = exact.listSize();
            QCOMPARE(cert.listSize(), l);
            const at::Tensor ei = exact.topIds, ci = cert.topIds;
            std::int64_t shortest = l;
            for (std::int64_t i = 0; i < n; ++i) {
                std::int64_t m = 0;
                while (m < l && ci[i][m].item<std::int32_t>() >= 0) {
                    ++m;
                }
                shortest = std::min(shortest, m);
                QVERIFY2(m >= 1, c.name);  // k̂ always
                for (std::int64_t p = 0; p < l; ++p) {
                    if (p < m) {
                        QVERIFY2(ci[i][p].item<std::int32_t>() == ei[i][p].item<std::int32_t>(),
                                 qPrintable(QStringLiteral("%1: token %2, entry %3")
                                                .arg(QLatin1String(c.name))
                                                .arg(i)
                                                .arg(p)));
                        QVERIFY(std::abs(cert.topScores[i][p].item<float>() -
                                         exact.topScores[i][p].item<float>()) < 1e-5);
                    } else {
                        QCOMPARE(ci[i][p].item<std::int32_t>(), -1);
                        QVERIFY(std::isnan(cert.topScores[i][p].item<float>()));
                    }
                }
            }
            QCOMPARE(cert.listsComplete, shortest == l);
            QVERIFY(at::equal(cert.counts, exact.counts));
            qInfo("%s: shortest list %lld of %lld, exact fallback %lld of %lld tokens", c.name,
                  static_cast<long long>(shortest), static_cast<long long>(l),
                  static_cast<long long>(cert.exactFallbackTokens), static_cast<long long>(n));
            sawPrefix = sawPrefix || !cert.listsComplete;
            sawFallback = sawFallback || cert.exactFallbackTokens > 0;
            sawComplete = sawComplete || cert.listsComplete;

            // Completed lists are the exact ones.
            const auto [ids, scores] = completeTopLists(cert, c.x, cb.normalized());
            QVERIFY2(at::equal(ids, exact.topIds), c.name);
            QVERIFY((scores - exact.topScores).abs().max().item<float>() < 1e-5);
        }
        // Each path was exercised: short prefixes, the F32 fallback, complete lists.
        QVERIFY(sawPrefix);
        QVERIFY(sawFallback);
        QVERIFY(sawComplete);
    }

    void compressionIsTheSameForEveryVariantBudgetAndRounds() {
        for (const Case& c : cases()) {
            if (std::string(c.name) == "near-uniform") {
                continue;  // cosines apart by F32 rounding: see the next test
            }
            const Codebook cb = Codebook::fromTensor(c.codebook);
            const at::Tensor x = c.x.reshape({-1, 3, c.x.size(1)});  // [T, 3, D]
            const Assignment exact = assignWith(x, cb, "sgemm");
            const Assignment cert = assignWith(x, cb, "bf16-certified");
            for (const std::string& variant : variantNames()) {
                for (std::int64_t b : {1, 2, 5, 17, 64, 400}) {
                    for (int rounds : {1, 3}) {
                        CompressOptions o;
                        o.budget = b;
                        o.variant = parseVariant(variant);
                        o.seed = 9;
                        o.rounds = rounds;
                        const CompressionResult r1 = compressAssigned(x, exact, cb, o);
                        const CompressionResult r2 = compressAssigned(x, cert, cb, o);
                        const QByteArray where = QByteArray(c.name) + " " +
                                                 QByteArray::fromStdString(variant) +
                                                 " B=" + QByteArray::number(qint64(b)) +
                                                 " Q=" + QByteArray::number(rounds);
                        QVERIFY2(at::equal(r1.codewordIds, r2.codewordIds), where);
                        QVERIFY2(at::equal(r1.groupOfToken, r2.groupOfToken), where);
                        QVERIFY2((r1.tokens - r2.tokens).abs().max().item<float>() < 1e-5, where);
                    }
                }
            }
        }
    }

    void roundingLevelTiesAreResolvedWithinRounding() {
        // Where cosines differ by about F32 rounding (1e-7), no F32 kernel is exact and the two
        // may pick different members of a near tie; each pick must be optimal within 1e-6 of
        // the F64 cosines over the selection.
        const Case c = cases()[2];
        QCOMPARE(std::string(c.name), std::string("near-uniform"));
        const Codebook cb = Codebook::fromTensor(c.codebook);
        const at::Tensor x64 = unitRows(c.x.to(at::kDouble));
        const at::Tensor c64 = unitRows(c.codebook.to(at::kDouble));
        for (const char* kernel : {"sgemm", "bf16-certified"}) {
            const Assignment a = assignWith(c.x, cb, kernel);
            for (std::int64_t b : {1, 2, 5, 17, 64}) {
                CompressOptions o;
                o.budget = b;
                const CompressionResult r = compressAssigned(c.x, a, cb, o);
                const at::Tensor sel = r.codewordIds.to(at::kLong);
                const at::Tensor cos = at::mm(x64, c64.index_select(0, sel).t());
                const at::Tensor chosen =
                    cos.gather(1, r.groupOfToken.to(at::kLong).unsqueeze(1)).squeeze(1);
                const double gap = (std::get<0>(cos.max(1)) - chosen).max().item<double>();
                QVERIFY2(
                    gap <= 1e-6,
                    qPrintable(
                        QStringLiteral("%1 B=%2: %3").arg(QLatin1String(kernel)).arg(b).arg(gap)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCertifiedTopL)
#include "test_certified_topl.moc"
