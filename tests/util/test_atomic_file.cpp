// AtomicFile (util/atomic_file.h), the one writer of every output: the temporary file is new,
// random and never a link; what may stand at the output's name; nothing left behind.
#include <sys/stat.h>

#include <QtTest>
#include <filesystem>
#include <set>

#include "support/test_support.h"
#include "util/atomic_file.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

std::set<std::string> names(const std::string& dir) {
    std::set<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) {
        out.insert(e.path().filename().string());
    }
    return out;
}

}  // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT
  private slots:
    void writesWholeAndLeavesNothingBehind() {
        const std::string dir = test::tempDir();
        writeFileAtomically(dir + "/a.txt", "one");
        writeFileAtomically(dir + "/a.txt", "two");  // a regular file is replaced
        QCOMPARE(test::readText(dir + "/a.txt"), std::string("two"));
        {
            AtomicFile f(dir + "/b.txt");
            f.write("half", 4);
            QCOMPARE(names(dir).size(), std::size_t(2));  // a.txt and b.txt's temporary
        }                                                 // never committed: the temporary goes
        QCOMPARE(names(dir), (std::set<std::string>{"a.txt"}));
    }

    void temporaryNamesAreRandomAndExclusive() {
        const std::string dir = test::tempDir();
        std::set<std::string> seen;
        for (int i = 0; i < 20; ++i) {
            AtomicFile f(dir + "/x");
            const auto n = names(dir);
            QCOMPARE(n.size(), std::size_t(1));
            const std::string tmp = *n.begin();
            QCOMPARE(temporaryTarget(tmp), std::string("x"));
            QVERIFY(seen.insert(tmp).second);
        }
        QCOMPARE(temporaryTarget("x.tmp-12a"), std::string());
        QCOMPARE(temporaryTarget(".tmp-12"), std::string());
        QCOMPARE(temporaryTarget("x.tmp-"), std::string());
    }

    void whatMayStandAtTheOutput() {
        const std::string dir = test::tempDir(), elsewhere = test::tempDir() + "/victim";
        test::writeText(elsewhere, "victim");
        const std::string link = dir + "/link";
        fs::create_symlink(elsewhere, link);
        const OnceError e = test::errorOf([&] { writeFileAtomically(link, "new"); });
        QCOMPARE(e.where().file, link);
        QCOMPARE(e.where().found, std::string("a symbolic link"));
        QVERIFY(fs::is_symlink(link));
        // anyFile (--overwrite): the link is replaced, its target never written.
        writeFileAtomically(link, "new", OutputReplace::anyFile);
        QVERIFY(!fs::is_symlink(link));
        QCOMPARE(test::readText(link), std::string("new"));
        QCOMPARE(test::readText(elsewhere), std::string("victim"));
        // A FIFO: refused without opening it (an open would block).
        const std::string fifo = dir + "/fifo";
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        QCOMPARE(
            test::errorOf([&] { checkOutputPath(fifo, OutputReplace::regularFile); }).where().found,
            std::string("a FIFO"));
        // A folder: never, whatever the user says.
        fs::create_directories(dir + "/folder");
        test::errorOf([&] { writeFileAtomically(dir + "/folder", "x", OutputReplace::anyFile); });
        QVERIFY(fs::is_directory(dir + "/folder"));
        QCOMPARE(names(dir), (std::set<std::string>{"link", "fifo", "folder"}));
    }

    void commitKeepOpenAppendsToTheFileInPlace() {
        const std::string path = test::tempDir() + "/r.jsonl";
        AtomicFile f(path);
        f.write("a\n", 2);
        const int fd = f.commitKeepOpen();
        QVERIFY(fd >= 0);
        QCOMPARE(::write(fd, "b\n", 2), ssize_t(2));
        ::close(fd);
        QCOMPARE(test::readText(path), std::string("a\nb\n"));
    }

    void temporaryFoldersAreNew() {
        const std::string dir = test::tempDir();
        const std::string a = makeTemporaryFolder(dir + "/cache");
        const std::string b = makeTemporaryFolder(dir + "/cache");
        QVERIFY(a != b && fs::is_directory(a) && fs::is_directory(b));
        QVERIFY(fs::is_empty(a));
        QCOMPARE(temporaryTarget(fs::path(a).filename().string()), std::string("cache"));
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "test_atomic_file.moc"
