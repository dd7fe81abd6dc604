// The studio's session file (session/session_file.h): a round trip keeps every field with
// paths below the file's folder stored relative; a file that is not a session is refused;
// every bad field (wrong type, unknown name, out of range, escaping path, unknown key) is a
// problem naming the file, the field, what was expected and what was found, and the rest is
// kept; missing inputs are dropped with a problem each.
#include <QtTest>
#include <filesystem>
#include <fstream>

#include "session/session_file.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

SessionVocabulary vocabulary() {
    SessionVocabulary v;
    v.methods = {"once", "tome"};
    v.variants = {"full", "no-reassign"};
    v.backbones = {"demo", "llava-onevision"};
    v.dtypes = {"float32", "bfloat16"};
    v.checkSampling = [](const std::string& s) {
        if (s.rfind("uniform:", 0) != 0) {
            fail("bad sampling rule", "", "sampling", "uniform:N", s);
        }
    };
    return v;
}

const SessionProblem* problemFor(const ParsedSession& p, const std::string& field) {
    for (const auto& problem : p.problems) {
        if (problem.field == field) {
            return &problem;
        }
    }
    return nullptr;
}

std::string refusal(const std::string& text) {
    try {
        parseSessionFile(text, "/s/a.oncesession", vocabulary());
        return "accepted";
    } catch (const OnceError& e) {
        return e.what();
    }
}

}  // namespace

class TestSessionFile : public QObject {
    Q_OBJECT
  private slots:
    void roundTripKeepsEveryField() {
        const fs::path dir = fs::path(test::tempDir()) / "session";
        const std::string file = (dir / "work.oncesession").string();
        SessionFile s;
        s.video = (dir / "clips" / "a.mp4").string();
        s.codebook = "/elsewhere/cb.safetensors";
        s.modelFolder = (dir / "models" / "llava").string();
        s.method = "tome";
        s.budget = 96;
        s.variant = "no-reassign";
        s.backbone = "llava-onevision";
        s.sampling = "uniform:16";
        s.dtype = "bfloat16";
        s.frame = 5;
        s.question = "What does the bird do?";
        s.denseAnswer = "It climbs.\nThen it \"talks\".";
        s.compressedAnswer = std::string(kMaxSessionTextBytes, 'a');  // the longest kept
        const std::string text = serializeSessionFile(s, file);
        QVERIFY2(text.find("\"clips/a.mp4\"") != std::string::npos, text.c_str());
        QVERIFY2(text.find("\"models/llava\"") != std::string::npos, text.c_str());
        QVERIFY2(text.find("\"/elsewhere/cb.safetensors\"") != std::string::npos, text.c_str());
        const ParsedSession p = parseSessionFile(text, file, vocabulary());
        QVERIFY(p.problems.empty());
        QCOMPARE(p.session.video, s.video);
        QVERIFY(p.session.videoKind == SessionFile::VideoKind::Video);
        QCOMPARE(p.session.codebook, s.codebook);
        QCOMPARE(p.session.modelFolder, s.modelFolder);
        QCOMPARE(*p.session.method, *s.method);
        QCOMPARE(*p.session.budget, *s.budget);
        QCOMPARE(*p.session.variant, *s.variant);
        QCOMPARE(*p.session.backbone, *s.backbone);
        QCOMPARE(*p.session.sampling, *s.sampling);
        QCOMPARE(*p.session.dtype, *s.dtype);
        QCOMPARE(*p.session.frame, *s.frame);
        QCOMPARE(*p.session.question, *s.question);
        QCOMPARE(*p.session.denseAnswer, *s.denseAnswer);
        QCOMPARE(*p.session.compressedAnswer, *s.compressedAnswer);

        // One byte more is a problem on reading and refused on saving.
        auto longer = parseSessionFile(R"({"format": "once-session", "version": 1, "question": ")" +
                                           std::string(kMaxSessionTextBytes + 1, 'q') + R"("})",
                                       file);
        QVERIFY(!longer.session.question);
        QCOMPARE(longer.problems.size(), std::size_t(1));
        QCOMPARE(longer.problems[0].field, std::string("question"));
        SessionFile tooLong;
        tooLong.denseAnswer = std::string(kMaxSessionTextBytes + 1, 'a');
        QVERIFY_THROWS_EXCEPTION(OnceError, serializeSessionFile(tooLong, file));

        // Moved with its inputs, the relative paths follow the file.
        const ParsedSession moved = parseSessionFile(text, "/moved/work.oncesession");
        QCOMPARE(moved.session.video, std::string("/moved/clips/a.mp4"));
        QCOMPARE(moved.session.codebook, std::string("/elsewhere/cb.safetensors"));

        SessionFile features;
        features.video = (dir / "f.safetensors").string();
        features.videoKind = SessionFile::VideoKind::FeatureFile;
        const auto back = parseSessionFile(serializeSessionFile(features, file), file);
        QVERIFY(back.session.videoKind == SessionFile::VideoKind::FeatureFile);
        QVERIFY(!back.session.budget && !back.session.method && !back.session.frame);
    }

    void notASessionIsRefused() {
        for (const std::string text :
             {"", "[1]", "{\"format\": \"once-session\"}", "{\"version\": 1}",
              "{\"format\": \"other\", \"version\": 1}",
              "{\"format\": \"once-session\", \"version\": 2}",
              "{\"format\": \"once-session\", \"version\": \"1\"}",
              "{\"format\": \"once-session\", \"version\": 1, \"video\": [[[[[[1]]]]]]}",
              "{\"format\": \"once-session\", \"version\": 1"}) {
            const std::string r = refusal(text);
            QVERIFY2(r != "accepted", text.c_str());
            QVERIFY2(r.find("/s/a.oncesession") != std::string::npos, r.c_str());
        }
        const std::string big(kMaxSessionFileBytes + 1, ' ');
        QVERIFY(refusal(big).find("too large") != std::string::npos);
    }

    void badFieldsAreProblemsAndTheRestIsKept() {
        const std::string text = R"({"format": "once-session", "version": 1,
            "video": "../outside.mp4", "video_kind": "film", "codebook": 7,
            "model_folder": "", "method": "zip", "budget": 0, "variant": "half",
            "backbone": "clip", "sampling": "fps", "dtype": "int8", "frame": -1,
            "colour": "red"})";
        const ParsedSession p = parseSessionFile(text, "/s/a.oncesession", vocabulary());
        for (const char* field :
             {"video", "video_kind", "codebook", "model_folder", "method", "budget", "variant",
              "backbone", "sampling", "dtype", "frame", "colour"}) {
            const SessionProblem* problem = problemFor(p, field);
            QVERIFY2(problem != nullptr, field);
            QCOMPARE(problem->file, std::string("/s/a.oncesession"));
            QVERIFY2(!problem->expected.empty() && !problem->found.empty(), field);
            const std::string m = problem->message();
            QVERIFY2(m.find(field) != std::string::npos && m.find("/s/a.oncesession") == 0,
                     m.c_str());
        }
        QCOMPARE(p.problems.size(), std::size_t(12));
        QVERIFY(p.session.video.empty() && p.session.codebook.empty());
        QVERIFY(!p.session.method && !p.session.budget && !p.session.frame);
        QVERIFY(problemFor(p, "method")->expected.find("once, tome") != std::string::npos);
        QCOMPARE(problemFor(p, "budget")->found, std::string("an integer 0"));
        QCOMPARE(problemFor(p, "codebook")->found, std::string("an integer 7"));

        // One bad field leaves the good ones.
        const auto mixed = parseSessionFile(
            R"({"format": "once-session", "version": 1, "method": "once", "budget": 1e3,
                "frame": 3, "video": "/v.mp4", "budget2": null})",
            "/s/a.oncesession", vocabulary());
        QCOMPARE(mixed.problems.size(), std::size_t(2));  // budget a float, budget2 unknown
        QCOMPARE(*mixed.session.method, std::string("once"));
        QCOMPARE(*mixed.session.frame, std::int64_t(3));
        QCOMPARE(mixed.session.video, std::string("/v.mp4"));
        const auto huge = parseSessionFile(
            R"({"format": "once-session", "version": 1, "budget": 18446744073709551615})",
            "/s/a.oncesession");
        QCOMPARE(huge.problems.size(), std::size_t(1));
        QVERIFY(!huge.session.budget);
    }

    void missingInputsAreDropped() {
        const fs::path dir = fs::path(test::tempDir()) / "missing";
        fs::create_directories(dir / "model");
        std::ofstream(dir / "cb.safetensors") << "x";
        SessionFile s;
        s.video = (dir / "gone.mp4").string();
        s.codebook = (dir / "cb.safetensors").string();
        s.modelFolder = (dir / "cb.safetensors").string();  // a file, not a folder
        const std::string file = (dir / "a.oncesession").string();
        const auto problems = dropMissingSessionFiles(s, file);
        QCOMPARE(problems.size(), std::size_t(2));
        QCOMPARE(problems[0].field, std::string("video"));
        QVERIFY(problems[0].found.find("missing") != std::string::npos);
        QCOMPARE(problems[1].field, std::string("model_folder"));
        QVERIFY(s.video.empty() && s.modelFolder.empty());
        QCOMPARE(s.codebook, (dir / "cb.safetensors").string());
    }

    void unsavableValuesAreRefused() {
        SessionFile s;
        s.budget = 0;
        QVERIFY_THROWS_EXCEPTION(OnceError, serializeSessionFile(s, "/s/a.oncesession"));
        s.budget.reset();
        s.method = std::string("a\0b", 3);
        QVERIFY_THROWS_EXCEPTION(OnceError, serializeSessionFile(s, "/s/a.oncesession"));
    }
};

QTEST_APPLESS_MAIN(TestSessionFile)
#include "test_session_file.moc"
