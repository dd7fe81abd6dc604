// `once serve` as its users run it: the real server on a loopback port, a tiny random
// LLaVA-OneVision of the published geometry (saved by transformers), a real H.264 clip, and
// clients no one here wrote — the official `openai` Python package and curl. The answers (ids
// and text) equal `once ask` on the same inputs, streamed or not; budgets of different methods
// in one session re-use the one decode; the kept groups equal `once compress`'s, also from the
// compress-only POST /v1/once/compress, which only re-budgets a cached video; bad input gets
// a clear OpenAI error naming the field and the server stays up; a non-loopback bind needs a
// key; the load benchmark (bench/bench_serve.py) and clients killed mid-stream.
#include <QByteArray>
#include <QFile>
#include <QtTest>
#include <csignal>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "serve/serve_process.h"
#include "support/models_fixture.h"
#include "support/test_support.h"

using namespace once;
using json = nlohmann::json;

namespace {

const char* kQuestion = "What is in the video?";

std::vector<std::int64_t> longsOf(const std::string& file, const std::string& name) {
    auto f = SafetensorsFile::open(file);
    at::Tensor t = loadTensor(f, name).to(at::kLong).contiguous();
    return {t.data_ptr<std::int64_t>(), t.data_ptr<std::int64_t>() + t.numel()};
}

// group_of_token (frame-major) rebuilt from the server's kept groups.
std::vector<std::int64_t> groupOfToken(const json& groups) {
    const auto frames = groups["frames"].get<std::int64_t>();
    const auto patches = groups["patches"].get<std::int64_t>();
    std::vector<std::int64_t> g(std::size_t(frames * patches), -1);
    for (const json& row : groups["rows"]) {
        for (const json& member : row["members"]) {
            for (const json& p : member["patches"]) {
                g[std::size_t(member["frame"].get<std::int64_t>() * patches +
                              p.get<std::int64_t>())] = row["row"].get<std::int64_t>();
            }
        }
    }
    return g;
}

// The metric's value in Prometheus text (-1 when absent).
double metric(const std::string& text, const std::string& name) {
    const auto at = text.find("\n" + name + " ");
    return at == std::string::npos ? -1 : std::stod(text.substr(at + name.size() + 2));
}

}  // namespace

class TestServeOpenAi : public QObject {
    Q_OBJECT
    std::string dir_, model_, codebook_, media_, clip_;
    QStringList modelArgs_;
    std::unique_ptr<test::ServeProcess> server_;

    QStringList modelArgs() const { return modelArgs_; }

    json ask(const QStringList& extra) {
        auto r = test::runCli(QStringList{"ask", QString::fromStdString(clip_), "--question",
                                          kQuestion, "--max-new-tokens", "12", "--json"} +
                              modelArgs() + extra);
        if (r.exitCode != 0) {
            qWarning().noquote() << r.err;
        }
        return r.exitCode == 0 ? json::parse(r.out.toStdString()) : json();
    }

    // Runs requests through the openai package against `base`.
    json chat(const std::vector<json>& requests, const QString& base = {}) {
        const std::string file = test::tempDir() + "/requests.json";
        test::writeText(file, json(requests).dump());
        auto r = test::runPython("serve_client.py", {"chat", base.isEmpty() ? server_->url() : base,
                                                     QString::fromStdString(file)});
        if (r.exitCode != 0) {
            qWarning().noquote() << r.err;
            return json();
        }
        return json::parse(r.out.toStdString());
    }

    json fileRequest(json once = nullptr, bool stream = false) {
        json r = {{"video", "file://" + clip_}, {"question", kQuestion}, {"stream", stream}};
        if (!once.is_null()) {
            r["once"] = once;
        }
        return r;
    }

    std::string metrics() { return test::curl(server_->url() + "/metrics", {}).body; }

    QString chatUrl() const { return server_->url() + "/v1/chat/completions"; }

    json requestBody(const std::string& url, json once = nullptr) {
        json b = {{"messages",
                   {{{"role", "user"},
                     {"content",
                      {{{"type", "video_url"}, {"video_url", {{"url", url}}}},
                       {{"type", "text"}, {"text", kQuestion}}}}}}},
                  {"max_tokens", 12}};
        if (!once.is_null()) {
            b["once"] = once;
        }
        return b;
    }

  private slots:
    void initTestCase() {
        if (!QFileInfo::exists(test::kRealClip)) {
            QFAIL("the real clip of python3-imageio is missing: run scripts/setup.sh");
        }
        dir_ = test::tempDir();
        const test::TinyServeModel m = test::makeTinyServeModel(dir_);
        QVERIFY2(m.error.isEmpty(), qPrintable(m.error));
        model_ = m.model, codebook_ = m.codebook, media_ = m.media, clip_ = m.clip;
        modelArgs_ = m.args();
        server_ = std::make_unique<test::ServeProcess>(
            modelArgs() + QStringList{"--codebook", QString::fromStdString(codebook_),
                                      "--media-root", QString::fromStdString(media_),
                                      "--max-new-tokens", "12", "--max-concurrent", "2"});
        QVERIFY2(!server_->url().isEmpty(), qPrintable(server_->error()));
    }

    void answersEqualOnceAsk() {
        for (const bool dense : {true, false}) {
            const json once =
                dense ? json{{"dense", true}} : json{{"method", "once"}, {"budget", 12}};
            const json want =
                ask(dense ? QStringList{"--dense"}
                          : QStringList{"--codebook", QString::fromStdString(codebook_), "--budget",
                                        "12"});
            QVERIFY(!want.is_null());
            const json got = chat({fileRequest(once, false), fileRequest(once, true)});
            QCOMPARE(got.size(), std::size_t(2));
            for (const json& g : got) {
                QVERIFY2(!g.contains("error"), g.dump().c_str());
                QCOMPARE(g["answer"].get<std::string>(), want["answer"].get<std::string>());
                QCOMPARE(g["once"]["token_ids"], want["token_ids"]);
                QCOMPARE(g["usage"]["prompt_tokens"], want["prompt_tokens"]);
                QCOMPARE(g["usage"]["completion_tokens"].get<std::size_t>(),
                         want["token_ids"].size());
                QCOMPARE(g["once"]["visual_tokens"]["after"], want["visual_tokens"]["total"]);
                QCOMPARE(g["once"]["visual_tokens"]["before"], want["visual_tokens"]["source"]);
                const bool stopped = want["token_ids"].size() < 12;
                QCOMPARE(g["finish_reason"].get<std::string>(),
                         std::string(stopped ? "stop" : "length"));
            }
            QVERIFY(got[1]["chunks"].get<int>() > 2);  // streamed in pieces, then usage
            qInfo("%s: '%s' (%zu ids) by the openai client, streamed and not, as once ask",
                  dense ? "dense" : "ONCE B=12", want["answer"].get<std::string>().c_str(),
                  want["token_ids"].size());

            // curl: the same JSON, and server-sent events ending in [DONE].
            const auto plain =
                test::postJson(chatUrl(), requestBody("file://" + clip_, once).dump());
            QCOMPARE(plain.status, 200);
            QCOMPARE(plain.json()["once"]["token_ids"], want["token_ids"]);
            QCOMPARE(plain.json()["object"].get<std::string>(), std::string("chat.completion"));
            json streamed = requestBody("file://" + clip_, once);
            streamed["stream"] = true;
            const auto sse = test::postJson(chatUrl(), streamed.dump(), {"-N"});
            QCOMPARE(sse.status, 200);
            QVERIFY(sse.headers.find("text/event-stream") != std::string::npos);
            std::string text;
            int events = 0;
            for (const QString& line : QString::fromStdString(sse.body).split("\n\n")) {
                if (!line.startsWith("data: ") || line == "data: [DONE]") {
                    continue;
                }
                ++events;
                const json chunk = json::parse(line.mid(6).toStdString());
                QCOMPARE(chunk["object"].get<std::string>(), std::string("chat.completion.chunk"));
                for (const json& c : chunk["choices"]) {
                    text += c["delta"].value("content", "");
                }
            }
            QVERIFY(sse.body.size() > 14 &&
                    sse.body.substr(sse.body.size() - 14) == "data: [DONE]\n\n");
            QVERIFY(events >= 3);
            QCOMPARE(text, want["answer"].get<std::string>());
        }
    }

    void budgetsOfDifferentMethodsInOneSession() {
        struct Case {
            std::string method;
            int budget;
        };
        const std::vector<Case> cases = {
            {"once", 8}, {"spatial-pool", 49}, {"tome", 30}, {"once", 20}};
        std::vector<json> requests;
        for (const Case& c : cases) {
            requests.push_back(fileRequest({{"method", c.method}, {"budget", c.budget}}));
        }
        const json got = chat(requests);
        QCOMPARE(got.size(), cases.size());
        for (std::size_t i = 0; i < cases.size(); ++i) {
            const json want = ask({"--codebook", QString::fromStdString(codebook_), "--method",
                                   QString::fromStdString(cases[i].method), "--budget",
                                   QString::number(cases[i].budget)});
            const json& g = got[i];
            QVERIFY2(!g.contains("error"), g.dump().c_str());
            QCOMPARE(g["once"]["method"].get<std::string>(), cases[i].method);
            QCOMPARE(g["once"]["budget"].get<int>(), cases[i].budget);
            QCOMPARE(g["once"]["token_ids"], want["token_ids"]);
            QCOMPARE(g["once"]["visual_tokens"]["after"], want["visual_tokens"]["total"]);
            QVERIFY(g["once"]["visual_tokens"]["content"].get<int>() <= cases[i].budget);
            // The video was decoded and encoded by the first test's first request only.
            QVERIFY(g["once"]["video"]["cached"].get<bool>());
            QVERIFY(!g["once"]["timings"].contains("decode"));
        }
        const std::string m = metrics();
        QCOMPARE(metric(m, "once_video_decodes_total"), 1.0);
        QCOMPARE(metric(m, "once_video_encodes_total"), 1.0);
    }

    void keptGroupsEqualOnceCompress() {
        const QString features = QString::fromStdString(dir_ + "/features.safetensors");
        auto r = test::runCli(QStringList{"encode", QString::fromStdString(clip_), "-o", features} +
                              modelArgs());
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        for (const auto& [method, budget] :
             std::vector<std::pair<std::string, int>>{{"once", 12}, {"spatial-pool", 49}}) {
            const std::string out = dir_ + "/" + method + ".safetensors";
            r = test::runCli({"compress", "--features", features, "--codebook",
                              QString::fromStdString(codebook_), "--method",
                              QString::fromStdString(method), "--budget", QString::number(budget),
                              "-o", QString::fromStdString(out)});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            const json got = chat(
                {fileRequest({{"method", method}, {"budget", budget}, {"return_groups", true}})});
            QVERIFY2(!got[0].contains("error"), got[0].dump().c_str());
            const json& groups = got[0]["once"]["groups"];
            QCOMPARE(groups["patches"].get<int>(), 14 * 14);
            QCOMPARE(groupOfToken(groups), longsOf(out, "group_of_token"));
            std::vector<std::int64_t> codewords;
            for (const json& row : groups["rows"]) {
                codewords.push_back(row["codeword"].get<std::int64_t>());
                QVERIFY(row["size"].get<int>() > 0);
            }
            QCOMPARE(codewords, longsOf(out, "codeword_ids"));
            qInfo("%s B=%d: %zu kept groups equal once compress's", method.c_str(), budget,
                  codewords.size());
        }
    }

    // POST /v1/once/compress: the kept groups without a generation, equal to `once compress`'s;
    // a new budget on the cached video neither decodes, encodes nor prepares again.
    void compressOnlyEqualsOnceCompressAndOnlyReBudgets() {
        const QString features = QString::fromStdString(dir_ + "/features-compress.safetensors");
        auto r = test::runCli(QStringList{"encode", QString::fromStdString(clip_), "-o", features} +
                              modelArgs());
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString url = server_->url() + "/v1/once/compress";
        const std::string route =
            "once_http_requests_total{route=\"/v1/once/compress\",code=\"200\"}";
        std::string before;
        double prepareMs = -1;
        for (const auto& [method, budget] :
             std::vector<std::pair<std::string, int>>{{"once", 10}, {"once", 5}, {"tome", 30}}) {
            const bool first = before.empty();
            const std::string out = dir_ + "/compress-" + method + ".safetensors";
            r = test::runCli({"compress", "--features", features, "--codebook",
                              QString::fromStdString(codebook_), "--method",
                              QString::fromStdString(method), "--budget", QString::number(budget),
                              "-o", QString::fromStdString(out)});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            const json body = {{"video_url", {{"url", "file://" + clip_}}},
                               {"once", {{"method", method}, {"budget", budget}}}};
            const test::HttpReply reply = test::postJson(url, body.dump());
            QVERIFY2(reply.status == 200, reply.body.c_str());
            const json j = reply.json();
            QCOMPARE(j["object"].get<std::string>(), std::string("once.compression"));
            QVERIFY(!j.contains("choices"));  // not a chat completion: nothing was generated
            const json& once = j["once"];
            QVERIFY(once["token_ids"].empty());
            QCOMPARE(groupOfToken(once["groups"]), longsOf(out, "group_of_token"));
            std::vector<std::int64_t> codewords;
            for (const json& row : once["groups"]["rows"]) {
                codewords.push_back(row["codeword"].get<std::int64_t>());
            }
            QCOMPARE(codewords, longsOf(out, "codeword_ids"));
            QCOMPARE(once["compression"]["outputs"].get<std::size_t>(), codewords.size());
            QVERIFY(once["timings"].contains("compress"));
            if (method == "once" && prepareMs < 0) {
                prepareMs = once["compression"]["prepare_ms"].get<double>();
            } else if (method == "once") {
                // Re-budgeted from the assignment made for B = 10: not prepared again.
                QVERIFY(!once["compression"]["prepared_now"].get<bool>());
                QCOMPARE(once["compression"]["prepare_ms"].get<double>(), prepareMs);
            }
            if (first) {
                before = metrics();  // the first may have decoded (when run alone)
                continue;
            }
            // Decoded and encoded (at most) by the first request: only compression ran.
            QVERIFY(once["video"]["cached"].get<bool>());
            QVERIFY(!once["timings"].contains("decode") && !once["timings"].contains("encode"));
        }
        const std::string after = metrics();
        QCOMPARE(metric(after, route), metric(before, route) + 2);
        QCOMPARE(metric(after, "once_video_decodes_total"),
                 metric(before, "once_video_decodes_total"));
        QCOMPARE(metric(after, "once_video_encodes_total"),
                 metric(before, "once_video_encodes_total"));
        // Dense has nothing to compress: a clear error naming the field.
        const test::HttpReply dense = test::postJson(
            url,
            json{{"video_url", {{"url", "file://" + clip_}}}, {"once", {{"dense", true}}}}.dump());
        QCOMPARE(dense.status, 400);
        QCOMPARE(dense.json()["error"]["param"].get<std::string>(), std::string("once.dense"));
    }

    void dataUrlIsTheSameVideo() {
        QFile f(QString::fromStdString(clip_));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const std::string url = "data:video/mp4;base64," + f.readAll().toBase64().toStdString();
        const json once = {{"method", "once"}, {"budget", 12}};
        json req = fileRequest(once);
        req["video"] = url;
        const json got = chat({fileRequest(once), req});
        QVERIFY2(!got[1].contains("error"), got[1].dump().c_str());
        QCOMPARE(got[1]["once"]["token_ids"], got[0]["once"]["token_ids"]);
        QCOMPARE(got[1]["once"]["video"]["sha256"], got[0]["once"]["video"]["sha256"]);
        QVERIFY(got[1]["once"]["video"]["cached"].get<bool>());  // same bytes, same sampling
        // Another sampling is another video: decoded once, then cached.
        json two = fileRequest({{"sampling", "uniform:2"}, {"dense", true}});
        const json sampled = chat({two, two});
        QCOMPARE(sampled[0]["once"]["video"]["frames"].get<int>(), 2);
        QVERIFY(!sampled[0]["once"]["video"]["cached"].get<bool>());
        QVERIFY(sampled[1]["once"]["video"]["cached"].get<bool>());
        QCOMPARE(metric(metrics(), "once_video_decodes_total"), 2.0);
    }

    void badInputGetsAClearErrorAndTheServerStaysUp() {
        struct Case {
            std::string body;
            int status;
            std::string param;
        };
        json wrongType = requestBody("file://" + clip_);
        wrongType["max_tokens"] = "many";
        json unknownMethod = requestBody("file://" + clip_, {{"method", "magic"}, {"budget", 4}});
        json unknownParam = requestBody(
            "file://" + clip_, {{"method", "tome"}, {"budget", 4}, {"params", {{"x", 1}}}});
        json wrongModel = requestBody("file://" + clip_);
        wrongModel["model"] = "gpt-4o";
        const std::string secret = dir_ + "/secret.mp4";
        std::filesystem::copy_file(clip_, secret);
        const std::vector<Case> cases = {
            {"{\"messages\": [", 400, ""},
            {"[]", 400, ""},
            {wrongType.dump(), 400, "max_tokens"},
            {requestBody("file://" + secret).dump(), 400, "messages.video_url.url"},
            {requestBody("file://" + media_ + "/../secret.mp4").dump(), 400,
             "messages.video_url.url"},
            {requestBody("file:///etc/passwd").dump(), 400, "messages.video_url.url"},
            {requestBody("file://" + media_ + "/missing.mp4").dump(), 404,
             "messages.video_url.url"},
            {requestBody("http://example.com/a.mp4").dump(), 400,
             "messages[0].content[0].video_url.url"},
            {requestBody("data:video/mp4;base64,AAAAAAAA").dump(), 400, ""},  // not a video
            {unknownMethod.dump(), 400, "once.method"},
            {unknownParam.dump(), 400, "once.params.x"},
            {wrongModel.dump(), 404, "model"},
        };
        for (const Case& c : cases) {
            const auto reply = test::postJson(chatUrl(), c.body);
            const json e = reply.json();
            QVERIFY2(
                reply.status == c.status && e.contains("error") &&
                    e["error"]["message"].is_string() &&
                    (c.param.empty() || e["error"]["param"] == c.param),
                qPrintable(QString::number(reply.status) + " " +
                           QString::fromStdString(c.body.substr(0, 120) + " -> " + reply.body)));
        }
        const auto notFound = test::curl(server_->url() + "/v1/nothing", {});
        QCOMPARE(notFound.status, 404);
        QVERIFY(notFound.json().contains("error"));
        // A streamed request whose video cannot be decoded: the error arrives as an event.
        json streamed = requestBody("data:video/mp4;base64,AAAAAAAA");
        streamed["stream"] = true;
        const auto sse = test::postJson(chatUrl(), streamed.dump(), {"-N"});
        QVERIFY2(sse.body.find("\"error\"") != std::string::npos, sse.body.c_str());
        // Still serving, still right.
        QCOMPARE(test::curl(server_->url() + "/health", {}).status, 200);
        const auto ok = test::postJson(chatUrl(), requestBody("file://" + clip_).dump());
        QCOMPARE(ok.status, 200);
        QVERIFY(server_->running());
        const std::string m = metrics();
        QVERIFY(m.find("code=\"400\"") != std::string::npos);
        QVERIFY(m.find("code=\"404\"") != std::string::npos);
    }

    void nonLoopbackNeedsAKeyAndLimitsHold() {
        auto r = test::runCli(QStringList{"serve", "--host", "0.0.0.0"} + modelArgs());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--api-key-file"), qPrintable(r.err));
        const std::string keyFile = dir_ + "/key";
        const std::string key = "k3y-for-the-serve-test-0123";
        test::writeText(keyFile, key + "\n");
        std::filesystem::permissions(
            keyFile, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
        test::ServeProcess open(
            modelArgs() + QStringList{"--host", "0.0.0.0", "--api-key-file",
                                      QString::fromStdString(keyFile), "--media-root",
                                      QString::fromStdString(media_), "--max-video-mib", "1"});
        QVERIFY2(!open.url().isEmpty(), qPrintable(open.error()));
        const QString base = QString("http://127.0.0.1:%1").arg(open.port());
        const QString url = base + "/v1/chat/completions";
        const std::string body = requestBody("file://" + clip_).dump();
        auto reply = test::postJson(url, body);
        QCOMPARE(reply.status, 401);
        QCOMPARE(reply.json()["error"]["type"].get<std::string>(),
                 std::string("authentication_error"));
        reply = test::postJson(url, body, {"-H", "Authorization: Bearer wrong-key-0123456789"});
        QCOMPARE(reply.status, 401);
        QCOMPARE(test::curl(base + "/v1/models", {}).status, 401);
        QCOMPARE(test::curl(base + "/health", {}).status, 200);  // probes need no key
        reply = test::postJson(url, body,
                               {"-H", QString::fromStdString("Authorization: Bearer " + key)});
        QCOMPARE(reply.status, 200);
        json req = fileRequest();
        req["api_key"] = key;
        const json viaOpenAi = chat({req}, base);
        QVERIFY2(!viaOpenAi[0].contains("error"), viaOpenAi[0].dump().c_str());
        req["api_key"] = "wrong-key-0123456789";
        QCOMPARE(chat({req}, base)[0]["error"]["status"].get<int>(), 401);

        // Limits: 1 MiB of video, so a body over 1 MiB * 4/3 + 1 MiB is refused by the HTTP
        // layer, a 1.2 MiB data URL by the parser and a 1.2 MiB file under the root by size.
        const QStringList auth{"-H", QString::fromStdString("Authorization: Bearer " + key)};
        const std::string big(std::size_t(1.2 * (1 << 20)), 'v');
        const std::string dataUrl =
            "data:video/mp4;base64," + QByteArray::fromStdString(big).toBase64().toStdString();
        reply = test::postJson(url, requestBody(dataUrl).dump(), auth);
        QCOMPARE(reply.status, 413);
        QCOMPARE(reply.json()["error"]["param"].get<std::string>(),
                 std::string("messages[0].content[0].video_url.url"));
        json huge = requestBody("file://" + clip_);
        huge["user"] = std::string(3 << 20, 'u');
        reply = test::postJson(url, huge.dump(), auth);
        QCOMPARE(reply.status, 413);
        QVERIFY2(reply.json().contains("error"), reply.body.c_str());
        test::writeText(media_ + "/big.mp4", big);
        reply = test::postJson(url, requestBody("file://" + media_ + "/big.mp4").dump(), auth);
        QCOMPARE(reply.status, 413);
        // Nested 100,000 deep: refused by the depth limit, the server stays up.
        reply = test::postJson(url, "{\"messages\": " + std::string(100000, '[') + "}", auth);
        QCOMPARE(reply.status, 400);
        QCOMPARE(test::curl(base + "/health", {}).status, 200);
        QCOMPARE(open.stop(), 0);  // SIGTERM: a clean stop
    }

    void loadBenchmarkHasNoFailuresAndBoundedMemory() {
        QProcess p;
        p.start(ONCE_TEST_PYTHON, {QString::fromStdString(test::sourcePath("bench/bench_serve.py")),
                                   "--once",
                                   ONCE_CLI_PATH,
                                   "--model",
                                   QString::fromStdString(model_),
                                   "--video",
                                   QString::fromStdString(clip_),
                                   "--codebook",
                                   QString::fromStdString(codebook_),
                                   "--clients",
                                   "6",
                                   "--requests",
                                   "36",
                                   "--max-concurrent",
                                   "3",
                                   "--time-limit",
                                   "240",
                                   "--peer-requests",
                                   "2",
                                   "--json"});
        QVERIFY(p.waitForFinished(400000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitCode() == 0, qPrintable(err));
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        qInfo().noquote() << out.trimmed();
        const json j = json::parse(out.split('\n', Qt::SkipEmptyParts).last().toStdString());
        QCOMPARE(j["failed"].get<int>(), 0);
        QCOMPARE(j["ok"].get<int>() + j["rejected_429"].get<int>(), j["sent"].get<int>());
        QVERIFY(j["ok"].get<int>() >= 1);
        QCOMPARE(j["wrong_answers"].get<int>(), 0);
        // Memory bounded: what the load added to the warm server's resident set.
        QVERIFY2(j["rss_growth_mib"].get<double>() < 256, j.dump().c_str());
        QVERIFY(j["p95_s"].get<double>() >= j["p50_s"].get<double>());
    }

    void clientsKilledMidStreamAreCancelled() {
        const double before = metric(metrics(), "once_requests_cancelled_total");
        QProcess client;
        client.start(ONCE_TEST_PYTHON,
                     {QString::fromStdString(test::sourcePath("tests/reference/serve_client.py")),
                      "stream-then-wait", server_->url(), QString::fromStdString("file://" + clip_),
                      "Describe the video in great detail.", "4000"});
        QElapsedTimer t;
        t.start();
        QByteArray out;
        while (!out.contains("first chunk") && t.elapsed() < 120000 &&
               client.state() != QProcess::NotRunning) {
            client.waitForReadyRead(200);
            out += client.readAllStandardOutput();
        }
        QVERIFY2(out.contains("first chunk"), client.readAllStandardError().constData());
        ::kill(pid_t(client.processId()), SIGKILL);  // no goodbye: the socket just closes
        client.waitForFinished();
        // The server notices, stops generating and frees the request.
        double cancelled = before, inFlight = 1;
        for (int i = 0; i < 100 && (cancelled <= before || inFlight != 0); ++i) {
            QTest::qWait(100);
            const std::string m = metrics();
            cancelled = metric(m, "once_requests_cancelled_total");
            inFlight = metric(m, "once_requests_in_flight");
        }
        QCOMPARE(cancelled, before + 1);
        QCOMPARE(inFlight, 0.0);
        // And keeps serving: the next answer is the same as before, without waiting.
        const json got = chat({fileRequest({{"method", "once"}, {"budget", 12}})});
        QVERIFY2(!got[0].contains("error"), got[0].dump().c_str());
        QVERIFY(got[0]["once"]["timings"]["queue"].get<double>() < 1.0);
        const json want = ask({"--codebook", QString::fromStdString(codebook_), "--budget", "12"});
        QCOMPARE(got[0]["once"]["token_ids"], want["token_ids"]);
    }

    void cleanupTestCase() {
        if (server_) {
            QCOMPARE(server_->stop(), 0);
        }
    }
};

QTEST_GUILESS_MAIN(TestServeOpenAi)
#include "test_serve_openai.moc"
