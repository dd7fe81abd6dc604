// userMessage: what a front end shows for any exception, one line, no library internals.
#include <ATen/ATen.h>

#include <QtTest>
#include <new>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "util/error.h"
#include "util/exception_text.h"

using namespace once;

class TestExceptionText : public QObject {
    Q_OBJECT

  private slots:
    void projectErrorsPassThrough() {
        OnceError e("bad thing", {"f.json", "field", "1", "2"});
        QCOMPARE(userMessage(e), std::string(e.what()));
    }

    void libTorchErrorsLoseTheBacktrace() {
        try {
            (void)at::matmul(at::ones({2, 3}), at::ones({4, 5}));
            QFAIL("no error");
        } catch (const std::exception& e) {
            const std::string raw = e.what(), shown = userMessage(e);
            qInfo("LibTorch: %zu lines raw, shown: %s",
                  std::size_t(std::count(raw.begin(), raw.end(), '\n')), shown.c_str());
            QVERIFY(shown.find('\n') == std::string::npos);
            QVERIFY(shown.rfind("computation failed: ", 0) == 0);
            QVERIFY(shown.find("cannot be multiplied") != std::string::npos);
        }
    }

    void standardLibraryErrorsAreMarkedAsBugs() {
        try {
            (void)std::stoll("x");
            QFAIL("no error");
        } catch (const std::exception& e) {
            QVERIFY(userMessage(e).rfind("internal error (invalid argument: stoll)", 0) == 0);
        }
        try {
            std::vector<double> v;
            v.resize(std::size_t(-1) / 4);
            QFAIL("no error");
        } catch (const std::length_error& e) {
            QVERIFY(userMessage(e).find("length error") != std::string::npos);
        } catch (const std::bad_alloc& e) {
            QVERIFY(userMessage(e).rfind("out of memory", 0) == 0);
        }
        QVERIFY(userMessage(std::bad_alloc()).rfind("out of memory", 0) == 0);
        const std::string multi = userMessage(std::runtime_error("first\nsecond\nthird"));
        QVERIFY(multi.find("first") != std::string::npos &&
                multi.find("second") == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestExceptionText)
#include "test_exception_text.moc"
