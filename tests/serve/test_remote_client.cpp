// The studio's client mode at the engine level (serve/remote_client.h): a question about a local
// video answered by a real `once serve` on a loopback port gives the report a local AnswerSession
// gives — the same ids and text, visual tokens and kept groups — streamed piece by piece; a new
// budget re-uses the server's encoding; a cancel stops the server's work; a wrong key or an
// unknown method is an error naming the server and the field. remoteCompress gives the local
// compression result's type with the server's groups (those of a local question at the budget),
// and a full server (--max-concurrent 1, one request held) says "server busy, retry in N s".
#include <QtTest>
#include <thread>

#include "compress/compression.h"
#include "pipeline/answer_session.h"
#include "serve/remote_client.h"
#include "serve/serve_process.h"
#include "support/models_fixture.h"
#include "support/test_support.h"

using namespace once;

namespace {
const char* kQuestion = "What is in the video?";
}

class TestRemoteClient : public QObject {
    Q_OBJECT
    std::string dir_, model_, codebook_, clip_;
    std::unique_ptr<test::ServeProcess> server_;
    std::unique_ptr<AnswerSession> local_;

    serve::RemoteEndpoint endpoint() const {
        serve::RemoteEndpoint e;
        e.url = server_->url().toStdString();
        e.apiKey = "the-remote-client-test-key";
        return e;
    }

  private slots:
    void initTestCase() {
        dir_ = test::tempDir();
        const test::TinyServeModel m = test::makeTinyServeModel(dir_);
        QVERIFY2(m.error.isEmpty(), qPrintable(m.error));
        model_ = m.model, codebook_ = m.codebook, clip_ = m.clip;
        test::writeText(dir_ + "/key", "the-remote-client-test-key\n");
        server_ = std::make_unique<test::ServeProcess>(
            m.args() + QStringList{"--codebook", QString::fromStdString(codebook_),
                                   "--api-key-file", QString::fromStdString(dir_ + "/key")});
        QVERIFY2(!server_->url().isEmpty(), qPrintable(server_->error()));
        AnswerSessionOptions so;
        so.modelDir = model_;
        so.codebook = codebook_;
        so.sampling = "uniform:4";
        so.poolStride = 2;
        so.dtype = "float32";
        local_ = std::make_unique<AnswerSession>(so);
        local_->loadVideo(clip_);
    }

    void remoteAnswersEqualLocalOnes() {
        QCOMPARE(serve::remoteModel(endpoint()), std::string("model"));
        for (const std::optional<std::int64_t> budget :
             {std::optional<std::int64_t>(), std::optional<std::int64_t>(12),
              std::optional<std::int64_t>(6)}) {
            AskOptions o;
            o.budget = budget;
            o.maxNewTokens = 12;
            std::string streamed;
            int pieces = 0;
            o.onText = [&](const std::string& s) { streamed += s, ++pieces; };
            const serve::RemoteAnswer remote =
                serve::askRemote(endpoint(), clip_, kQuestion, o, {}, CancelToken());
            o.onText = {};
            const AskReport want = local_->ask(kQuestion, o);
            QCOMPARE(remote.report.tokenIds, want.tokenIds);
            QCOMPARE(remote.report.answer, want.answer);
            QCOMPARE(streamed, want.answer);
            QVERIFY(pieces >= 1);
            QCOMPARE(remote.report.contentTokens, want.contentTokens);
            QCOMPARE(remote.report.layoutTokens, want.layoutTokens);
            QCOMPARE(remote.report.sourceTokens, want.sourceTokens);
            QCOMPARE(remote.report.promptTokens, want.promptTokens);
            QCOMPARE(remote.report.dense, want.dense);
            QCOMPARE(remote.report.groupOfToken, want.groupOfToken);
            QCOMPARE(remote.report.codewordIds, want.codewordIds);
            QCOMPARE(remote.report.stoppedByToken, want.stoppedByToken);
            QVERIFY(!remote.report.stages.empty());
            // The first question decoded and encoded on the server; the next ones re-budget.
            QCOMPARE(remote.videoCached, budget != std::nullopt);
            QCOMPARE(remote.machine, server_->url().mid(7).toStdString());
        }
    }

    void cancelStopsTheServersWork() {
        AskOptions o;
        o.maxNewTokens = 4000;
        CancelToken cancel;
        o.onText = [&](const std::string&) { cancel.cancel(); };
        bool cancelled = false;
        try {
            serve::askRemote(endpoint(), clip_, "Describe the video in great detail.", o, {},
                             cancel);
        } catch (const Cancelled&) {
            cancelled = true;
        }
        QVERIFY(cancelled);
        std::string metrics;
        for (int i = 0; i < 100; ++i) {
            metrics = test::curl(server_->url() + "/metrics", {}).body;
            if (metrics.find("once_requests_cancelled_total 1") != std::string::npos &&
                metrics.find("once_requests_in_flight 0") != std::string::npos) {
                break;
            }
            QTest::qWait(100);
        }
        QVERIFY2(metrics.find("once_requests_cancelled_total 1") != std::string::npos,
                 metrics.c_str());
    }

    void remoteCompressionIsTheLocalQuestionsGroups() {
        for (const auto& [method, budget] : std::vector<std::pair<std::string, std::int64_t>>{
                 {"once", 12}, {"once", 5}, {"tome", 30}}) {
            AskOptions o;
            o.budget = budget;
            o.method = method;
            o.maxNewTokens = 1;
            const serve::RemoteCompression remote =
                serve::remoteCompress(endpoint(), clip_, o, {}, CancelToken());
            const AskReport want = local_->ask(kQuestion, o);
            QVERIFY(remote.result);
            const CompressionResult& r = *remote.result;
            const at::Tensor g = r.groupOfToken.contiguous();
            QCOMPARE(std::vector<std::int64_t>(g.data_ptr<std::int64_t>(),
                                               g.data_ptr<std::int64_t>() + g.numel()),
                     want.groupOfToken);
            const at::Tensor ids = r.codewordIds.contiguous();
            QCOMPARE(std::vector<std::int64_t>(ids.data_ptr<std::int64_t>(),
                                               ids.data_ptr<std::int64_t>() + ids.numel()),
                     want.codewordIds);
            QCOMPARE(r.numOutputs, want.contentTokens);
            QCOMPARE(r.groupSizes.sum().item<std::int64_t>(),
                     std::int64_t(std::count_if(want.groupOfToken.begin(), want.groupOfToken.end(),
                                                [](std::int64_t x) { return x >= 0; })));
            QCOMPARE(r.budget, budget);
            QCOMPARE(r.method, method);
            QVERIFY(r.seconds.total() >= 0 && remote.prepareMs > 0);
            QVERIFY(remote.videoCached);  // the questions before encoded it
            QCOMPARE(remote.stages.back().name, std::string("compress"));
            QCOMPARE(remote.machine, server_->url().mid(7).toStdString());
        }
    }

    void aFullServerSaysBusyWithItsRetryAfter() {
        test::ServeProcess small(QStringList{"--model", QString::fromStdString(model_),
                                             "--sampling", "uniform:4", "--pool-stride", "2",
                                             "--dtype", "float32", "--max-concurrent", "1"});
        QVERIFY2(!small.url().isEmpty(), qPrintable(small.error()));
        serve::RemoteEndpoint e;
        e.url = small.url().toStdString();
        // One long answer holds the only slot until it is cancelled.
        CancelToken hold;
        std::atomic<bool> streaming{false};
        std::thread held([&] {
            AskOptions o;
            o.maxNewTokens = 4000;
            o.onText = [&](const std::string&) { streaming = true; };
            try {
                serve::askRemote(e, clip_, "Describe the video in great detail.", o, {}, hold);
            } catch (const std::exception&) {
            }
        });
        for (int i = 0; i < 600 && !streaming; ++i) {
            QTest::qWait(100);
        }
        QVERIFY(streaming);
        AskOptions o;
        o.budget = 8;
        o.method = "tome";
        const OnceError busy =
            test::errorOf([&] { serve::remoteCompress(e, clip_, o, {}, CancelToken()); });
        hold.cancel();
        held.join();
        QCOMPARE(busy.where().field, std::string(serve::kBusyField));
        QVERIFY2(std::string(busy.what()).find("server busy, retry in 1 s") != std::string::npos,
                 busy.what());
        // The slot is free again once the held answer is cancelled.
        bool done = false;
        for (int i = 0; i < 50 && !done; ++i) {
            try {
                done = serve::remoteCompress(e, clip_, o, {}, CancelToken()).result != nullptr;
            } catch (const OnceError& x) {
                QCOMPARE(x.where().field, std::string(serve::kBusyField));
                QTest::qWait(100);
            }
        }
        QVERIFY(done);
    }

    void errorsNameTheServerAndTheField() {
        serve::RemoteEndpoint wrong = endpoint();
        wrong.apiKey = "not-the-key-0123456789";
        OnceError e = test::errorOf([&] { serve::remoteModel(wrong); });
        QVERIFY2(std::string(e.what()).find("401") != std::string::npos, e.what());
        AskOptions o;
        o.budget = 4;
        o.method = "magic";
        e = test::errorOf([&] { serve::askRemote(endpoint(), clip_, kQuestion, o, {}, {}); });
        QCOMPARE(e.where().field, std::string("once.method"));
        QCOMPARE(e.where().file, server_->url().toStdString());
        serve::RemoteEndpoint gone;
        gone.url = "http://127.0.0.1:1";
        e = test::errorOf([&] { serve::remoteModel(gone); });
        QVERIFY2(std::string(e.what()).find("cannot reach") != std::string::npos, e.what());
    }
};

QTEST_GUILESS_MAIN(TestRemoteClient)
#include "test_remote_client.moc"
