// jsonText (util/json_text.h): JSON for --json output that no file name can break. Valid UTF-8
// comes out as nlohmann's dump() writes it (same text, so readers see no change); each byte
// outside a valid UTF-8 sequence as \udcXX, which a decoder of the convention (Python's
// surrogateescape) turns back into the same bytes.
#include <QtTest>
#include <nlohmann/json.hpp>

#include "util/json_text.h"

using namespace once;

namespace {

// Reverses the escapes of a string literal's inside: \udcXX -> byte XX, the rest through
// nlohmann's parser.
std::string decodeString(const std::string& literal) {
    std::string out, rest;
    auto flush = [&] {
        out += nlohmann::json::parse("\"" + rest + "\"").get<std::string>();
        rest.clear();
    };
    for (std::size_t i = 0; i < literal.size(); ++i) {
        if (literal.compare(i, 4, "\\udc") == 0) {
            flush();
            out += char(std::stoi(literal.substr(i + 4, 2), nullptr, 16));
            i += 5;
            continue;
        }
        rest += literal[i];
    }
    flush();
    return out;
}

}  // namespace

class TestJsonText : public QObject {
    Q_OBJECT
  private slots:
    void validDocumentsAsDump() {
        const nlohmann::json j = {
            {"file", "videos/caf\xc3\xa9 \xf0\x9f\x8e\xac.mp4"},
            {"control", std::string("tab\there \"quoted\" back\\slash \x01\x1f\x7f")},
            {"numbers", {1, -2, 3.5, 1e300, 0.1}},
            {"nested",
             {{"empty_object", nlohmann::json::object()},
              {"empty_array", nlohmann::json::array()},
              {"null", nullptr},
              {"flags", {true, false}}}}};
        QCOMPARE(jsonText(j), j.dump());
        QCOMPARE(jsonText(j, 2), j.dump(2));
        QCOMPARE(jsonText(j, 4), j.dump(4));
    }

    void invalidBytesAreEscapedLosslessly() {
        for (const std::string& name :
             {std::string("caf\xe9.mp4"), std::string("\xff\xfe"), std::string("a\xc3"),
              std::string("\xed\xa0\x80 surrogate"), std::string("\xc0\xaf overlong"),
              std::string("\xf4\x90\x80\x80 above U+10FFFF"), std::string("ok \xe2\x82\xac")}) {
            const std::string text = jsonText(nlohmann::json{{"file", name}});
            QVERIFY2(text.rfind("{\"file\":\"", 0) == 0, text.c_str());
            const std::string literal = text.substr(9, text.size() - 11);  // {"file":"…"}
            QCOMPARE(decodeString(literal), name);
        }
        QCOMPARE(jsonText(nlohmann::json("\xff")), std::string("\"\\udcff\""));
    }
};

QTEST_GUILESS_MAIN(TestJsonText)
#include "test_json_text.moc"
