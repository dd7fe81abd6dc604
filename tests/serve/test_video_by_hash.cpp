// Videos named by their content (serve/media_url.h once-video:sha256:, serve/video_upload.h):
// the parser takes exactly 64 lowercase hex digits and refuses any other form with a 400 naming
// the field, what it expected and what it found; the client hashes a file once per size and
// modification time. Against a real `once serve` on a loopback port: a second question (streamed)
// and a compression (not streamed) about the same video upload nothing — the server's
// once_video_upload_bytes_total stays at the file's size; a well-formed hash the server does not
// hold is a 404 with code video_not_cached (in the stream too); and a fresh server (a restart)
// makes the client upload the video once and answer as before.
#include <QtTest>
#include <filesystem>
#include <optional>
#include <sstream>

#include "compress/compression.h"
#include "pipeline/answer_session.h"
#include "serve/api_error.h"
#include "serve/media_url.h"
#include "serve/openai_json.h"
#include "serve/remote_client.h"
#include "serve/serve_process.h"
#include "serve/video_upload.h"
#include "support/test_support.h"

using namespace once;
using json = nlohmann::json;

namespace {

const char* kQuestion = "What is in the video?";
const std::string kZeros(64, '0');

// The value of an unlabelled or labelled sample of the server's /metrics; −1 when absent.
std::int64_t metric(const QString& url, const std::string& sample) {
    std::istringstream text(test::curl(url + "/metrics", {}).body);
    for (std::string line; std::getline(text, line);) {
        if (line.rfind(sample + " ", 0) == 0) {
            return std::stoll(line.substr(sample.size() + 1));
        }
    }
    return -1;
}

std::string chatBody(const std::string& url, bool stream) {
    const json part = {{"type", "video_url"}, {"video_url", {{"url", url}}}};
    const json text = {{"type", "text"}, {"text", kQuestion}};
    return json{{"messages", {{{"role", "user"}, {"content", {part, text}}}}},
                {"max_tokens", 4},
                {"stream", stream}}
        .dump();
}

}  // namespace

class TestVideoByHash : public QObject {
    Q_OBJECT
    std::string dir_, clip_;
    test::TinyServeModel model_;
    std::unique_ptr<test::ServeProcess> server_;
    serve::RemoteAnswer first_;  ///< the first question's answer, uploaded

    QStringList serverArgs() const {
        return model_.args() + QStringList{"--codebook", QString::fromStdString(model_.codebook)};
    }
    serve::RemoteEndpoint endpoint() const {
        serve::RemoteEndpoint e;
        e.url = server_->url().toStdString();
        return e;
    }
    static AskOptions options(std::int64_t budget) {
        AskOptions o;
        o.budget = budget;
        o.maxNewTokens = 8;
        return o;
    }

  private slots:
    void initTestCase() {
        dir_ = test::tempDir();
        model_ = test::makeTinyServeModel(dir_);
        QVERIFY2(model_.error.isEmpty(), qPrintable(model_.error));
        clip_ = model_.clip;
        server_ = std::make_unique<test::ServeProcess>(serverArgs());
        QVERIFY2(!server_->url().isEmpty(), qPrintable(server_->error()));
    }

    void theParserTakesExactlyALowercaseSha256() {
        const std::string hash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        const serve::VideoSource v = serve::parseMediaUrl("once-video:sha256:" + hash, "u", 1);
        QVERIFY(v.isCached() && !v.isData());
        QCOMPARE(v.cachedSha256, hash);
        QCOMPARE(serve::cachedVideoUrl(hash), "once-video:sha256:" + hash);
        std::string upper = hash;
        upper[10] = 'C';
        // url -> what the error says was found
        const std::vector<std::pair<std::string, std::string>> bad = {
            {"once-video:sha256:" + upper, "'C' at digit 11"},
            {"once-video:sha256:" + hash.substr(1), "63 characters"},
            {"once-video:sha256:" + hash + "0", "65 characters"},
            {"once-video:sha256:", "0 characters"},
            {"once-video:sha256:" + hash.substr(0, 63) + "g", "'g' at digit 64"},
            {"once-video:md5:" + hash.substr(0, 32), "md5"},
            {"once-video:" + hash, hash.substr(0, 60) + "..."},
            {"once-video:sha256:/etc/passwd", "11 characters"},
        };
        for (const auto& [url, found] : bad) {
            try {
                serve::parseMediaUrl(url, "u", 1 << 20);
                QFAIL(qPrintable(QString::fromStdString("accepted " + url)));
            } catch (const serve::ApiError& e) {
                QCOMPARE(e.status(), 400);
                QCOMPARE(e.where().field, std::string("u"));
                QCOMPARE(e.where().expected,
                         std::string("once-video:sha256:<64 lowercase hex digits>"));
                QVERIFY2(e.where().found.find(found) != std::string::npos,
                         qPrintable(QString::fromStdString(url + " -> " + e.where().found)));
            }
        }
    }

    void anOlderServersRefusalAsksForTheBytes() {
        // What a server from before the hash form answered to once-video: — the answer of
        // parseMediaUrl to any scheme it does not know, made here by the same code.
        const std::string field = "messages[0].content[0].video_url.url";
        std::optional<serve::ApiError> refusal;
        try {
            serve::parseMediaUrl("gopher://x", field, 9);
        } catch (const serve::ApiError& e) {
            refusal = e;
        }
        QVERIFY(refusal);
        const serve::ApiError& old = *refusal;
        const json body = serve::errorJson(old.what(), old.type(), old.where().field, old.code());
        QVERIFY2(serve::serverWantsTheBytes(old.status(), body["error"]), body.dump().c_str());
        // The server's own "not held" (whatever its status) asks for them too.
        QVERIFY(
            serve::serverWantsTheBytes(404, serve::errorJson("not held", "not_found_error", "",
                                                             serve::kVideoNotCachedCode)["error"]));
        // Anything else is the request's error, reported as such.
        QVERIFY(!serve::serverWantsTheBytes(
            400, serve::errorJson(old.what(), old.type(), "once.budget")["error"]));
        QVERIFY(!serve::serverWantsTheBytes(
            400, serve::errorJson("budget out of range", "invalid_request_error", field)["error"]));
        QVERIFY(
            !serve::serverWantsTheBytes(500, serve::errorJson(old.what(), "x", field)["error"]));
        QVERIFY(!serve::serverWantsTheBytes(400, json("unsupported video URL")));
    }

    void theClientHashesAFileOncePerVersion() {
        const std::string file = dir_ + "/digest.bin";
        test::writeText(file, "abc");
        const std::string abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        QCOMPARE(serve::fileDigest(file, 100).sha256, abc);
        QCOMPARE(serve::fileDigest(file, 100).size, std::uintmax_t(3));
        // Same size, same modification time: the kept hash (the file is not read again).
        const auto modified = std::filesystem::last_write_time(file);
        test::writeText(file, "xyz");
        std::filesystem::last_write_time(file, modified);
        QCOMPARE(serve::fileDigest(file, 100).sha256, abc);
        // Another size (or time): hashed again.
        test::writeText(file, "abcd");
        QCOMPARE(serve::fileDigest(file, 100).sha256,
                 std::string("88d4266fd4e6338d13b845fcf289579d209c897823b9217da3e161936f031589"));
        const OnceError e = test::errorOf([&] { serve::fileDigest(file, 3); });
        QCOMPARE(e.where().file, file);
        QCOMPARE(e.where().found, std::string("4 bytes"));
    }

    void aSecondQuestionUploadsNothing() {
        const QString url = server_->url();
        const auto size = std::int64_t(std::filesystem::file_size(clip_));
        first_ = serve::askRemote(endpoint(), clip_, kQuestion, options(12), {}, CancelToken());
        QVERIFY(!first_.videoCached);
        QCOMPARE(metric(url, "once_video_upload_bytes_total"), size);
        QCOMPARE(metric(url, "once_video_requests_total{source=\"hash\"}"), 1);  // then 404
        QCOMPARE(metric(url, "once_video_requests_total{source=\"data\"}"), 1);
        // Streamed (askRemote) and not (remoteCompress): the hash only.
        const serve::RemoteAnswer second =
            serve::askRemote(endpoint(), clip_, kQuestion, options(6), {}, CancelToken());
        QVERIFY(second.videoCached);
        QCOMPARE(second.videoSha256, first_.videoSha256);
        QVERIFY(!second.report.tokenIds.empty() && !second.report.stages.empty());
        QCOMPARE(second.report.budget, std::int64_t(6));
        const serve::RemoteCompression c =
            serve::remoteCompress(endpoint(), clip_, options(8), {}, CancelToken());
        QVERIFY(c.videoCached && c.result);
        QCOMPARE(c.result->budget, std::int64_t(8));
        QCOMPARE(metric(url, "once_video_upload_bytes_total"), size);
        QCOMPARE(metric(url, "once_video_requests_total{source=\"hash\"}"), 3);
        QCOMPARE(metric(url, "once_video_requests_total{source=\"data\"}"), 1);
        QCOMPARE(metric(url, "once_video_decodes_total"), 1);
    }

    void anUnknownHashIsNotCachedAndABadOneIsRefused() {
        const QString chat = server_->url() + "/v1/chat/completions";
        test::HttpReply r = test::postJson(chat, chatBody("once-video:sha256:" + kZeros, false));
        QCOMPARE(r.status, 404);
        json err = r.json()["error"];
        QCOMPARE(err["code"].get<std::string>(), std::string(serve::kVideoNotCachedCode));
        QVERIFY2(err["message"].get<std::string>().find("data: URL") != std::string::npos,
                 r.body.c_str());
        // Streamed: the 200 and headers are sent before the engine looks; the error is an event.
        r = test::postJson(chat, chatBody("once-video:sha256:" + kZeros, true));
        QCOMPARE(r.status, 200);
        QVERIFY2(r.body.find("\"code\":\"video_not_cached\"") != std::string::npos, r.body.c_str());
        r = test::postJson(
            server_->url() + "/v1/once/compress",
            json{{"video_url", {{"url", "once-video:sha256:" + kZeros}}}, {"once", {{"budget", 4}}}}
                .dump());
        QCOMPARE(r.status, 404);
        QCOMPARE(r.json()["error"]["code"].get<std::string>(),
                 std::string(serve::kVideoNotCachedCode));
        // Malformed: a 400 naming the field, before any streaming.
        r = test::postJson(chat, chatBody("once-video:sha256:" + kZeros.substr(2), true));
        QCOMPARE(r.status, 400);
        err = r.json()["error"];
        QCOMPARE(err["param"].get<std::string>(),
                 std::string("messages[0].content[0].video_url.url"));
        QVERIFY2(
            err["message"].get<std::string>().find("exactly 64 hex digits") != std::string::npos,
            r.body.c_str());
        QVERIFY(err["code"].is_null());
    }

    void aFreshServerMakesTheClientUploadOnceMore() {
        QVERIFY(!first_.report.tokenIds.empty());
        server_->stop();
        server_ = std::make_unique<test::ServeProcess>(serverArgs());
        QVERIFY2(!server_->url().isEmpty(), qPrintable(server_->error()));
        const serve::RemoteAnswer again =
            serve::askRemote(endpoint(), clip_, kQuestion, options(12), {}, CancelToken());
        QVERIFY(!again.videoCached);
        QCOMPARE(again.report.tokenIds, first_.report.tokenIds);
        QCOMPARE(again.report.answer, first_.report.answer);
        QCOMPARE(again.report.groupOfToken, first_.report.groupOfToken);
        QCOMPARE(again.videoSha256, first_.videoSha256);
        QCOMPARE(again.machine, server_->url().mid(7).toStdString());
        QCOMPARE(metric(server_->url(), "once_video_upload_bytes_total"),
                 std::int64_t(std::filesystem::file_size(clip_)));
        QCOMPARE(metric(server_->url(), "once_video_requests_total{source=\"hash\"}"), 1);
        QCOMPARE(metric(server_->url(), "once_video_requests_total{source=\"data\"}"), 1);
    }
};

QTEST_GUILESS_MAIN(TestVideoByHash)
#include "test_video_by_hash.moc"
