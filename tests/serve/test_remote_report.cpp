// The client's reading of a server's `once` member (serve/remote_report.h) on answers written by
// hand: a valid one fills the report (groups per token from the rows' members), and an answer
// whose groups would not index what it lists — a row out of order, a patch outside the frame,
// groups for another number of tokens — is refused naming the URL and the field (the studio's
// views index the codewords with a token's group). tests/fuzz/fuzz_remote_report.cpp fuzzes it.
#include <QtTest>

#include "serve/remote_report.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;
using json = nlohmann::json;

namespace {

const std::string kUrl = "http://gpu-box:8000/v1/once/compress";

json answer() {
    return json::parse(R"({
      "method": "once", "budget": 3, "dense": false,
      "visual_tokens": {"before": 8, "after": 4, "content": 3, "layout": 1},
      "video": {"sha256": "ab", "cached": true},
      "stages": [{"name": "decode", "seconds": 0.5, "cached": true}],
      "token_ids": [3, 1],
      "groups": {"frames": 2, "patches": 4, "rows": [
        {"row": 0, "codeword": 17, "members": [{"frame": 0, "patches": [0, 1, 2]}]},
        {"row": 1, "codeword": 2, "members": [{"frame": 0, "patches": [3]}, {"frame": 1, "patches": [0]}]},
        {"row": 2, "codeword": -1, "members": [{"frame": 1, "patches": [1, 2]}]}]}})");
}

OnceError refusal(const json& once) {
    return test::errorOf([&] {
        serve::RemoteAnswer a;
        serve::readRemoteReport(a, once, kUrl);
    });
}

}  // namespace

class TestRemoteReport : public QObject {
    Q_OBJECT

  private slots:
    void readsAValidAnswer() {
        serve::RemoteAnswer a;
        serve::readRemoteReport(a, answer(), kUrl);
        const AskReport& r = a.report;
        QCOMPARE(r.method, std::string("once"));
        QCOMPARE(r.budget, std::int64_t(3));
        QCOMPARE(r.tokenIds, (std::vector<std::int64_t>{3, 1}));
        QCOMPARE(r.codewordIds, (std::vector<std::int64_t>{17, 2, -1}));
        QCOMPARE(r.groupOfToken, (std::vector<std::int64_t>{0, 0, 0, 1, 1, 2, 2, -1}));
        QCOMPARE(a.videoSha256, std::string("ab"));
        QVERIFY(a.videoCached);
        QCOMPARE(r.stages.size(), std::size_t(1));
    }

    void refusesGroupsThatWouldNotIndexTheirRows() {
        json j = answer();
        j["groups"]["rows"][2]["row"] = 5;  // rows come in order: the third is row 2
        OnceError e = refusal(j);
        QCOMPARE(e.where().file, kUrl);
        QCOMPARE(e.where().field, std::string("once.groups.rows.row"));
        QCOMPARE(e.where().found, std::string("5"));

        j = answer();
        j["visual_tokens"]["content"] = 2;  // three rows for two content tokens
        QCOMPARE(refusal(j).where().field, std::string("once.groups.rows"));

        j = answer();
        j["groups"]["rows"][0]["members"][0]["patches"][1] = 4;  // a frame has patches 0..3
        e = refusal(j);
        QCOMPARE(e.where().field, std::string("once.groups.rows.members.patches"));
        QCOMPARE(e.where().found, std::string("4"));

        j = answer();
        j["groups"]["patches"] = 3;  // 2 × 3 groups for 8 source tokens
        QCOMPARE(refusal(j).where().field, std::string("once.groups"));

        j = answer();
        j["token_ids"] = json::array({1, "two"});
        QCOMPARE(refusal(j).where().field, std::string("once.token_ids"));
    }
};

QTEST_GUILESS_MAIN(TestRemoteReport)
#include "test_remote_report.moc"
