// Byte-level BPE tokenizer: identical ids and decoded text to the `tokenizers` package on a
// generated corpus (≥ 10,000 lines: English, Chinese, emoji, code, numbers, whitespace runs,
// other scripts, combining marks, special tokens), for both merge layouts; clear errors.
#include <ATen/ATen.h>

#include <QtTest>
#include <fstream>
#include <functional>
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

    void oddFilesLoadAsTokenizersLoadsThem() {
        // Files `tokenizers` accepts although they are odd (a repeated merge, added-token ids
        // that disagree with the ones it assigns, id gaps and a shared id) give its ids here.
        const std::string d = test::tempDir();
        auto r = test::runPython("tokenizer_oddities.py", {QString::fromStdString(d)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        int cases = 0;
        for (const auto& e : readJsonl(d + "/expected.jsonl")) {
            auto tok = BpeTokenizer::fromFile(d + "/" + e["file"].get<std::string>());
            const std::string text = e["text"].get<std::string>();
            QCOMPARE(tok.encode(text), e["ids"].get<std::vector<std::int64_t>>());
            for (const auto& [content, id] : e["added"].items()) {
                QCOMPARE(tok.requireTokenId(content), id.get<std::int64_t>());
            }
            ++cases;
        }
        QCOMPARE(cases, 6);
    }

    void hostileIdsAndShapesRefused() {
        // Every id is checked against kMaxTokenizerVocab before it indexes a table, every field
        // is type-checked, and deep nesting is refused before parsing; errors name the file and
        // the field, never nlohmann's own text.
        nlohmann::json base;
        base["model"] = {
            {"type", "BPE"}, {"vocab", {{"a", 0}, {"b", 1}, {"ab", 2}}}, {"merges", {"a b"}}};
        base["pre_tokenizer"] = {{"type", "ByteLevel"}};
        struct Case {
            const char* name;
            std::function<void(nlohmann::json&)> change;
            const char* field;
        };
        const std::vector<Case> cases = {
            {"negative id", [](auto& j) { j["model"]["vocab"]["c"] = -1; }, "model.vocab.c"},
            {"id at the limit", [](auto& j) { j["model"]["vocab"]["c"] = kMaxTokenizerVocab; },
             "model.vocab.c"},
            {"u32 id", [](auto& j) { j["model"]["vocab"]["c"] = 4000000000LL; }, "model.vocab.c"},
            {"float id", [](auto& j) { j["model"]["vocab"]["c"] = 3.0; }, "model.vocab.c"},
            {"string id", [](auto& j) { j["model"]["vocab"]["c"] = "3"; }, "model.vocab.c"},
            {"added negative",
             [](auto& j) {
                 j["added_tokens"] = {{{"id", -2}, {"content", "<x>"}}};
             },
             "added_tokens[0].id"},
            {"added content not a string",
             [](auto& j) {
                 j["added_tokens"] = {{{"id", 3}, {"content", 7}}};
             },
             "added_tokens[0].content"},
            {"added_tokens not a list", [](auto& j) { j["added_tokens"] = 5; }, "added_tokens"},
            {"merge of three", [](auto& j) { j["model"]["merges"] = {"a b c"}; },
             "model.merges[0]"},
            {"merge of numbers",
             [](auto& j) {
                 j["model"]["merges"] = {{1, 2}};
             },
             "model.merges[0]"},
            {"merge result unknown", [](auto& j) { j["model"]["merges"] = {"b a"}; },
             "model.merges[0]"},
            {"type not a string", [](auto& j) { j["model"]["type"] = 1; }, "model.type"},
            {"flag not a bool", [](auto& j) { j["model"]["ignore_merges"] = "yes"; },
             "model.ignore_merges"},
            {"sequence not a list",
             [](auto& j) {
                 j["pre_tokenizer"] = {{"type", "Sequence"}, {"pretokenizers", 3}};
             },
             "pre_tokenizer.pretokenizers"},
            {"model not an object",
             [](auto& j) {
                 j["model"] = {1, 2};
             },
             "(top level)"},
        };
        for (const auto& c : cases) {
            nlohmann::json j = base;
            c.change(j);
            const std::string path = writeText("hostile.json", j.dump());
            try {
                BpeTokenizer::fromFile(path);
                QFAIL(c.name);
            } catch (const OnceError& e) {
                QCOMPARE(e.where().file, path);
                if (std::string(c.field) != "(top level)") {
                    QVERIFY2(e.where().field == c.field,
                             qPrintable(QString("%1: %2").arg(c.name, e.what())));
                }
                QVERIFY2(std::string(e.what()).find("json.exception") == std::string::npos,
                         e.what());
            }
        }
        for (const std::string& text :
             {std::string(100000, '[') + std::string(100000, ']'), std::string("{\"model\": "),
              std::string("\xff\xfe"), std::string("[1e999]"), std::string()}) {
            const std::string path = writeText("hostile.json", text);
            try {
                BpeTokenizer::fromFile(path);
                QFAIL("malformed JSON was accepted");
            } catch (const OnceError& e) {
                QCOMPARE(e.where().file, path);
                QVERIFY2(std::string(e.what()).find("json.exception") == std::string::npos,
                         e.what());
            }
        }
        // Out-of-range ids given to decode are refused, not used as indices.
        nlohmann::json ok = base;
        auto tok = BpeTokenizer::fromFile(writeText("ok.json", ok.dump()));
        QVERIFY_THROWS_EXCEPTION(OnceError, tok.decode({-1}));
        QVERIFY_THROWS_EXCEPTION(OnceError, tok.decode({tok.size()}));
        QCOMPARE(tok.decode(tok.encode("ab")), std::string("ab"));
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
