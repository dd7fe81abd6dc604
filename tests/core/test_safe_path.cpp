// resolveInside (util/safe_path.h) is the one check that names read from files stay inside their
// folder: relative names inside resolve, absolute names, `..` escapes and symlinks pointing out
// are refused with an OnceError naming the file and the entry.
#include <QtTest>
#include <filesystem>
#include <fstream>

#include "support/test_support.h"
#include "util/error.h"
#include "util/safe_path.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

// Runs resolveInside and returns the error; QFAILs (via the empty result) when it was accepted.
std::string refusal(const std::string& folder, const std::string& name) {
    try {
        const std::string r = resolveInside(folder, name, "index.json", "weight_map.w");
        return "accepted: " + r;
    } catch (const OnceError& e) {
        if (e.where().file != "index.json" || e.where().field != "weight_map.w") {
            return std::string("error without file/field: ") + e.what();
        }
        return "refused";
    }
}

}  // namespace

class TestSafePath : public QObject {
    Q_OBJECT
  private slots:
    void namesInsideResolve() {
        const fs::path dir = fs::path(test::tempDir()) / "models";
        fs::create_directories(dir / "sub");
        std::ofstream(dir / "a.bin") << "x";
        const std::string canon = fs::canonical(dir).string();
        QCOMPARE(resolveInside(dir.string(), "a.bin", "f", "e"), canon + "/a.bin");
        QCOMPARE(resolveInside(dir.string(), "sub/../a.bin", "f", "e"), canon + "/a.bin");
        // A file still to be written (does not exist yet) resolves too.
        QCOMPARE(resolveInside(dir.string(), "sub/new.bin", "f", "e"), canon + "/sub/new.bin");
        // A relative folder works from the current directory.
        const fs::path old = fs::current_path();
        fs::current_path(dir.parent_path());
        QCOMPARE(resolveInside("models", "a.bin", "f", "e"), canon + "/a.bin");
        fs::current_path(old);
    }

    void escapesAreRefused() {
        const fs::path dir = fs::path(test::tempDir()) / "models";
        fs::create_directories(dir / "sub");
        const std::string d = dir.string();
        QCOMPARE(refusal(d, "../outside.bin"), std::string("refused"));
        QCOMPARE(refusal(d, "../../etc/passwd"), std::string("refused"));
        QCOMPARE(refusal(d, "sub/../../models2/x"), std::string("refused"));
        QCOMPARE(refusal(d, "/etc/passwd"), std::string("refused"));
        QCOMPARE(refusal(d, ""), std::string("refused"));
        QCOMPARE(refusal(d, "."), std::string("refused"));
        QCOMPARE(refusal(d, "sub/.."), std::string("refused"));
        QCOMPARE(refusal(d, std::string("a\0b", 3)), std::string("refused"));
        // A sibling whose name starts with the folder's name is outside.
        fs::create_directories(dir.string() + "x");
        QCOMPARE(refusal(d, "../modelsx/a.bin"), std::string("refused"));
    }

    void symlinksOutAreRefused() {
        const fs::path root = test::tempDir();
        const fs::path dir = root / "models";
        fs::create_directories(dir);
        fs::create_directories(root / "elsewhere");
        std::ofstream(root / "elsewhere" / "secret") << "s";
        fs::create_directory_symlink(root / "elsewhere", dir / "link");
        fs::create_symlink(root / "elsewhere" / "secret", dir / "secret.bin");
        QCOMPARE(refusal(dir.string(), "link/secret"), std::string("refused"));
        QCOMPARE(refusal(dir.string(), "secret.bin"), std::string("refused"));
        // A symlink that stays inside is fine.
        std::ofstream(dir / "real.bin") << "r";
        fs::create_symlink(dir / "real.bin", dir / "alias.bin");
        QCOMPARE(resolveInside(dir.string(), "alias.bin", "f", "e"),
                 fs::canonical(dir / "real.bin").string());
    }

    void errorNamesFileAndEntry() {
        try {
            resolveInside("/tmp", "../etc/passwd", "ann.json", "[3].video");
            QFAIL("an escape was accepted");
        } catch (const OnceError& e) {
            QCOMPARE(e.where().file, std::string("ann.json"));
            QCOMPARE(e.where().field, std::string("[3].video"));
            QVERIFY2(std::string(e.what()).find("../etc/passwd") != std::string::npos, e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestSafePath)
#include "test_safe_path.moc"
