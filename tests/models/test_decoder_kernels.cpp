// The decoder-kernel seam (models/decoder_kernels.h) on the CPU: the check that a device's fused
// kernels must pass (support/decoder_kernel_check.h, run on a GPU by compress_test_backends_cuda
// and `bench_gpu check`) passes for the reference and fails for each perturbed kernel, so it can
// fail; the two forms of the reference's rotary store (positions known on the host, a position on
// the device) agree; and the model's prefill and fixed-shape decoding steps reach the kernels
// registered for their device, with the same logits.
#include <ATen/ATen.h>

#include <QtTest>

#include "models/decoder_kernels.h"
#include "models/hf_checkpoint.h"
#include "models/qwen2/qwen2_model.h"
#include "models/qwen2/qwen2_static_decode.h"
#include "support/decoder_kernel_check.h"
#include "support/models_fixture.h"
#include "support/test_support.h"

using namespace once;

namespace {

// Failed cases of `kernels`' check whose name starts with `member`.
int failures(const DecoderKernels& kernels, const std::string& member) {
    int failed = 0;
    for (const test::BackendCheck& c : test::checkDecoderKernels(kernels, "cpu")) {
        failed += !c.passed && c.what.rfind(member, 0) == 0 ? 1 : 0;
    }
    return failed;
}

// Logits of a prefill of `ids` and three fixed-shape steps.
std::vector<at::Tensor> prefillAndSteps(const Qwen2Model& model, const at::Tensor& ids) {
    KvCache cache;
    std::vector<at::Tensor> logits{model.forward(model.embed(ids), cache, true)};
    Qwen2StaticDecoder decoder(model, cache, ids.size(0) + 3, /*graph=*/false);
    for (std::int64_t t : {5, 9, 2}) {
        logits.push_back(decoder.step(t).clone());
    }
    return logits;
}

}  // namespace

class TestDecoderKernels : public QObject {
    Q_OBJECT

  private slots:
    void theReferencePassesTheCheck() {
        const std::vector<test::BackendCheck> checks =
            test::checkDecoderKernels(referenceDecoderKernels(), "cpu");
        // 3 types × (3 norms, 2 stores, 1 product, 1 attention), and no fallback.
        QCOMPARE(checks.size(), std::size_t(3 * 7 + 1));
        for (const test::BackendCheck& c : checks) {
            QVERIFY2(c.passed, (c.what + ": " + c.detail).c_str());
        }
    }

    void eachPerturbedKernelFailsTheCheck() {
        const DecoderKernels& ref = referenceDecoderKernels();
        DecoderKernels k = ref;
        k.rmsNorm = [&](const at::Tensor& x, const at::Tensor& w, double eps) {
            return ref.rmsNorm(x, w, eps) * 1.02;  // ~5 BF16 units in the last place
        };
        QVERIFY(failures(k, "rmsNorm") >= 3);
        k = ref;
        k.rotaryStore = [&](const RotaryStoreArgs& a) {  // keys one row too far
            RotaryStoreArgs shifted = a;
            if (shifted.position.defined()) {
                shifted.position = shifted.position + 1;
            } else {
                ++shifted.firstPosition;
            }
            ref.rotaryStore(shifted);
        };
        QCOMPARE(failures(k, "rotaryStore"), 6);
        k = ref;
        k.swiglu = [&](const at::Tensor& gateUp) {  // SiLU forgotten
            const std::int64_t i = gateUp.size(-1) / 2;
            return gateUp.narrow(-1, 0, i) * gateUp.narrow(-1, i, i);
        };
        QCOMPARE(failures(k, "swiglu"), 3);
        k = ref;
        k.cacheAttention = [&](const at::Tensor& q, const at::Tensor& keys,
                               const at::Tensor& values, const CacheLength& length) {
            CacheLength further = length;  // one position too many
            further.position = length.position + 1;
            return ref.cacheAttention(q, keys, values, further);
        };
        QCOMPARE(failures(k, "cacheAttention"), 3);
        k = ref;  // a kernel that silently ran the reference instead is a failure too
        k.fallbackReason = [] { return std::string("cacheAttention: refused"); };
        QCOMPARE(failures(k, "no fallback"), 1);
    }

    void theStoreAtADevicePositionEqualsTheStoreAtAKnownOne() {
        const DecoderKernels& ref = referenceDecoderKernels();
        const std::int64_t heads = 4, kvHeads = 2, hd = 8, capacity = 20;
        const at::Tensor qkv = at::randn({1, (heads + 2 * kvHeads) * hd});
        const at::Tensor invFreq = at::rand({hd / 2});
        RotaryStoreArgs known;
        known.qkv = qkv;
        known.heads = heads;
        known.kvHeads = kvHeads;
        known.invFreq = invFreq;
        known.firstPosition = 13;
        RotaryStoreArgs onDevice = known;
        onDevice.firstPosition = 0;
        onDevice.position = at::full({1}, 13, at::kLong);
        for (RotaryStoreArgs* a : {&known, &onDevice}) {
            a->queries = at::empty({1, 1, heads, hd});
            a->keyStore = at::zeros({1, kvHeads, capacity, hd});
            a->valueStore = at::zeros({1, kvHeads, capacity, hd});
            ref.rotaryStore(*a);
        }
        QVERIFY(at::equal(known.queries, onDevice.queries));
        QVERIFY(at::equal(known.keyStore, onDevice.keyStore));
        QVERIFY(at::equal(known.valueStore, onDevice.valueStore));
        // Only row 13 written; its values are v's columns unrotated.
        QCOMPARE(known.keyStore.abs().sum({0, 1, 3}).nonzero().item<std::int64_t>(),
                 std::int64_t(13));
        QVERIFY(at::equal(known.valueStore.select(2, 13).reshape({-1}),
                          qkv.narrow(1, (heads + kvHeads) * hd, kvHeads * hd).reshape({-1})));
    }

    void theModelReachesTheRegisteredKernels() {
        const std::string dir = test::makeCausalLmReference("qwen2", {});
        const auto model = Qwen2Model::load(HfCheckpoint::open(dir));
        const at::Tensor ids = test::referenceTensor(dir, "input_ids");
        const std::vector<at::Tensor> before = prefillAndSteps(model, ids);

        // A "device module" for the CPU that counts and delegates to the reference.
        const DecoderKernels& ref = referenceDecoderKernels();
        int norms = 0, stores = 0, swiglus = 0, attentions = 0;
        struct BackToTheReference {  // also when a check below returns early
            ~BackToTheReference() { registerDecoderKernels(c10::DeviceType::CPU, {}); }
        } restore;
        DecoderKernels counting;
        counting.rmsNorm = [&](const at::Tensor& x, const at::Tensor& w, double eps) {
            ++norms;
            return ref.rmsNorm(x, w, eps);
        };
        counting.rotaryStore = [&](const RotaryStoreArgs& a) {
            ++stores;
            ref.rotaryStore(a);
        };
        counting.swiglu = [&](const at::Tensor& gateUp) {
            ++swiglus;
            return ref.swiglu(gateUp);
        };
        counting.cacheAttention = [&](const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                      const CacheLength& l) {
            ++attentions;
            return ref.cacheAttention(q, k, v, l);
        };
        registerDecoderKernels(c10::DeviceType::CPU, counting);
        const std::vector<at::Tensor> after = prefillAndSteps(model, ids);
        const std::int64_t layers = model.config().numLayers;
        // Prefill and 3 steps: 2 norms a layer and the final one; 1 store and 1 product a layer;
        // attention through the seam only in the 3 fixed-shape steps.
        QCOMPARE(norms, int(4 * (2 * layers + 1)));
        QCOMPARE(stores, int(4 * layers));
        QCOMPARE(swiglus, int(4 * layers));
        QCOMPARE(attentions, int(3 * layers));
        QCOMPARE(after.size(), before.size());
        for (std::size_t i = 0; i < before.size(); ++i) {
            QVERIFY(at::equal(after[i], before[i]));
        }
        // A kernel that fell back to its reference is named in the decoder's note.
        counting.fallbackReason = [] { return std::string("cacheAttention: refused here"); };
        registerDecoderKernels(c10::DeviceType::CPU, counting);
        std::string note;
        {
            KvCache cache;
            model.forward(model.embed(ids), cache, true);
            Qwen2StaticDecoder decoder(model, cache, ids.size(0) + 1, /*graph=*/false);
            decoder.step(5);
            note = decoder.note();
        }
        QVERIFY2(note.find("cacheAttention: refused here") != std::string::npos, note.c_str());
    }
};

QTEST_GUILESS_MAIN(TestDecoderKernels)
#include "test_decoder_kernels.moc"
