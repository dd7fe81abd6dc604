// The request side of `once serve` without a model: the chat-request parser (fields, types,
// limits, nesting), video URLs (base64 against Qt's decoder, file:// only under the media root,
// `..` and symlinks out refused), the access rules (loopback, constant-time key compare, key
// files) and the Prometheus text.
#include <QByteArray>
#include <QtTest>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "serve/access.h"
#include "serve/api_error.h"
#include "serve/chat_request.h"
#include "serve/media_url.h"
#include "serve/metrics.h"
#include "support/test_support.h"

using namespace once;
using namespace once::serve;
using json = nlohmann::json;

namespace {

json videoPart(const std::string& url) {
    return {{"type", "video_url"}, {"video_url", {{"url", url}}}};
}

json request(json extra = json::object()) {
    json j = {
        {"model", "m"},
        {"messages",
         {{{"role", "user"},
           {"content", {videoPart("file:///media/a.mp4"), {{"type", "text"}, {"text", "Q?"}}}}}}}};
    for (auto& [k, v] : extra.items()) {
        j[k] = v;
    }
    return j;
}

// The error a body raises: status, field and message.
ApiError errorOf(const std::string& body, const RequestLimits& limits = {}) {
    try {
        parseChatRequest(body, limits);
    } catch (const ApiError& e) {
        return e;
    } catch (const OnceError& e) {
        return ApiError(400, "invalid_request_error", e.brief(), e.where());
    }
    qFatal("expected an error for %s", body.substr(0, 200).c_str());
}

}  // namespace

class TestChatRequest : public QObject {
    Q_OBJECT

  private slots:
    void parsesTheOpenAiShape() {
        json j = request({{"stream", true},
                          {"stream_options", {{"include_usage", true}}},
                          {"max_tokens", 7},
                          {"temperature", 0.5},
                          {"top_p", 0.9},
                          {"seed", 3},
                          {"once",
                           {{"method", "dycoke"},
                            {"budget", 64},
                            {"params", {{"tau", 0.9}, {"mode", "x"}, {"on", true}}},
                            {"return_groups", true},
                            {"sampling", "uniform:8"}}}});
        j["messages"].insert(j["messages"].begin(),
                             json{{"role", "system"}, {"content", "Be brief."}});
        const ChatRequest r = parseChatRequest(j.dump(), {});
        QCOMPARE(r.model, std::string("m"));
        QCOMPARE(r.system, std::string("Be brief."));
        QCOMPARE(r.question, std::string("Q?"));
        QCOMPARE(r.video.filePath, std::string("/media/a.mp4"));
        QVERIFY(r.stream && r.includeUsage);
        QCOMPARE(*r.maxTokens, std::int64_t(7));
        QCOMPARE(r.temperature, 0.5);
        QCOMPARE(r.topP, 0.9);
        QCOMPARE(r.seed, std::uint64_t(3));
        QCOMPARE(r.once.method, std::string("dycoke"));
        QCOMPARE(*r.once.budget, std::int64_t(64));
        QCOMPARE(r.once.params.at("tau"), std::string("0.9"));
        QCOMPARE(r.once.params.at("mode"), std::string("x"));
        QCOMPARE(r.once.params.at("on"), std::string("true"));
        QVERIFY(r.once.returnGroups);
        QCOMPARE(r.once.sampling, std::string("uniform:8"));

        // Defaults: greedy, no budget (the server's), text content as a plain string.
        json plain = request();
        plain["messages"][0]["content"] = json::array({videoPart("file:///a.mp4")});
        plain["messages"].push_back({{"role", "system"}, {"content", "late"}});
        QCOMPARE(errorOf(plain.dump()).where().field, std::string("messages[1].role"));
        plain["messages"].erase(1);
        plain["messages"][0]["content"].push_back({{"type", "text"}, {"text", "a"}});
        plain["messages"][0]["content"].push_back({{"type", "text"}, {"text", "b"}});
        const ChatRequest d = parseChatRequest(plain.dump(), {});
        QCOMPARE(d.question, std::string("a\nb"));
        QCOMPARE(d.temperature, 0.0);
        QVERIFY(!d.once.budget && !d.once.dense && !d.stream && !d.maxTokens);
        json dense = request({{"once", {{"budget", nullptr}}}});
        QVERIFY(parseChatRequest(dense.dump(), {}).once.dense);
    }

    void namesTheFieldOfEachError() {
        struct Case {
            json body;
            std::string field;
            int status;
        };
        json noVideo = request();
        noVideo["messages"][0]["content"] = "just text";
        json twoVideos = request();
        twoVideos["messages"][0]["content"].push_back(videoPart("file:///b.mp4"));
        json assistant = request();
        assistant["messages"].push_back({{"role", "assistant"}, {"content", "x"}});
        json badPart = request();
        badPart["messages"][0]["content"][1] = {{"type", "image_url"}, {"image_url", "x"}};
        json http = request();
        http["messages"][0]["content"][0] = videoPart("https://example.com/a.mp4");
        const std::vector<Case> cases = {
            {request({{"max_tokens", "7"}}), "max_tokens", 400},
            {request({{"max_tokens", 0}}), "max_tokens", 400},
            {request({{"max_tokens", 1e9}}), "max_tokens", 400},
            {request({{"temperature", -1}}), "temperature", 400},
            {request({{"top_p", 0}}), "top_p", 400},
            {request({{"n", 2}}), "n", 400},
            {request({{"stream", "yes"}}), "stream", 400},
            {request({{"tools", json::array()}}), "tools", 400},
            {request({{"once", {{"budget", 0}}}}), "once.budget", 400},
            {request({{"once", {{"budget", -3}}}}), "once.budget", 400},
            {request({{"once", {{"budget", 8}, {"dense", true}}}}), "once.dense", 400},
            {request({{"once", {{"bugdet", 8}}}}), "once.bugdet", 400},
            {request({{"once", {{"params", {{"k", json::array()}}}}}}), "once.params.k", 400},
            {request({{"once", {{"sampling", "every:0"}}}}), "once.sampling", 400},
            {request({{"once", "once"}}), "once", 400},
            {request({{"messages", json::array()}}), "messages", 400},
            {noVideo, "messages", 400},
            {twoVideos, "messages[0].content[2]", 400},
            {assistant, "messages[1].role", 400},
            {badPart, "messages[0].content[1].type", 400},
            {http, "messages[0].content[0].video_url.url", 400},
        };
        for (const Case& c : cases) {
            const ApiError e = errorOf(c.body.dump());
            QVERIFY2(e.where().field == c.field && e.status() == c.status,
                     qPrintable(QString::fromStdString(c.body.dump() + " -> " + e.what())));
        }
        // Not JSON, not an object, truncated: 400 with the position.
        for (const std::string body : {"{", "[1,2]", "{\"messages\": [}", ""}) {
            const ApiError e = errorOf(body);
            QCOMPARE(e.status(), 400);
        }
        QVERIFY(std::string(errorOf("{\"a\": ]").what()).find("line 1") != std::string::npos);
    }

    void limitsAreEnforcedBeforeParsing() {
        RequestLimits small;
        small.maxBodyBytes = 100;
        const std::string big = request({{"user", std::string(200, 'x')}}).dump();
        QCOMPARE(errorOf(big, small).status(), 413);
        // 100,000 nested arrays: refused by depth, not by the stack.
        const std::string deep = "{\"messages\": " + std::string(100000, '[') + "}";
        const ApiError e = errorOf(deep);
        QCOMPARE(e.status(), 400);
        QVERIFY2(std::string(e.what()).find("deep") != std::string::npos ||
                     std::string(e.what()).find("nest") != std::string::npos,
                 e.what());
        RequestLimits text;
        text.maxTextBytes = 10;
        json longQuestion = request();
        longQuestion["messages"][0]["content"][1]["text"] = std::string(11, 'q');
        QCOMPARE(errorOf(longQuestion.dump(), text).status(), 413);
    }

    // POST /v1/once/compress: the video and the `once` member of a chat request, no messages.
    void parsesACompressOnlyRequest() {
        const json j = {{"model", "m"},
                        {"video_url", {{"url", "file:///media/a.mp4"}}},
                        {"seed", 5},
                        {"once", {{"method", "tome"}, {"budget", 30}, {"sampling", "uniform:4"}}}};
        const CompressRequest r = parseCompressRequest(j.dump(), {});
        QCOMPARE(r.model, std::string("m"));
        QCOMPARE(r.video.filePath, std::string("/media/a.mp4"));
        QCOMPARE(r.seed, std::uint64_t(5));
        QCOMPARE(r.once.method, std::string("tome"));
        QCOMPARE(*r.once.budget, std::int64_t(30));
        QCOMPARE(r.once.sampling, std::string("uniform:4"));
        auto errorOfCompress = [](const json& body, const RequestLimits& limits = {}) {
            try {
                parseCompressRequest(body.dump(), limits);
            } catch (const ApiError& e) {
                return e;
            } catch (const OnceError& e) {
                return ApiError(400, "invalid_request_error", e.brief(), e.where());
            }
            qFatal("expected an error for %s", body.dump().c_str());
        };
        auto with = [&](const char* key, json value) {
            json b = j;
            b[key] = std::move(value);
            return b;
        };
        json noVideo = j;
        noVideo.erase("video_url");
        const std::vector<std::pair<json, std::string>> cases = {
            {noVideo, "video_url"},
            {with("video_url", {{"url", "https://example.com/a.mp4"}}), "video_url.url"},
            {with("video_url", {{"url", "file:///a.mp4"}, {"detail", "x"}}), "video_url.detail"},
            {with("messages", json::array()), "messages"},  // not a chat request
            {with("once", {{"dense", true}}), "once.dense"},
            {with("once", {{"budget", nullptr}}), "once.dense"},
            {with("once", {{"budget", 0}}), "once.budget"},
            {with("seed", -1), "seed"},
        };
        for (const auto& [body, field] : cases) {
            const ApiError e = errorOfCompress(body);
            QVERIFY2(e.where().field == field && e.status() == 400,
                     qPrintable(QString::fromStdString(body.dump() + " -> " + e.what())));
        }
        RequestLimits small;
        small.maxBodyBytes = 50;
        QCOMPARE(errorOfCompress(j, small).status(), 413);
        small = {};
        small.maxVideoBytes = 3;
        QCOMPARE(
            errorOfCompress(with("video_url", {{"url", "data:video/mp4;base64,AAAAAAAA"}}), small)
                .status(),
            413);
    }

    void dataUrlsDecodeLikeQt() {
        for (int n : {1, 2, 3, 4, 5, 255, 1000}) {
            QByteArray bytes;
            for (int i = 0; i < n; ++i) {
                bytes.append(char((i * 37 + n) & 0xff));
            }
            const std::string b64 = bytes.toBase64().toStdString();
            const VideoSource v = parseMediaUrl("data:video/mp4;base64," + b64, "u", 1 << 20);
            QCOMPARE(QByteArray::fromStdString(v.bytes), bytes);
            QCOMPARE(v.extension, std::string(".mp4"));
            QVERIFY(v.isData());
        }
        auto status = [](const std::string& url, std::size_t max = 1 << 20) {
            try {
                parseMediaUrl(url, "u", max);
            } catch (const ApiError& e) {
                return e.status();
            }
            return 0;
        };
        QCOMPARE(status("data:video/mp4;base64,AAAA", 2), 413);  // 3 bytes > 2, before decoding
        QCOMPARE(status("data:video/mp4;base64,AAA"), 400);      // not padded
        QCOMPARE(status("data:video/mp4;base64,AA*A"), 400);
        QCOMPARE(status("data:video/mp4;base64,A=AA"), 400);  // '=' inside
        QCOMPARE(status("data:image/png;base64,AAAA"), 400);
        QCOMPARE(status("data:video/mp4,AAAA"), 400);
        QCOMPARE(status("data:video/mp4;base64,"), 400);
        QCOMPARE(status("file://host/a.mp4"), 400);
        QCOMPARE(status("file://a.mp4"), 400);
        QCOMPARE(status("file:///a%2"), 400);
        QCOMPARE(status("file:///a%00b"), 400);
        QCOMPARE(status("ftp://x/a.mp4"), 400);
        QCOMPARE(parseMediaUrl("file://localhost/a%20b.mp4", "u", 1).filePath,
                 std::string("/a b.mp4"));
    }

    void fileUrlsStayInsideTheMediaRoot() {
        namespace fs = std::filesystem;
        const std::string root = test::tempDir() + "/media";
        const std::string outside = test::tempDir() + "/secret.mp4";
        fs::create_directories(root + "/sub");
        test::writeText(root + "/sub/a.mp4", "1234");
        test::writeText(outside, "secret");
        fs::create_symlink(outside, root + "/link.mp4");
        auto status = [&](const std::string& path, const std::string& r, std::size_t max = 100) {
            try {
                resolveMediaFile(r, path, "url", max);
            } catch (const ApiError& e) {
                return e.status();
            } catch (const OnceError&) {
                return 400;  // resolveInside's own refusal
            }
            return 200;
        };
        QCOMPARE(status(root + "/sub/a.mp4", root), 200);
        QCOMPARE(status(root + "/sub/../sub/a.mp4", root), 200);
        QCOMPARE(status(root + "/../secret.mp4", root), 400);
        QCOMPARE(status(outside, root), 400);
        QCOMPARE(status(root + "/link.mp4", root), 400);  // a symlink out of the root
        QCOMPARE(status(root, root), 400);
        QCOMPARE(status(root + "/missing.mp4", root), 404);
        QCOMPARE(status(root + "/sub/a.mp4", root, 3), 413);
        QCOMPARE(status(root + "/sub/a.mp4", ""), 400);  // no media root: no files at all
    }

    void accessRules() {
        for (const char* h : {"127.0.0.1", "127.1.2.3", "::1", "localhost"}) {
            QVERIFY2(isLoopbackHost(h), h);
        }
        for (const char* h : {"0.0.0.0", "::", "10.0.0.1", "192.168.1.2", "example.com", ""}) {
            QVERIFY2(!isLoopbackHost(h), h);
        }
        QVERIFY(sameSecret("0123456789abcdef", "0123456789abcdef"));
        QVERIFY(!sameSecret("0123456789abcdeg", "0123456789abcdef"));
        QVERIFY(!sameSecret("0123456789abcde", "0123456789abcdef"));
        QVERIFY(!sameSecret("", "0123456789abcdef"));
        QCOMPARE(bearerToken("Bearer abc"), std::string("abc"));
        QCOMPARE(bearerToken("Basic abc"), std::string());
        QCOMPARE(bearerToken("Bearer "), std::string());

        const std::string dir = test::tempDir();
        test::writeText(dir + "/key", "  s3cret-key-0123456789  \nignored\n");
        QCOMPARE(readApiKeyFile(dir + "/key"), std::string("s3cret-key-0123456789"));
        test::writeText(dir + "/short", "short\n");
        QVERIFY(std::string(test::errorOf([&] { readApiKeyFile(dir + "/short"); }).what())
                    .find("16 to 4096") != std::string::npos);
        test::writeText(dir + "/space", "has a space inside it\n");
        QVERIFY(std::string(test::errorOf([&] { readApiKeyFile(dir + "/space"); }).what())
                    .find("printable") != std::string::npos);
        test::errorOf([&] { readApiKeyFile(dir + "/missing"); });
    }

    void prometheusText() {
        ServeMetrics m;
        m.started();
        m.answered("/v1/chat/completions", 200);
        m.answered("/v1/chat/completions", 429);
        m.finished(0.3);
        m.cancelled();
        const std::string t = m.prometheusText();
        for (const char* line :
             {"once_http_requests_total{route=\"/v1/chat/completions\",code=\"429\"} 1",
              "once_requests_in_flight 0", "once_requests_cancelled_total 1",
              "once_request_duration_seconds_bucket{le=\"0.25\"} 0",
              "once_request_duration_seconds_bucket{le=\"0.5\"} 1",
              "once_request_duration_seconds_bucket{le=\"+Inf\"} 1",
              "once_request_duration_seconds_count 1", "# TYPE once_video_decodes_total counter"}) {
            QVERIFY2(t.find(line) != std::string::npos, line);
        }
    }
};

QTEST_GUILESS_MAIN(TestChatRequest)
#include "test_chat_request.moc"
