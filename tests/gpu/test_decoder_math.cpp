// The CUDA decoder kernels' thread bodies (gpu/decoder_math.cuh) run on the CPU for every thread
// index and compared with the ATen reference (models/decoder_kernels.h): the indexing of q, k and v
// in a fused row, positions from the host and from a pointer, row and store strides, the value
// copy, and each rounding to BF16/F16. What differs from the reference is only the library's
// transcendental functions (glibc here, ATen's vectorised ones there, CUDA's on the GPU) and the
// order of the RMSNorm's sum: the same rules as on the GPU (support/decoder_kernel_check.h). Built
// where CUDA's headers are (the conversions are theirs); the GPU itself checks the launches
// (decoder_kernel_check.h).
#include <ATen/ATen.h>

#include <QtTest>
#include <cmath>

#include "decoder_math.cuh"
#include "models/decoder_kernels.h"
#include "support/decoder_kernel_check.h"

using namespace once;
using namespace once::gpu;
using test::compareOutputs;
using test::KernelRule;
using test::withinRule;

namespace {

template <typename T>
T* data(const at::Tensor& t) {
    return reinterpret_cast<T*>(t.data_ptr());
}

// Calls f with the C++ element type of `type`.
template <typename F>
void withType(at::ScalarType type, F&& f) {
    if (type == at::kBFloat16) {
        f(__nv_bfloat16{});
    } else if (type == at::kHalf) {
        f(__half{});
    } else {
        f(float{});
    }
}

}  // namespace

class TestDecoderMath : public QObject {
    Q_OBJECT

  private slots:
    void theRotaryStoreEqualsTheReference_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<bool>("decoding");
        for (at::ScalarType t : {at::kBFloat16, at::kHalf, at::kFloat}) {
            const std::string name = c10::toString(t);
            QTest::newRow((name + ", prefill rows").c_str()) << int(t) << false;
            QTest::newRow((name + ", decoding row").c_str()) << int(t) << true;
        }
    }
    void theRotaryStoreEqualsTheReference() {
        QFETCH(int, type);
        QFETCH(bool, decoding);
        const auto dtype = at::ScalarType(type);
        // Qwen2-0.5B's grouping (14 query, 2 key/value heads of 64) and rope base.
        const std::int64_t heads = 14, kvHeads = 2, hd = 64, width = (heads + 2 * kvHeads) * hd;
        const std::int64_t rows = decoding ? 1 : 33, first = 900;
        at::manual_seed(3);
        const at::Tensor wide = (2 * at::randn({rows, width + 24})).to(dtype);
        const at::Tensor invFreq =
            (1.0 / at::pow(1e6, at::arange(0, hd, 2).to(at::kDouble) / double(hd))).to(at::kFloat);
        // Stores with room for 1200 positions, seen through 1000 of them (a reused store: the
        // head stride is not capacity × headDim).
        const at::Tensor stores = at::randn({2, 1, kvHeads, 1200, hd}).to(dtype);
        RotaryStoreArgs ref;
        ref.qkv = wide.narrow(1, 16, width);
        ref.heads = heads;
        ref.kvHeads = kvHeads;
        ref.invFreq = invFreq;
        ref.firstPosition = decoding ? 0 : first;
        const at::Tensor position = at::full({1}, first + 57, at::kLong);
        if (decoding) {
            ref.position = position;
        }
        RotaryStoreArgs mine = ref;
        for (RotaryStoreArgs* a : {&ref, &mine}) {
            a->queries = at::zeros({1, rows, heads, hd}, dtype);
            a->keyStore = stores[0].clone().narrow(2, 0, 1000);
            a->valueStore = stores[1].clone().narrow(2, 0, 1000);
        }
        referenceDecoderKernels().rotaryStore(ref);

        RotaryStoreParams p;
        p.qkv = mine.qkv.data_ptr();
        p.qkvRowStride = mine.qkv.stride(0);
        p.rows = rows;
        p.heads = int(heads);
        p.kvHeads = int(kvHeads);
        p.headDim = int(hd);
        p.invFreq = invFreq.data_ptr<float>();
        p.firstPosition = mine.firstPosition;
        p.position = decoding ? position.data_ptr<std::int64_t>() : nullptr;
        p.queries = mine.queries.data_ptr();
        p.keyStore = mine.keyStore.data_ptr();
        p.valueStore = mine.valueStore.data_ptr();
        p.storeHeadStride = mine.keyStore.stride(1);
        p.storeRowStride = mine.keyStore.stride(2);
        p.capacity = mine.keyStore.size(2);
        withType(dtype, [&](auto tag) {
            using T = decltype(tag);
            for (std::int64_t t = 0; t < rows * (heads + 2 * kvHeads) * (hd / 2); ++t) {
                math::rotaryStoreElement<T>(p, t);
            }
        });
        // Values are copied: identical. Queries and keys: the same roundings in the same order,
        // so identical but where glibc's cos/sin and ATen's differ in the last F32 bit.
        QVERIFY(at::equal(mine.valueStore, ref.valueStore));
        for (auto [got, want] :
             {std::pair{mine.queries, ref.queries}, std::pair{mine.keyStore, ref.keyStore}}) {
            const test::Comparison c = compareOutputs(got, want);
            qInfo("%s", c.text().c_str());
            QVERIFY(withinRule(c, KernelRule::SameRoundings, dtype));
        }
        // Only the rows of the block's positions were written.
        const at::Tensor written = (mine.keyStore != stores[0].narrow(2, 0, 1000)).any(3).any(1);
        const std::int64_t from = decoding ? first + 57 : first;
        QCOMPARE(written.sum().item<std::int64_t>(), rows);
        QVERIFY(written.narrow(1, from, rows).all().item<bool>());
    }

    void swigluEqualsTheReference_data() {
        QTest::addColumn<int>("type");
        for (at::ScalarType t : {at::kBFloat16, at::kHalf, at::kFloat}) {
            QTest::newRow(c10::toString(t)) << int(t);
        }
    }
    void swigluEqualsTheReference() {
        QFETCH(int, type);
        const auto dtype = at::ScalarType(type);
        const std::int64_t rows = 3, width = 4864;  // Qwen2-0.5B's intermediate size
        const at::Tensor gateUp = (4 * at::randn({rows, 2 * width})).to(dtype);
        const at::Tensor want = referenceDecoderKernels().swiglu(gateUp);
        at::Tensor got = at::empty({rows, width}, dtype);
        withType(dtype, [&](auto tag) {
            using T = decltype(tag);
            for (std::int64_t t = 0; t < rows * width; ++t) {
                math::swigluElement(data<T>(gateUp), 2 * width, width, data<T>(got), t);
            }
        });
        const test::Comparison c = compareOutputs(got, want);
        qInfo("%s", c.text().c_str());
        QVERIFY(withinRule(c, KernelRule::SameRoundings, dtype));
    }

    void rmsNormEqualsTheReference_data() {
        QTest::addColumn<int>("type");
        for (at::ScalarType t : {at::kBFloat16, at::kHalf, at::kFloat}) {
            QTest::newRow(c10::toString(t)) << int(t);
        }
    }
    void rmsNormEqualsTheReference() {
        QFETCH(int, type);
        const auto dtype = at::ScalarType(type);
        const std::int64_t rows = 6, n = 3584;  // the 7B model's hidden size
        const float eps = 1e-6f;
        const at::Tensor x = (3 * at::randn({rows, n})).to(dtype);
        const at::Tensor w = (1 + 0.3 * at::randn({n})).to(dtype);
        const at::Tensor want = referenceDecoderKernels().rmsNorm(x, w, eps);
        at::Tensor got = at::empty_like(x);
        withType(dtype, [&](auto tag) {
            using T = decltype(tag);
            for (std::int64_t r = 0; r < rows; ++r) {
                float squares = 0.f;  // the block sums in another order: the tolerance's reason
                for (std::int64_t i = 0; i < n; ++i) {
                    const float v = widen(data<T>(x)[r * n + i]);
                    squares += math::mul(v, v);
                }
                const float scale = math::rmsScale(squares, n, eps);
                for (std::int64_t i = 0; i < n; ++i) {
                    data<T>(got)[r * n + i] =
                        math::rmsElement(data<T>(x)[r * n + i], data<T>(w)[i], scale);
                }
            }
        });
        const test::Comparison c = compareOutputs(got, want);
        qInfo("%s", c.text().c_str());
        QVERIFY(withinRule(c, KernelRule::SumOrder, dtype));
    }
};

QTEST_GUILESS_MAIN(TestDecoderMath)
#include "test_decoder_math.moc"
