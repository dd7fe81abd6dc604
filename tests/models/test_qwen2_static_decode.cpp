// Fixed-shape decoding (models/qwen2/qwen2_static_decode.h), the step a CUDA graph replays, run
// eagerly on the CPU against the eager step (Qwen2Model::forward per token) and transformers: the
// same greedy ids as transformers' generate, logits step by step within F32 rounding of the eager
// step (BF16: within BF16 rounding), a cache that forward() continues afterwards, and clear
// errors. On a GPU, bench/gpu/bench_gpu e2e compares the captured graph with the eager step.
#include <ATen/ATen.h>

#include <QtTest>

#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "models/generation.h"
#include "models/hf_checkpoint.h"
#include "models/qwen2/qwen2_model.h"
#include "models/qwen2/qwen2_static_decode.h"
#include "support/models_fixture.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;

namespace {

using test::makeCausalLmReference;
using test::referenceTensor;

// The largest difference between the eager and the fixed-shape step over `steps` greedy steps
// after a prefill of `ids`, both fed the eager step's tokens.
double stepwiseDifference(const Qwen2Model& model, const at::Tensor& ids, int steps) {
    KvCache eagerCache, fixedCache;
    at::Tensor e = model.forward(model.embed(ids), eagerCache, true);
    at::Tensor f = model.forward(model.embed(ids), fixedCache, true);
    Qwen2StaticDecoder decoder(model, fixedCache, ids.size(0) + steps, /*graph=*/false);
    double worst = 0;
    for (int i = 0; i < steps; ++i) {
        const std::int64_t next = e.reshape({-1}).argmax().item<std::int64_t>();
        e = model.forward(model.embed(at::full({1}, next, at::kLong)), eagerCache, true);
        f = decoder.step(next);
        worst = std::max(worst, test::maxAbsDiff(f.reshape({-1}), e.reshape({-1})));
    }
    return worst;
}

}  // namespace

class TestQwen2StaticDecode : public QObject {
    Q_OBJECT
    std::string qwen_, llama_;

  private slots:
    void initTestCase() {
        qwen_ = makeCausalLmReference("qwen2", {"--shard"});
        llama_ = makeCausalLmReference("llama", {"--tie"});
        QVERIFY(std::filesystem::exists(qwen_ + "/ref.safetensors"));
        QVERIFY(std::filesystem::exists(llama_ + "/ref.safetensors"));
    }

    void greedyIdsEqualTransformers_data() {
        QTest::addColumn<QString>("which");
        QTest::newRow("qwen2, biases, sharded") << "qwen2";
        QTest::newRow("llama, tied, llama3 rope") << "llama";
    }
    void greedyIdsEqualTransformers() {
        QFETCH(QString, which);
        const std::string dir = which == "qwen2" ? qwen_ : llama_;
        const auto model = Qwen2Model::load(HfCheckpoint::open(dir));
        const at::Tensor ids = referenceTensor(dir, "input_ids"), want = referenceTensor(dir, "generated");
        GenerationOptions o;
        o.maxNewTokens = want.size(0);
        o.decode = "static";
        const GenerationResult r = generate(model, model.embed(ids), o);
        QCOMPARE(r.decodeMode, std::string("static"));
        const at::Tensor got = at::tensor(r.tokens, at::kLong);
        QVERIFY(got.sizes() == want.sizes() && at::equal(got, want.to(at::kLong)));
        o.decode = "eager";
        QCOMPARE(generate(model, model.embed(ids), o).tokens, r.tokens);
    }

    void logitsFollowTheEagerStep() {
        const auto model = Qwen2Model::load(HfCheckpoint::open(qwen_));
        const at::Tensor ids = referenceTensor(qwen_, "input_ids");
        const double f32 = stepwiseDifference(model, ids, 12);
        qInfo("F32: largest logit difference %.3g", f32);
        QVERIFY(f32 <= 1e-4);
        // BF16: another fused attention kernel than the eager step's (a mask over the capacity),
        // so the logits agree to BF16 rounding.
        const auto half = Qwen2Model::load(HfCheckpoint::open(qwen_), {"cpu", "bfloat16"});
        const double bf16 = stepwiseDifference(half, ids, 12);
        const double scale = referenceTensor(qwen_, "logits").abs().max().item<double>();
        qInfo("BF16: largest logit difference %.3g (logit scale %.3g)", bf16, scale);
        QVERIFY(bf16 <= 0.05 * scale);
    }

    void theCacheContinuesAfterwards() {
        // Decode 5 tokens with fixed shapes, then one more with forward(): its logits are those
        // of a fresh forward over the whole sequence.
        const auto model = Qwen2Model::load(HfCheckpoint::open(llama_));
        const at::Tensor ids = referenceTensor(llama_, "input_ids");
        KvCache cache;
        model.forward(model.embed(ids), cache, true);
        std::vector<std::int64_t> all(ids.data_ptr<std::int64_t>(),
                                      ids.data_ptr<std::int64_t>() + ids.size(0));
        {
            Qwen2StaticDecoder decoder(model, cache, ids.size(0) + 5, false);
            for (std::int64_t t : {3, 14, 15, 9, 2}) {
                decoder.step(t);
                all.push_back(t);
            }
            QCOMPARE(cache.length, ids.size(0) + 5);
        }
        const at::Tensor next = at::full({1}, 6, at::kLong);
        const at::Tensor cont = model.forward(model.embed(next), cache, true);
        all.push_back(6);
        KvCache fresh;
        const at::Tensor whole =
            model.forward(model.embed(at::tensor(all, at::kLong)), fresh, true);
        QVERIFY(test::maxAbsDiff(cont, whole) <= 1e-4);
        QCOMPARE(cache.length, std::int64_t(all.size()));
    }

    void modesAndErrors() {
        const auto model = Qwen2Model::load(HfCheckpoint::open(qwen_));
        const at::Tensor e = model.embed(referenceTensor(qwen_, "input_ids"));
        GenerationOptions o;
        o.maxNewTokens = 3;
        QCOMPARE(generate(model, e, o).decodeMode, std::string("eager"));  // auto on a CPU
        o.decode = "graph";  // asked for, not available on a CPU: fixed shapes, and why
        const GenerationResult g = generate(model, e, o);
        QCOMPARE(g.decodeMode, std::string("static"));
        QVERIFY2(g.decodeNote.find("no step-graph capture on cpu") != std::string::npos,
                 g.decodeNote.c_str());
        o.decode = "fast";
        try {
            generate(model, e, o);
            QFAIL("an unknown mode was accepted");
        } catch (const OnceError& err) {
            QCOMPARE(err.where().field, std::string("decode"));
        }

        KvCache cache;
        model.forward(e, cache, true);
        Qwen2StaticDecoder decoder(model, cache, e.size(0) + 1, false);
        try {
            decoder.step(model.config().vocabSize);
            QFAIL("an id outside the vocabulary was accepted");
        } catch (const OnceError& err) {
            QCOMPARE(err.where().field, std::string("input_ids"));
        }
        decoder.step(1);
        try {
            decoder.step(1);
            QFAIL("a step past the capacity was accepted");
        } catch (const OnceError& err) {
            QCOMPARE(err.where().field, std::string("cache.length"));
        }
        KvCache empty;
        QVERIFY_THROWS_EXCEPTION(OnceError, Qwen2StaticDecoder(model, empty, 8, false));
    }
};

QTEST_GUILESS_MAIN(TestQwen2StaticDecode)
#include "test_qwen2_static_decode.moc"
