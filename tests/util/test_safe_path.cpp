// resolveInside (util/safe_path.h) is the one check that names read from files stay inside their
// folder: relative names resolve, absolute names and any `..` are refused with an OnceError
// naming the file and the entry. The check is lexical: symlinks the user's file system holds
// (the Hugging Face hub cache's snapshots/REV/FILE -> ../../blobs/SHA) are followed.
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
        const std::string d = dir.string();
        QCOMPARE(resolveInside(d, "a.bin", "f", "e"), d + "/a.bin");
        QCOMPARE(resolveInside(d, "./a.bin", "f", "e"), d + "/a.bin");
        QCOMPARE(resolveInside(d + "/", "a.bin", "f", "e"), d + "/a.bin");
        // A file still to be written (does not exist yet) resolves too.
        QCOMPARE(resolveInside(d, "sub/new.bin", "f", "e"), d + "/sub/new.bin");
        // A relative folder stays relative (to the current directory, as the user gave it).
        QCOMPARE(resolveInside("models", "a.bin", "f", "e"), std::string("models/a.bin"));
        QCOMPARE(resolveInside("", "a.bin", "f", "e"), std::string("a.bin"));
    }

    void escapesAreRefused() {
        const fs::path dir = fs::path(test::tempDir()) / "models";
        fs::create_directories(dir / "sub");
        const std::string d = dir.string();
        QCOMPARE(refusal(d, "../outside.bin"), std::string("refused"));
        QCOMPARE(refusal(d, "../../etc/passwd"), std::string("refused"));
        QCOMPARE(refusal(d, "sub/../../models2/x"), std::string("refused"));
        // A ".." that would come back is refused too: the rule is on the name alone.
        QCOMPARE(refusal(d, "sub/../a.bin"), std::string("refused"));
        QCOMPARE(refusal(d, "/etc/passwd"), std::string("refused"));
        QCOMPARE(refusal(d, ""), std::string("refused"));
        QCOMPARE(refusal(d, "."), std::string("refused"));
        QCOMPARE(refusal(d, "./"), std::string("refused"));
        QCOMPARE(refusal(d, "sub/.."), std::string("refused"));
        QCOMPARE(refusal(d, std::string("a\0b", 3)), std::string("refused"));
        fs::create_directories(dir.string() + "x");
        QCOMPARE(refusal(d, "../modelsx/a.bin"), std::string("refused"));
    }

    void symlinksOfTheUsersFileSystemAreFollowed() {
        // The hub cache's layout: snapshots/REV/FILE is a relative symlink to ../../blobs/SHA,
        // outside the snapshot folder the index lives in.
        const fs::path root = fs::path(test::tempDir()) / "models--org--name";
        const fs::path snap = root / "snapshots" / "0123";
        fs::create_directories(snap);
        fs::create_directories(root / "blobs");
        std::ofstream(root / "blobs" / "5e1f") << "w";
        fs::create_symlink("../../blobs/5e1f", snap / "model-00001-of-00002.safetensors");
        const std::string r =
            resolveInside(snap.string(), "model-00001-of-00002.safetensors", "f", "e");
        QCOMPARE(r, (snap / "model-00001-of-00002.safetensors").string());
        QCOMPARE(fs::canonical(r), fs::canonical(root / "blobs" / "5e1f"));
        // A folder the user linked elsewhere.
        fs::create_directories(root / "elsewhere");
        fs::create_directory_symlink(root / "elsewhere", snap / "link");
        QCOMPARE(resolveInside(snap.string(), "link/x.bin", "f", "e"),
                 (snap / "link" / "x.bin").string());
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
