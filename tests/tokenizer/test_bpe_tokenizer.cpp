// Byte-level BPE tokenizer: identical ids and decoded text to the `tokenizers` package on a
// generated corpus (≥ 10,000 lines: English, Chinese, emoji, code, numbers, whitespace runs,
// other scripts, combining marks, special tokens), for both merge layouts; clear errors.
#include <ATen/ATen.h>

#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/test_support.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/regex_splitter.h"
#include "util/error.h"

using namespace once;

namespace {

std::vector<nlohmann::json> readJsonl(const std::string& path) {
    std::ifstream in(path);
    std::vector<nlohmann::json> out;
    std::string line;
    while (std::getline(in, line)) {
        out.push_back(nlohmann::json::parse(line));
    }
    return out;
}

std::string writeText(const std::string& name, const std::string& text) {
    std::string path = test::tempDir() + "/" + name;
    std::ofstream(path) << text;
    return path;
}

}  // namespace

class TestBpeTokenizer : public QObject {
    Q_OBJECT
    std::string dir_;

  private slots:
    void initTestCase() {
        dir_ = test::tempDir();
        auto r = test::runPython("tokenizer_reference.py",
                                 {QString::fromStdString(dir_), "12000", "3000"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    void corpusParity_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("merge pairs") << "tokenizer.json";
        QTest::newRow("merge strings") << "tokenizer_strmerges.json";
    }

    void corpusParity() {
        QFETCH(QString, file);
        auto tok = BpeTokenizer::fromFile(dir_ + "/" + file.toStdString());
        auto lines = readJsonl(dir_ + "/corpus.jsonl");
        auto expected = readJsonl(dir_ + "/expected.jsonl");
        QCOMPARE(lines.size(), expected.size());
        QVERIFY(lines.size() >= 10000);
        int idMismatch = 0, textMismatch = 0;
        std::size_t nonAscii = 0, specials = 0;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            std::string text = lines[i].get<std::string>();
            auto want = expected[i]["ids"].get<std::vector<std::int64_t>>();
            auto got = tok.encode(text);
            if (got != want && ++idMismatch <= 5) {
                qWarning("line %zu ids differ: %s", i, nlohmann::json(text).dump().c_str());
                qWarning("  want %s\n  got  %s", nlohmann::json(want).dump().c_str(),
                         nlohmann::json(got).dump().c_str());
            }
            if (tok.decode(want) != expected[i]["text"].get<std::string>()) {
                ++textMismatch;
            }
            nonAscii += std::any_of(text.begin(), text.end(), [](char c) { return c & 0x80; });
            specials += text.find("<|im_") != std::string::npos;
        }
        QCOMPARE(idMismatch, 0);
        QCOMPARE(textMismatch, 0);
        // The corpus really covers what it claims.
        QVERIFY(nonAscii > 3000);
        QVERIFY(specials > 100);
    }

    void specialTokensAndDecode() {
        auto tok = BpeTokenizer::fromFile(dir_ + "/tokenizer.json");
        auto ids = tok.encode("<|im_start|>user\nhi<|im_end|>");
        QCOMPARE(ids.front(), tok.requireTokenId("<|im_start|>"));
        QCOMPARE(ids.back(), tok.requireTokenId("<|im_end|>"));
        QCOMPARE(tok.decode(ids, true), std::string("user\nhi"));
        QVERIFY(!tok.tokenId("<|nope|>").has_value());
        QVERIFY_THROWS_EXCEPTION(OnceError, tok.requireTokenId("<|nope|>"));
        // A cut multi-byte character decodes to U+FFFD, the raw bytes keep it for streaming.
        std::vector<std::int64_t> emoji;
        std::string sample;
        for (std::string c : {"🤖", "𝄞", "𓀀", "🀄", "🜁"}) {
            if ((emoji = tok.encode(c)).size() > 1) {
                sample = c;
                break;
            }
        }
        QVERIFY(emoji.size() > 1);
        std::vector<std::int64_t> head(emoji.begin(), emoji.end() - 1);
        QVERIFY(tok.decode(head).find("\xEF\xBF\xBD") != std::string::npos);
        QCOMPARE(tok.decodeBytes(emoji), sample);
    }

    void whiteSpaceClassIsOniguruma() {
        // U+180E is not White_Space for Oniguruma, but PCRE2's \s would take it.
        RegexSplitter s("\\s+|\\S+", "test");
        auto pieces = s.split("a\u180Eb c");
        QCOMPARE(pieces.size(), std::size_t(3));
        QCOMPARE(std::string(pieces[0]), std::string("a\u180Eb"));
    }

    void errorsNameFileAndField() {
        try {
            BpeTokenizer::fromFile(dir_ + "/absent.json");
            QFAIL("no error");
        } catch (const OnceError& e) {
            QVERIFY(std::string(e.what()).find("absent.json") != std::string::npos);
        }
        nlohmann::json wpj;
        wpj["model"] = {{"type", "WordPiece"}, {"vocab", nlohmann::json::object()}};
        std::string wp = writeText("wp.json", wpj.dump());
        try {
            BpeTokenizer::fromFile(wp);
            QFAIL("no error");
        } catch (const OnceError& e) {
            QCOMPARE(e.where().field, std::string("model.type"));
            QCOMPARE(e.where().file, wp);
        }
        nlohmann::json rej;
        rej["model"] = {
            {"type", "BPE"}, {"vocab", {{"a", 0}}}, {"merges", nlohmann::json::array()}};
        rej["pre_tokenizer"] = {{"type", "Split"},
                                {"pattern", {{"Regex", "(unclosed"}}},
                                {"behavior", "Isolated"},
                                {"invert", false}};
        std::string badRegex = writeText("re.json", rej.dump());
        QVERIFY_THROWS_EXCEPTION(OnceError, BpeTokenizer::fromFile(badRegex));
        nlohmann::json mj;
        mj["model"] = {{"type", "BPE"}, {"vocab", {{"a", 0}, {"b", 1}}}, {"merges", {"a b"}}};
        mj["pre_tokenizer"] = {{"type", "ByteLevel"}};
        std::string badMerge = writeText("merge.json", mj.dump());
        try {
            BpeTokenizer::fromFile(badMerge);
            QFAIL("no error");
        } catch (const OnceError& e) {
            QCOMPARE(e.where().field, std::string("model.merges[0]"));
        }
        auto tok = BpeTokenizer::fromFile(dir_ + "/tokenizer.json");
        QVERIFY_THROWS_EXCEPTION(OnceError, tok.encode(std::string("bad \xC3\x28 utf8")));
    }
};

QTEST_GUILESS_MAIN(TestBpeTokenizer)
#include "test_bpe_tokenizer.moc"
