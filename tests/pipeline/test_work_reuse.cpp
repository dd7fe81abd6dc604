// Issue 15: the work is done once. A video encoded elsewhere (the studio's) is handed to the
// session and answered about without decoding or encoding it again; a codebook in memory answers
// without a file; a session encodes several videos with one vision encoder, and so does an
// evaluation over several videos. Counted with the process's work counters
// (util/work_counters.h), on a tiny random LLaVA-OneVision folder of the published geometry
// (tests/reference/llm_reference.py).
#include <ATen/ATen.h>

#include <QtTest>
#include <filesystem>

#include "codebook/codebook.h"
#include "encode/decode_encode.h"
#include "eval/runner.h"
#include "models/visual_encoder.h"
#include "pipeline/answer_session.h"
#include "support/test_support.h"
#include "util/work_counters.h"

using namespace once;

namespace {

struct Counts {
    std::int64_t decodes, encodes, encoderBuilds, codebookLoads;
    static Counts now() {
        const WorkCounters& w = workCounters();
        return {w.decodes.load(), w.encodes.load(), w.encoderBuilds.load(), w.codebookLoads.load()};
    }
    Counts since(const Counts& before) const {
        return {decodes - before.decodes, encodes - before.encodes,
                encoderBuilds - before.encoderBuilds, codebookLoads - before.codebookLoads};
    }
};

}  // namespace

class TestWorkReuse : public QObject {
    Q_OBJECT
    std::string model_;
    std::string video_;

    AnswerSessionOptions options() const {
        AnswerSessionOptions o;
        o.modelDir = model_;
        o.dtype = "float32";
        o.sampling = "uniform:4";
        return o;
    }

  private slots:
    void initTestCase() {
        model_ = test::tempDir() + "/llava";
        const auto r = test::runPython(QStringLiteral("llm_reference.py"),
                                       {QStringLiteral("llava"), QString::fromStdString(model_)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        video_ = test::sourcePath("resources/demo/demo.mp4");
    }

    void anEncodedVideoAndAnInMemoryCodebookAnswerWithoutRepeatingWork() {
        // The caller (the studio) encodes once, with the model's encoder and the same settings.
        EncoderOptions eo;
        eo.modelDir = model_;
        auto encoder = makeVisualEncoder("llava-onevision", eo);
        DecodeEncodeOptions de;
        de.sampling = SamplingRule::parse("uniform:4");
        const EncodedVideo video = decodeAndEncode(video_, *encoder, de).video;
        QVERIFY(video.layoutTokenCount() == 1);  // image_newline

        AnswerSession session(options());
        // A codebook that exists only in memory: rows of the video itself.
        const at::Tensor rows = video.features.reshape({-1, video.dim()}).slice(0, 0, 64, 3);
        auto codebook = std::make_shared<const Codebook>(
            Codebook::fromTensor(rows.to(at::kFloat).contiguous(), "llava-onevision"));
        const Counts before = Counts::now();
        session.setVideo(video, "the studio's video");
        session.setCodebook(codebook);
        AskOptions dense;
        dense.maxNewTokens = 3;
        const AskReport d = session.ask("What happens?", dense);
        AskOptions compressed = dense;
        compressed.budget = 8;
        const AskReport c = session.ask("What happens?", compressed);
        const Counts done = Counts::now().since(before);
        QCOMPARE(done.decodes, std::int64_t{0});
        QCOMPARE(done.encodes, std::int64_t{0});
        QCOMPARE(done.encoderBuilds, std::int64_t{0});
        QCOMPARE(done.codebookLoads, std::int64_t{0});
        QCOMPARE(d.sourceTokens, video.numTokens());
        QVERIFY(!c.dense);
        QVERIFY(c.contentTokens >= 1 && c.contentTokens <= 8);
        QCOMPARE(c.layoutTokens, std::int64_t{1});

        // The same answers as a session that decodes and encodes the file itself.
        AnswerSession fromFile(options());
        fromFile.loadVideo(video_);
        fromFile.setCodebook(codebook);
        QCOMPARE(fromFile.ask("What happens?", dense).tokenIds, d.tokenIds);
        QCOMPARE(fromFile.ask("What happens?", compressed).tokenIds, c.tokenIds);
    }

    void oneSessionEncodesSeveralVideosWithOneEncoder() {
        AnswerSession session(options());
        const Counts before = Counts::now();
        session.loadVideo(video_);
        session.loadVideo(video_);
        const Counts done = Counts::now().since(before);
        QCOMPARE(done.encoderBuilds, std::int64_t{1});
        QCOMPARE(done.decodes, std::int64_t{2});
        QCOMPARE(done.encodes, std::int64_t{2});
    }

    void anEvaluationOfSeveralVideosBuildsTheEncoderOnce() {
        // Three videos (copies of the demo clip), two questions each.
        const std::string dir = test::tempDir();
        Benchmark b;
        b.name = "mvbench";
        b.maxNewTokens = 2;
        b.parse = [](const std::string& out, const EvalQuestion&) { return out.substr(0, 1); };
        for (int v = 0; v < 3; ++v) {
            const std::string path = dir + "/v" + std::to_string(v) + ".mp4";
            std::filesystem::copy_file(video_, path);
            for (int q = 0; q < 2; ++q) {
                EvalQuestion e;
                e.id = "q" + std::to_string(v) + "_" + std::to_string(q);
                e.videoId = "v" + std::to_string(v);
                e.videoPath = path;
                e.task = "t";
                e.question = "Which?";
                e.options = {"a", "b"};
                e.answer = 0;
                e.prompt = "Which? (A) a (B) b";
                b.questions.push_back(e);
            }
        }
        EvalOptions o;
        o.session = options();
        o.output = dir + "/results.jsonl";
        const Counts before = Counts::now();
        const EvalRunSummary s = runEvaluation(b, o);
        const Counts done = Counts::now().since(before);
        QCOMPARE(s.written, std::int64_t{6});
        QCOMPARE(done.encoderBuilds, std::int64_t{1});
        QCOMPARE(done.decodes, std::int64_t{3});
        QCOMPARE(done.encodes, std::int64_t{3});
    }
};

QTEST_GUILESS_MAIN(TestWorkReuse)
#include "test_work_reuse.moc"
