// The top-L row scan: the AVX-512 path (where the CPU has it) gives exactly the lists of the
// scalar reference, ties to the lower index included, for F32 and BF16 scores; and both agree
// with a sort.
#include <ATen/ATen.h>

#include <QtTest>
#include <algorithm>
#include <numeric>
#include <vector>

#include "compress/top_l_scan.h"

using namespace once;

namespace {

// Reference by sorting: descending score, ascending index on ties.
std::vector<std::int32_t> sortedTop(const std::vector<float>& row, int l) {
    std::vector<std::int32_t> idx(row.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return row[a] > row[b]; });
    idx.resize(std::size_t(l));
    return idx;
}

}  // namespace

class TestTopLScan : public QObject {
    Q_OBJECT
  private slots:
    void matchesSortAndScalar_data() {
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("l");
        QTest::addColumn<bool>("coarse");  // few distinct values: many ties
        for (int k : {1, 7, 16, 33, 100, 8192}) {
            for (int l : {1, 3, 8}) {
                if (l <= k) {
                    for (bool coarse : {false, true}) {
                        QTest::addRow("k%d-l%d-%s", k, l, coarse ? "ties" : "distinct")
                            << k << l << coarse;
                    }
                }
            }
        }
    }

    void matchesSortAndScalar() {
        QFETCH(int, k);
        QFETCH(int, l);
        QFETCH(bool, coarse);
        at::manual_seed(k * 10 + l);
        for (int rep = 0; rep < 20; ++rep) {
            at::Tensor row = at::randn({k});
            if (coarse) {
                row = (row * 4).round() / 4;
            }
            at::Tensor rowBf = row.to(at::kBFloat16);
            const at::Tensor rowFromBf = rowBf.to(at::kFloat);
            for (bool bf : {false, true}) {
                const at::Tensor r = bf ? rowFromBf : row;
                std::vector<float> v(r.data_ptr<float>(), r.data_ptr<float>() + k);
                const auto n = static_cast<std::size_t>(l);
                std::vector<std::int32_t> ids(n), sids(n);
                std::vector<float> sc(n), ssc(n);
                if (bf) {
                    scanTopL(rowBf.data_ptr<c10::BFloat16>(), k, l, ids.data(), sc.data());
                    scanTopLScalar(rowBf.data_ptr<c10::BFloat16>(), k, l, sids.data(), ssc.data());
                } else {
                    scanTopL(v.data(), k, l, ids.data(), sc.data());
                    scanTopLScalar(v.data(), k, l, sids.data(), ssc.data());
                }
                QCOMPARE(ids, sortedTop(v, l));
                QCOMPARE(sids, ids);
                QCOMPARE(ssc, sc);
                for (int i = 0; i < l; ++i) {
                    QCOMPARE(sc[std::size_t(i)], v[std::size_t(ids[std::size_t(i)])]);
                }
            }
        }
    }

    void reportsPath() { qInfo("AVX-512 scan: %s", scanTopLVectorized() ? "yes" : "no"); }
};

QTEST_APPLESS_MAIN(TestTopLScan)
#include "test_top_l_scan.moc"
