// `auto` as the compute dtype (core/util/dtype_choice.h): BF16 on a GPU or a CPU that computes it
// natively, F32 elsewhere; explicit names validated and made canonical.
#include <QtTest>
#include <fstream>
#include <sstream>

#include "util/dtype_choice.h"
#include "util/error.h"

using namespace once;

namespace {

// The kernel's view of the CPU flags: an independent reading of what cpuid says.
bool cpuinfoHas(const std::string& flag) {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("flags", 0) == 0) {
            std::istringstream words(line);
            for (std::string w; words >> w;) {
                if (w == flag) {
                    return true;
                }
            }
            return false;
        }
    }
    return false;
}

}  // namespace

class TestDtypeChoice : public QObject {
    Q_OBJECT
  private slots:
    void explicitNamesAreCanonical() {
        QCOMPARE(resolveComputeDtype("bf16", "cpu"), std::string("bfloat16"));
        QCOMPARE(resolveComputeDtype("fp32", "cpu"), std::string("float32"));
        QCOMPARE(resolveComputeDtype("half", "cuda"), std::string("float16"));
        QCOMPARE(chooseComputeDtype("float32", "cpu").reason, std::string("requested"));
    }

    void unknownNameIsRefusedNamingTheField() {
        try {
            resolveComputeDtype("int8", "cpu", "--dtype");
            QFAIL("int8 accepted");
        } catch (const OnceError& e) {
            const QString m = QString::fromUtf8(e.what());
            QVERIFY2(m.contains("--dtype") && m.contains("int8") && m.contains("auto"),
                     qPrintable(m));
        }
    }

    void autoFollowsTheHardware() {
        QCOMPARE(resolveComputeDtype("auto", "cuda:0"), std::string("bfloat16"));
        const CpuBf16Support s = cpuBf16Support();
        // cpuid agrees with the kernel's flags (which also require the OS to save the state).
        QCOMPARE(s.avx512bf16, cpuinfoHas("avx512_bf16"));
        QCOMPARE(s.amxBf16, cpuinfoHas("amx_bf16"));
        const DtypeChoice c = chooseComputeDtype("auto", "cpu");
        QCOMPARE(c.resolved, std::string(s.native() ? "bfloat16" : "float32"));
        QVERIFY2(c.reason.rfind("auto: ", 0) == 0, c.reason.c_str());
        qInfo("auto on this CPU: %s (%s)", c.resolved.c_str(), c.reason.c_str());
    }
};

QTEST_GUILESS_MAIN(TestDtypeChoice)
#include "test_dtype_choice.moc"
