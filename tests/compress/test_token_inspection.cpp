// inspectToken (view 15's numbers) against a brute-force double-precision ranking written here
// from the definitions: cosine ν(x)·ν(c), best first, ties to the lower index; the group, output
// row and residual against the compression result and the assignment's k̂.
#include <ATen/ATen.h>

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <vector>

#include "codebook/codebook.h"
#include "compress/assignment.h"
#include "compress/compression.h"
#include "compress/token_inspection.h"
#include "util/error.h"

using namespace once;

namespace {

double cosine(const at::Tensor& a, const at::Tensor& b) {
    const at::Tensor x = a.to(at::kDouble), y = b.to(at::kDouble);
    return (x.dot(y) / (x.norm() * y.norm())).item<double>();
}

/// Codeword ids of `c` by cosine to `x`, best first, ties to the lower id.
std::vector<std::int64_t> bruteRanking(const at::Tensor& x, const at::Tensor& c) {
    std::vector<double> s(static_cast<std::size_t>(c.size(0)));
    for (std::int64_t k = 0; k < c.size(0); ++k) {
        s[static_cast<std::size_t>(k)] = cosine(x, c[k]);
    }
    std::vector<std::int64_t> ids(s.size());
    for (std::size_t i = 0; i < ids.size(); ++i) {
        ids[i] = static_cast<std::int64_t>(i);
    }
    std::stable_sort(ids.begin(), ids.end(), [&](std::int64_t a, std::int64_t b) {
        return s[static_cast<std::size_t>(a)] > s[static_cast<std::size_t>(b)];
    });
    return ids;
}

CompressionResult compress(const at::Tensor& x, const Codebook& cb, std::int64_t budget,
                           Variant variant = Variant::Full) {
    CompressOptions o;
    o.budget = budget;
    o.variant = variant;
    return compressOnce(x, cb, o);
}

}  // namespace

class TestTokenInspection : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { at::manual_seed(7); }

    void matchesTheBruteForceRankingAndTheResult() {
        const at::Tensor x = at::randn({3, 20, 16});
        const at::Tensor c = at::randn({40, 16});
        const Codebook cb = Codebook::fromTensor(c);
        const CompressionResult r = compress(x, cb, 5);
        AssignOptions ao;
        ao.float32Kernel = "sgemm";
        const Assignment a = assignTokens(x, cb, ao);
        const at::Tensor flat = x.reshape({-1, 16});
        int reassigned = 0;
        for (std::int64_t i = 0; i < r.numTokens; ++i) {
            const TokenInspection t = inspectToken(x, &cb, r, i, 6);
            const std::vector<std::int64_t> brute = bruteRanking(flat[i], c);
            QCOMPARE(t.token, i);
            QCOMPARE(t.nearest.size(), std::size_t{6});
            for (std::size_t j = 0; j < 6; ++j) {
                QCOMPARE(t.nearest[j].id, brute[j]);
                QVERIFY(std::abs(t.nearest[j].cosine - cosine(flat[i], c[brute[j]])) < 1e-5);
            }
            QCOMPARE(t.nearest[0].id, static_cast<std::int64_t>(a.topIds[i][0].item<int>()));
            const auto row = r.groupOfToken[i].item<std::int64_t>();
            QCOMPARE(t.outputRow, row);
            QCOMPARE(t.groupCodeword, r.codewordIds[row].item<std::int64_t>());
            QCOMPARE(t.groupSize, r.groupSizes[row].item<std::int64_t>());
            const auto rank =
                std::find(brute.begin(), brute.end(), t.groupCodeword) - brute.begin();
            QCOMPARE(t.groupCodewordRank, static_cast<std::int64_t>(rank));
            QVERIFY(std::abs(t.cosineToGroupCodeword - cosine(flat[i], c[t.groupCodeword])) < 1e-5);
            QVERIFY(std::abs(t.residual - (1.0 - t.cosineToGroupCodeword)) < 1e-5);
            QVERIFY(std::abs(t.cosineToOutput - cosine(flat[i], r.tokens[row])) < 1e-5);
            reassigned += t.groupCodewordRank > 0 ? 1 : 0;
            // The paper's rule: a token keeps k̂ exactly when k̂ was selected.
            const bool kHatSelected = (r.codewordIds == t.nearest[0].id).any().item<bool>();
            QCOMPARE(t.groupCodewordRank == 0, kHatSelected);
        }
        QVERIFY2(reassigned > 0, "a budget of 5 of 40 codewords must reassign some tokens");
    }

    void tiesGoToTheLowerCodeword() {
        at::Tensor c = at::randn({6, 8});
        c[4] = c[1] * 2;  // same direction: the same cosine to every token
        const Codebook cb = Codebook::fromTensor(c);
        const at::Tensor x = c[1].reshape({1, 1, 8}).clone();
        const CompressionResult r = compress(x, cb, 1);
        const TokenInspection t = inspectToken(x, &cb, r, 0, 3);
        QCOMPARE(t.nearest[0].id, std::int64_t{1});
        QCOMPARE(t.nearest[1].id, std::int64_t{4});
        QCOMPARE(t.groupCodeword, std::int64_t{1});
        QCOMPARE(t.groupCodewordRank, std::int64_t{0});
    }

    void droppedTokenFeedsNoOutput() {
        const at::Tensor x = at::randn({2, 30, 8});
        const Codebook cb = Codebook::fromTensor(at::randn({20, 8}));
        const CompressionResult r = compress(x, cb, 2, Variant::NoReassign);
        const at::Tensor dropped = (r.groupOfToken < 0).nonzero();
        QVERIFY(dropped.size(0) > 0);
        const auto i = dropped[0][0].item<std::int64_t>();
        const TokenInspection t = inspectToken(x, &cb, r, i, 4);
        QCOMPARE(t.outputRow, std::int64_t{-1});
        QCOMPARE(t.groupCodeword, std::int64_t{-1});
        QCOMPARE(t.groupCodewordRank, std::int64_t{-1});
        QVERIFY(std::isnan(t.cosineToOutput));
        QCOMPARE(t.nearest.size(), std::size_t{4});
        // A dropped token's residual is to its k̂.
        QVERIFY(std::abs(t.residual - (1.0f - t.nearest[0].cosine)) < 1e-5f);
    }

    void withoutCodebookOnlyTheGroup() {
        const at::Tensor x = at::randn({2, 10, 8});
        const Codebook cb = Codebook::fromTensor(at::randn({8, 8}));
        const CompressionResult r = compress(x, cb, 3);
        const TokenInspection t = inspectToken(x, nullptr, r, 3, 5);
        QVERIFY(t.nearest.empty());
        QCOMPARE(t.outputRow, r.groupOfToken[3].item<std::int64_t>());
        QCOMPARE(t.groupCodeword, std::int64_t{-1});
        QVERIFY(!std::isnan(t.cosineToOutput));
    }

    void kIsClampedAndNonFiniteFeaturesDoNotBreakTheOrder() {
        at::Tensor x = at::randn({1, 4, 8});
        const Codebook cb = Codebook::fromTensor(at::randn({5, 8}));
        const CompressionResult r = compress(x, cb, 2);
        QCOMPARE(inspectToken(x, &cb, r, 0, 0).nearest.size(), std::size_t{1});
        QCOMPARE(inspectToken(x, &cb, r, 0, 1000).nearest.size(), std::size_t{5});
        at::Tensor bad = x.clone();
        bad[0][2][3] = std::nanf("");
        const TokenInspection t = inspectToken(bad, &cb, r, 2, 5);
        QCOMPARE(t.nearest.size(), std::size_t{5});
        for (std::size_t j = 0; j < 5; ++j) {
            QCOMPARE(t.nearest[j].id, static_cast<std::int64_t>(j));  // all NaN: index order
        }
    }

    void mismatchesAreNamed() {
        const at::Tensor x = at::randn({2, 5, 8});
        const Codebook cb = Codebook::fromTensor(at::randn({4, 8}));
        const CompressionResult r = compress(x, cb, 2);
        QVERIFY_THROWS_EXCEPTION(OnceError, inspectToken(x, &cb, r, 10, 3));
        QVERIFY_THROWS_EXCEPTION(OnceError, inspectToken(x, &cb, r, -1, 3));
        QVERIFY_THROWS_EXCEPTION(OnceError, inspectToken(at::randn({2, 6, 8}), &cb, r, 0, 3));
        const Codebook other = Codebook::fromTensor(at::randn({4, 6}));
        try {
            inspectToken(x, &other, r, 0, 3);
            QFAIL("a codebook of another dimension was accepted");
        } catch (const OnceError& e) {
            QCOMPARE(QString::fromStdString(e.where().field), QStringLiteral("dimension"));
        }
    }
};

QTEST_GUILESS_MAIN(TestTokenInspection)
#include "test_token_inspection.moc"
