// Qwen2/Llama decoder: logits equal to transformers (F32, ≤ 1e-4) on tiny random models — Qwen2
// with biases, untied, sharded; Llama tied with llama3 rope scaling — through the KV cache, and
// greedy generation yields the same ids. Bad folders fail naming the file and the field.
#include <ATen/ATen.h>

#include <QtTest>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "models/generation.h"
#include "models/hf_checkpoint.h"
#include "models/qwen2/qwen2_model.h"
#include "support/models_fixture.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

using test::makeCausalLmReference;
using test::referenceTensor;

// A copy of a single-file model folder with its config or weights edited.
std::string editedCopy(const std::string& from, const std::function<void(nlohmann::json&)>& cfg,
                       const std::string& dropTensor = {}, const std::string& reshapeTensor = {}) {
    std::string dir = test::tempDir();
    nlohmann::json c = nlohmann::json::parse(std::ifstream(from + "/config.json"));
    cfg(c);
    std::ofstream(dir + "/config.json") << c.dump();
    auto f = SafetensorsFile::open(from + "/model.safetensors");
    SafetensorsWriter w;
    for (const auto& t : f.tensors()) {
        if (t.name == dropTensor) {
            continue;
        }
        at::Tensor x = loadTensor(f, t.name);
        addTensor(w, t.name, t.name == reshapeTensor ? x.narrow(0, 0, x.size(0) - 1) : x);
    }
    w.write(dir + "/model.safetensors");
    return dir;
}

void checkParity(const std::string& dir) {
    auto model = Qwen2Model::load(HfCheckpoint::open(dir));
    at::Tensor ids = referenceTensor(dir, "input_ids");
    at::Tensor want = referenceTensor(dir, "logits");
    KvCache cache;
    at::Tensor full = model.forward(model.embed(ids), cache);
    QCOMPARE(full.sizes(), want.sizes());
    double err = test::maxAbsDiff(full, want);
    qInfo("full prompt: max abs error %.3g (logit scale %.3g)", err,
          want.abs().max().item<double>());
    QVERIFY(err <= 1e-4);

    // Through the cache: a prefill, then a multi-token chunk (explicit mask), then one token.
    KvCache c2;
    const std::int64_t S = ids.size(0);
    at::Tensor a = model.forward(model.embed(ids.narrow(0, 0, 20)), c2);
    at::Tensor b = model.forward(model.embed(ids.narrow(0, 20, S - 21)), c2);
    at::Tensor c = model.forward(model.embed(ids.narrow(0, S - 1, 1)), c2, true);
    QCOMPARE(c2.length, S);
    QVERIFY(test::maxAbsDiff(at::cat({a, b, c}), want) <= 1e-4);

    GenerationOptions go;
    go.maxNewTokens = referenceTensor(dir, "generated").size(0);
    std::vector<std::int64_t> streamed;
    go.onToken = [&](std::int64_t t) { streamed.push_back(t); };
    auto r = generate(model, model.embed(ids), go);
    at::Tensor gen = referenceTensor(dir, "generated");
    std::vector<std::int64_t> want2(gen.data_ptr<std::int64_t>(),
                                    gen.data_ptr<std::int64_t>() + gen.numel());
    QCOMPARE(r.tokens, want2);
    QCOMPARE(streamed, want2);
}

template <class F>
OnceError expectError(F&& f) {
    try {
        f();
    } catch (const OnceError& e) {
        return e;
    }
    QTest::qFail("no OnceError thrown", __FILE__, __LINE__);
    return OnceError("none");
}

}  // namespace

class TestQwen2Model : public QObject {
    Q_OBJECT
    std::string qwen_, llama_;

  private slots:
    void initTestCase() {
        qwen_ = makeCausalLmReference("qwen2", {"--shard"});
        llama_ = makeCausalLmReference("llama", {"--tie"});
        QVERIFY(fs::exists(qwen_ + "/model.safetensors.index.json"));
        QVERIFY(fs::exists(llama_ + "/model.safetensors"));
    }

    void qwen2ShardedUntiedWithBiases() { checkParity(qwen_); }
    void llamaTiedLlama3Rope() { checkParity(llama_); }

    // The cache's buffers are written in place (KvCache): growing them past their headroom, a
    // copy continued differently from the original, and single steps all give the logits of
    // one forward over the whole sequence.
    void cacheGrowthAndCopiesMatchOneForward() {
        auto model = Qwen2Model::load(HfCheckpoint::open(qwen_));
        at::manual_seed(5);
        const std::int64_t vocab = model.config().vocabSize;
        at::Tensor ids = at::randint(0, vocab, {420}, at::kLong);
        at::Tensor alt = at::randint(0, vocab, {10}, at::kLong);
        KvCache whole;
        at::Tensor want = model.forward(model.embed(ids), whole);

        KvCache a;
        at::Tensor p0 = model.forward(model.embed(ids.narrow(0, 0, 10)), a);
        KvCache b = a;  // shares a's buffers until it appends
        at::Tensor pa = model.forward(model.embed(ids.narrow(0, 10, 10)), a);
        at::Tensor pb = model.forward(model.embed(alt), b);
        KvCache ref;
        at::Tensor wantB = model.forward(model.embed(at::cat({ids.narrow(0, 0, 10), alt})), ref);
        QVERIFY(test::maxAbsDiff(pb, wantB.narrow(0, 10, 10)) <= 1e-4);
        // 300 rows more than the 266 positions allocated by the first call: the buffers grow.
        at::Tensor pc = model.forward(model.embed(ids.narrow(0, 20, 300)), a);
        std::vector<at::Tensor> rows = {p0, pa, pc};
        for (std::int64_t i = 320; i < 420; ++i) {
            rows.push_back(model.forward(model.embed(ids.narrow(0, i, 1)), a, true));
        }
        QCOMPARE(a.length, std::int64_t(420));
        QCOMPARE(a.keys[0].size(2), std::int64_t(420));
        QVERIFY(a.keyStore[0].size(2) >= 420);
        double err = test::maxAbsDiff(at::cat(rows), want);
        qInfo("through a grown and copied cache: max abs error %.3g", err);
        QVERIFY(err <= 1e-4);
        // b, continued after a grew, still sees its own positions.
        at::Tensor pb2 = model.forward(model.embed(ids.narrow(0, 0, 1)), b, true);
        at::Tensor wantB2 = model.forward(model.embed(ids.narrow(0, 0, 1)), ref, true);
        QVERIFY(test::maxAbsDiff(pb2, wantB2) <= 1e-4);
        // A cache that does not match its length is refused, naming the field.
        KvCache bad = a;
        bad.length = 7;
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 model.forward(model.embed(ids.narrow(0, 0, 1)), bad, true));
    }

    void halfPrecisionStaysClose() {
        at::Tensor ids = referenceTensor(llama_, "input_ids");
        at::Tensor want = referenceTensor(llama_, "logits");
        for (std::string dt : {"bfloat16", "float16"}) {
            auto model = Qwen2Model::load(HfCheckpoint::open(llama_), {"cpu", dt});
            QCOMPARE(model.dtype(), dt == "bfloat16" ? at::kBFloat16 : at::kHalf);
            KvCache cache;
            at::Tensor got = model.forward(model.embed(ids), cache);
            double meanErr = (got - want).abs().mean().item<double>();
            qInfo("%s: mean abs error %.3g", dt.c_str(), meanErr);
            QVERIFY(meanErr < 0.05);
            QVERIFY(got.argmax(1).eq(want.argmax(1)).to(at::kFloat).mean().item<double>() > 0.8);
        }
    }

    void samplingIsSeededAndTopPOneTokenIsGreedy() {
        auto model = Qwen2Model::load(HfCheckpoint::open(llama_));
        at::Tensor e = model.embed(referenceTensor(llama_, "input_ids"));
        GenerationOptions o;
        o.maxNewTokens = 8;
        o.temperature = 0.8;
        o.topP = 0.9;
        auto a = generate(model, e, o), b = generate(model, e, o);
        QCOMPARE(a.tokens, b.tokens);
        o.topP = 1e-6;  // only the most likely token survives
        GenerationOptions g;
        g.maxNewTokens = 8;
        QCOMPARE(generate(model, e, o).tokens, generate(model, e, g).tokens);
        // Stop tokens end generation right after they are emitted.
        auto greedy = generate(model, e, g);
        g.stopTokens = {greedy.tokens[2]};
        auto stopped = generate(model, e, g);
        QVERIFY(stopped.stoppedByToken);
        QVERIFY(stopped.tokens.size() <= 3);
        QCOMPARE(stopped.tokens.back(), greedy.tokens[2]);
        // Cancellation between tokens.
        GenerationOptions c;
        c.maxNewTokens = 8;
        c.onToken = [&](std::int64_t) { c.cancel.cancel(); };
        QVERIFY_THROWS_EXCEPTION(Cancelled, generate(model, e, c));
    }

    void badFoldersNameFileAndField() {
        auto e1 = expectError([&] {
            Qwen2Model::load(HfCheckpoint::open(
                editedCopy(llama_, [](nlohmann::json& c) { c["model_type"] = "gpt_neox"; })));
        });
        QCOMPARE(e1.where().field, std::string("model_type"));
        QVERIFY(e1.where().file.find("config.json") != std::string::npos);

        auto e2 = expectError([&] {
            Qwen2Model::load(HfCheckpoint::open(editedCopy(
                llama_, [](nlohmann::json&) {}, "model.layers.1.mlp.up_proj.weight")));
        });
        QVERIFY(std::string(e2.what()).find("model.layers.1.mlp.up_proj.weight") !=
                std::string::npos);

        auto e3 = expectError([&] {
            Qwen2Model::load(HfCheckpoint::open(editedCopy(
                llama_, [](nlohmann::json&) {}, {}, "model.layers.0.self_attn.k_proj.weight")));
        });
        QVERIFY(std::string(e3.what()).find("k_proj") != std::string::npos);

        auto e4 = expectError([&] {
            Qwen2Model::load(HfCheckpoint::open(
                editedCopy(llama_, [](nlohmann::json& c) { c.erase("hidden_size"); })));
        });
        QCOMPARE(e4.where().field, std::string("hidden_size"));

        auto e5 = expectError([&] {
            Qwen2Model::load(HfCheckpoint::open(editedCopy(
                llama_, [](nlohmann::json& c) { c["rope_parameters"]["rope_type"] = "yarn"; })));
        });
        QCOMPARE(e5.where().field, std::string("rope_parameters.rope_type"));

        // Untied config without a head tensor.
        auto e6 = expectError([&] {
            Qwen2Model::load(HfCheckpoint::open(
                editedCopy(llama_, [](nlohmann::json& c) { c["tie_word_embeddings"] = false; })));
        });
        QVERIFY(std::string(e6.what()).find("lm_head.weight") != std::string::npos);

        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 Qwen2Model::load(HfCheckpoint::open(llama_), {"cpu", "int8"}));
    }
};

QTEST_GUILESS_MAIN(TestQwen2Model)
#include "test_qwen2_model.moc"
