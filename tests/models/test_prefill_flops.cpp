// Prefill FLOPs (models/prefill_flops.h) from the shapes the backbones' configs give: Qwen2-7B's
// published config.json read by Qwen2Config is the reference shape the charts use without a
// model folder, and a prefill costs about 2 × parameters per token plus attention growing with
// the input. (Checked against torch's FLOP counter in tests/pipeline/test_answer_parity.cpp.)
#include <QtTest>
#include <nlohmann/json.hpp>

#include "models/prefill_flops.h"
#include "models/qwen2/qwen2_config.h"

using namespace once;

class TestPrefillFlops : public QObject {
    Q_OBJECT
  private slots:
    void growWithTokens() {
        const LlmShape d = LlmShape::qwen2_7b();
        QVERIFY(prefillFlops(d, 512) < prefillFlops(d, 23329));
        // ~2 × parameters per token for short inputs (7B model ≈ 14 GFLOPs per token).
        const double perToken = prefillFlops(d, 1001) - prefillFlops(d, 1000);
        QVERIFY2(perToken > 1.0e10 && perToken < 1.8e10, qPrintable(QString::number(perToken)));
        // The causal attention term makes the marginal token dearer with a longer input.
        QVERIFY(prefillFlops(d, 20001) - prefillFlops(d, 20000) > perToken);
        QCOMPARE(prefillFlops(d, 0), 0.0);
        QCOMPARE(prefillFlops(LlmShape{}, 100), 0.0);
    }

    void qwen2ConfigGivesTheReferenceShape() {
        // Qwen/Qwen2-7B's config.json (the sizes; the rest of the file does not enter the count).
        const auto config = nlohmann::json::parse(R"({
            "architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2",
            "vocab_size": 152064, "hidden_size": 3584, "intermediate_size": 18944,
            "num_hidden_layers": 28, "num_attention_heads": 28, "num_key_value_heads": 4,
            "rms_norm_eps": 1e-06, "rope_theta": 1000000.0, "tie_word_embeddings": false,
            "torch_dtype": "bfloat16"})");
        const LlmShape read = Qwen2Config::fromJson(config, "config.json").llmShape("qwen2");
        const LlmShape ref = LlmShape::qwen2_7b();
        QCOMPARE(read.layers, ref.layers);
        QCOMPARE(read.hidden, ref.hidden);
        QCOMPARE(read.intermediate, ref.intermediate);
        QCOMPARE(read.heads, ref.heads);
        QCOMPARE(read.kvHeads, ref.kvHeads);
        QCOMPARE(read.headDim, ref.headDim);
        QCOMPARE(read.vocab, ref.vocab);
        QCOMPARE(read.linearLayers, std::int64_t(0));
        QCOMPARE(prefillFlops(read, 5833), prefillFlops(ref, 5833));
    }
};

QTEST_APPLESS_MAIN(TestPrefillFlops)
#include "test_prefill_flops.moc"
