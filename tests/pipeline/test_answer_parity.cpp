// The answer path against transformers' LlavaOnevisionForConditionalGeneration on a tiny random
// model: the full multimodal prompt (ChatML + system turn, HF's own projected video features +
// image_newline spliced at the placeholder) gives the same logits (F32, ≤ 1e-4) and greedy ids,
// dense and with ONCE-compressed tokens injected as inputs_embeds; AnswerSession reports and
// errors; `once ask --json`; the MVBench multiple-choice format.
#include <ATen/ATen.h>

#include <QtTest>
#include <algorithm>
#include <nlohmann/json.hpp>

#include "codebook/codebook.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "models/generation.h"
#include "models/hf_checkpoint.h"
#include "models/llava_ov/chat_prompt.h"
#include "models/qwen2/qwen2_model.h"
#include "pipeline/answer_session.h"
#include "pipeline/multiple_choice.h"
#include "support/test_support.h"
#include "tokenizer/bpe_tokenizer.h"
#include "util/error.h"

using namespace once;

namespace {

const std::string kQuestion = "What happens in the video? Answer briefly.";

at::Tensor tensorOf(const std::string& path, const std::string& name) {
    auto f = SafetensorsFile::open(path);
    return loadTensor(f, name).clone();
}

std::vector<std::int64_t> idsOf(const at::Tensor& t) {
    at::Tensor c = t.to(at::kLong).contiguous();
    return {c.data_ptr<std::int64_t>(), c.data_ptr<std::int64_t>() + c.numel()};
}

// Generated ids up to and including the first stop token (the session stops there).
std::vector<std::int64_t> untilStop(std::vector<std::int64_t> ids,
                                    const std::vector<std::int64_t>& stops) {
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (std::find(stops.begin(), stops.end(), ids[i]) != stops.end()) {
            ids.resize(i + 1);
            break;
        }
    }
    return ids;
}

}  // namespace

class TestAnswerParity : public QObject {
    Q_OBJECT
    std::string dir_, codebook_;

    std::vector<std::int64_t> stops() const {
        auto tok = BpeTokenizer::fromFile(dir_ + "/tokenizer.json");
        return {tok.requireTokenId("<|im_end|>"), tok.requireTokenId("<|endoftext|>")};
    }

  private slots:
    void initTestCase() {
        dir_ = test::tempDir();
        auto r = test::runPython("llm_reference.py", {"llava", QString::fromStdString(dir_)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        codebook_ = test::tempDir() + "/cb.safetensors";
        at::manual_seed(0);
        Codebook::fromTensor(at::randn({6, 64}), "llava-onevision", "projected patch grid")
            .save(codebook_);
    }

    void denseLogitsAndGreedyMatch() {
        auto ck = HfCheckpoint::open(dir_);
        auto model = Qwen2Model::load(ck);
        auto tok = BpeTokenizer::fromFile(dir_ + "/tokenizer.json");
        AnswerSession session({dir_});
        session.loadFeatures(dir_ + "/features.safetensors");
        at::Tensor visual = session.visualTokens(std::nullopt);
        QCOMPARE(visual.size(0), 3 * 4 + 1);
        QVERIFY(test::maxAbsDiff(visual[-1], tensorOf(dir_ + "/ref.safetensors", "newline")[0]) ==
                0);
        ChatPrompt p = buildLlavaOvPrompt(tok, kQuestion);
        at::Tensor e = spliceVisual(model, p, visual);
        at::Tensor want = tensorOf(dir_ + "/ref.safetensors", "logits");
        QCOMPARE(e.size(0), want.size(0));
        // Outside the visual rows the prompt ids equal HF's (HF repeats <video> instead).
        at::Tensor refIds = tensorOf(dir_ + "/ref.safetensors", "input_ids");
        QCOMPARE(refIds[0].item<std::int64_t>(), p.ids[0]);
        QCOMPARE(refIds[-1].item<std::int64_t>(), p.ids.back());
        KvCache cache;
        at::Tensor logits = model.forward(e, cache);
        double err = test::maxAbsDiff(logits, want);
        qInfo("dense multimodal logits: max abs error %.3g", err);
        QVERIFY(err <= 1e-4);

        auto wantIds = idsOf(tensorOf(dir_ + "/ref.safetensors", "generated"));
        GenerationOptions go;
        go.maxNewTokens = std::int64_t(wantIds.size());
        // onPrefilled runs once, after the prefill and before the first token.
        int prefilled = 0, tokensBeforePrefilled = 0, tokens = 0;
        go.onPrefilled = [&] { ++prefilled, tokensBeforePrefilled = tokens; };
        go.onToken = [&](std::int64_t) { ++tokens; };
        QCOMPARE(generate(model, e, go).tokens, wantIds);
        QCOMPARE(prefilled, 1);
        QCOMPARE(tokensBeforePrefilled, 0);

        AskOptions ao;
        ao.maxNewTokens = std::int64_t(wantIds.size());
        std::string streamed;
        ao.onText = [&](const std::string& s) { streamed += s; };
        AskReport r = session.ask(kQuestion, ao);
        QCOMPARE(r.tokenIds, untilStop(wantIds, stops()));
        QCOMPARE(streamed, tok.decode(r.tokenIds, true));  // the pieces concatenate to the answer
        QCOMPARE(r.contentTokens, std::int64_t(12));
        QCOMPARE(r.layoutTokens, std::int64_t(1));
        QCOMPARE(r.promptTokens, want.size(0));
        QVERIFY(r.prefillFlops > 0);  // the value is checked against torch's counter below
        QVERIFY(r.dense);
        std::vector<std::string> names;
        for (const auto& s : r.stages) {
            names.push_back(s.name);
            QVERIFY2(s.peakRssBytes > 0, s.name.c_str());  // each stage's own peak (Linux)
        }
        QCOMPARE(names,
                 (std::vector<std::string>{"load features", "compress", "prefill", "generate"}));
    }

    void compressedTokensMatchInputsEmbeds() {
        AnswerSessionOptions so;
        so.modelDir = dir_;
        so.codebook = codebook_;
        AnswerSession session(so);
        session.loadFeatures(dir_ + "/features.safetensors");
        at::Tensor visual = session.visualTokens(3);
        // M = min(B, codewords in use) content rows, then the layout token.
        QVERIFY(visual.size(0) >= 2 && visual.size(0) <= 3 + 1);

        auto model = Qwen2Model::load(HfCheckpoint::open(dir_));
        auto tok = BpeTokenizer::fromFile(dir_ + "/tokenizer.json");
        ChatPrompt p = buildLlavaOvPrompt(tok, kQuestion);
        SafetensorsWriter w;
        addTensor(w, "prompt_ids", at::tensor(p.ids, at::kLong));
        addTensor(w, "placeholder_index", at::tensor({p.placeholderIndex}, at::kLong));
        addTensor(w, "visual", visual.contiguous());
        std::string in = test::tempDir() + "/in.safetensors", out = test::tempDir() + "/o.st";
        w.write(in);
        auto r = test::runPython(
            "llm_reference.py", {"embeds", QString::fromStdString(dir_), QString::fromStdString(in),
                                 QString::fromStdString(out)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));

        KvCache cache;
        at::Tensor logits = model.forward(spliceVisual(model, p, visual), cache);
        double err = test::maxAbsDiff(logits, tensorOf(out, "logits"));
        qInfo("compressed multimodal logits: max abs error %.3g", err);
        QVERIFY(err <= 1e-4);

        auto wantIds = idsOf(tensorOf(out, "generated"));
        AskOptions ao;
        ao.budget = 3;
        ao.maxNewTokens = std::int64_t(wantIds.size());
        AskReport rep = session.ask(kQuestion, ao);
        QCOMPARE(rep.tokenIds, untilStop(wantIds, stops()));
        // Prefill FLOPs against torch's FLOP counter on HF's forward of the same prompt. The
        // counter charges SDPA the full S × S square; a causal prefill computes the triangle
        // S(S+1)/2, which is what the session reports.
        const double s = double(rep.promptTokens);
        const double wantFlops =
            tensorOf(out, "prefill_flops_matmul").item<double>() +
            tensorOf(out, "prefill_flops_attention_full").item<double>() * (s + 1) / (2 * s);
        qInfo("prefill FLOPs: %.0f (torch's counter, causal: %.0f)", rep.prefillFlops, wantFlops);
        QVERIFY(std::abs(rep.prefillFlops - wantFlops) <= 1e-9 * wantFlops);
        QCOMPARE(rep.contentTokens, visual.size(0) - 1);
        QCOMPARE(rep.sourceTokens, std::int64_t(12));
        QVERIFY(!rep.dense);
        // A new budget reuses the features: no load stage is redone.
        ao.budget = 2;
        AskReport again = session.ask(kQuestion, ao);
        QVERIFY(again.contentTokens >= 1 && again.contentTokens <= 2);
        QVERIFY(again.stages.front().cached);
    }

    void badInputsFailClearly() {
        AnswerSession session({dir_});
        AskOptions ao;
        QVERIFY_THROWS_EXCEPTION(OnceError, session.ask(kQuestion, ao));  // nothing loaded
        session.loadFeatures(dir_ + "/features.safetensors");
        try {
            session.ask("  ", ao);
            QFAIL("no error");
        } catch (const OnceError& e) {
            QCOMPARE(e.where().field, std::string("question"));
        }
        ao.budget = 4;  // no codebook
        QVERIFY_THROWS_EXCEPTION(OnceError, session.ask(kQuestion, ao));

        // A codebook of another dimension is refused, naming both sides.
        std::string wrong = test::tempDir() + "/wrong.safetensors";
        Codebook::fromTensor(at::randn({6, 32}), "llava-onevision").save(wrong);
        AnswerSessionOptions so;
        so.modelDir = dir_;
        so.codebook = wrong;
        AnswerSession s2(so);
        s2.loadFeatures(dir_ + "/features.safetensors");
        try {
            s2.ask(kQuestion, ao);
            QFAIL("no error");
        } catch (const OnceError& e) {
            QVERIFY2(std::string(e.what()).find("wrong.safetensors") != std::string::npos,
                     e.what());
        }
        // The session stays usable after an error.
        ao.budget.reset();
        ao.maxNewTokens = 2;
        QVERIFY(!s2.ask(kQuestion, ao).tokenIds.empty());
    }

    void cliAskJson() {
        auto r = test::runCli(
            {"ask", "--features", QString::fromStdString(dir_) + "/features.safetensors", "--model",
             QString::fromStdString(dir_), "--dense", "--question",
             QString::fromStdString(kQuestion), "--max-new-tokens", "12", "--json", "--dtype",
             "float32"});  // the reference's numerics (auto may pick BF16)
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto j = nlohmann::json::parse(r.out.toStdString());
        auto want = untilStop(idsOf(tensorOf(dir_ + "/ref.safetensors", "generated")), stops());
        QCOMPARE(j["token_ids"].get<std::vector<std::int64_t>>(), want);
        QCOMPARE(j["visual_tokens"]["total"].get<int>(), 13);
        QCOMPARE(j["dtype"]["resolved"].get<std::string>(), std::string("float32"));
        QVERIFY(j["prefill_flops"].get<double>() > 0);
        auto bad = test::runCli(
            {"ask", "--features", "x", "--model", QString::fromStdString(dir_), "--question", "q"});
        QCOMPARE(bad.exitCode, 2);  // neither --dense nor --budget
        auto empty = test::runCli(
            {"ask", "--features", QString::fromStdString(dir_) + "/features.safetensors", "--model",
             QString::fromStdString(dir_), "--dense", "--question", ""});
        QCOMPARE(empty.exitCode, 1);
        QVERIFY(empty.err.contains("question"));
    }

    void cliAskVideoDecodesAndEncodes() {
        // A video goes through AnswerSession::loadVideo (decode, then the model folder's own
        // encoder) and answers exactly as its feature file written by `once encode` does.
        const QString video = QString::fromStdString(test::sourcePath("resources/demo/demo.mp4"));
        const QString features =
            QString::fromStdString(test::tempDir()) + "/demo_llava.safetensors";
        auto enc =
            test::runCli({"encode", video, "--backbone", "llava-onevision", "--model",
                          QString::fromStdString(dir_), "--sample", "uniform:2", "-o", features});
        QVERIFY2(enc.exitCode == 0, qPrintable(enc.err));
        const QStringList common{"--model",
                                 QString::fromStdString(dir_),
                                 "--dense",
                                 "--question",
                                 QString::fromStdString(kQuestion),
                                 "--max-new-tokens",
                                 "6",
                                 "--json"};
        auto fromVideo =
            test::runCli(QStringList{"ask", video, "--sampling", "uniform:2"} + common);
        QVERIFY2(fromVideo.exitCode == 0, qPrintable(fromVideo.err));
        auto fromFile = test::runCli(QStringList{"ask", "--features", features} + common);
        QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
        const auto v = nlohmann::json::parse(fromVideo.out.toStdString());
        const auto f = nlohmann::json::parse(fromFile.out.toStdString());
        QCOMPARE(v["token_ids"], f["token_ids"]);
        QCOMPARE(v["visual_tokens"], f["visual_tokens"]);
        std::vector<std::string> stages;
        for (const auto& st : v["stages"]) {
            stages.push_back(st["name"].get<std::string>());
            QVERIFY(st["seconds"].get<double>() >= 0);
            QVERIFY(st["cuda_peak_reserved_bytes"].is_null());  // CPU run
        }
        QVERIFY(std::find(stages.begin(), stages.end(), "decode") != stages.end());
        QVERIFY(std::find(stages.begin(), stages.end(), "encode") != stages.end());
        QVERIFY(v["cuda_peak_reserved_bytes"].is_null());
    }

    void multipleChoiceFormat() {
        QCOMPARE(formatMultipleChoice("What color?", {"red", "blue"}),
                 std::string("Question:What color?\nOption:\n(A) red\n(B) blue\n"
                             "Answer with the option's letter from the given choices directly."));
        QVERIFY_THROWS_EXCEPTION(OnceError, formatMultipleChoice("q", {"only"}));
        QCOMPARE(extractOptionLetter("(B) blue", 4).value(), 'B');
        QCOMPARE(extractOptionLetter("C.", 4).value(), 'C');
        QCOMPARE(extractOptionLetter("The answer is D", 4).value(), 'D');
        QVERIFY(!extractOptionLetter("E", 4).has_value());
        QCOMPARE(extractOptionLetter("a", 4).value(), 'A');
    }
};

QTEST_GUILESS_MAIN(TestAnswerParity)
#include "test_answer_parity.moc"
