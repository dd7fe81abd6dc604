// Option values that parse but mean nothing (issue 26, item 9), through the real command line:
// a negative or zero count, a seed of -1, an infinite or NaN temperature, a number beyond what
// the command narrows it to. Each is a usage error when the options are parsed (exit 2, the
// option named, the command's help), before any input is read or any output created; valid
// values of the same options still work (so a parser that refused everything would fail).
// Every option of every command declares what it accepts (tests/cli/test_option_domains.cpp).
#include <QtTest>
#include <filesystem>

#include "support/limited_cli.h"
#include "support/test_support.h"

using namespace once;
namespace fs = std::filesystem;

class TestHostileOptions : public QObject {
    Q_OBJECT
    std::string out_;

  private slots:
    void initTestCase() { out_ = test::tempDir() + "/out.safetensors"; }

    void refusedAtParseTime_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("option");
        const QString out = QString::fromStdString(out_);
        const QStringList compress = {"compress", "--features", "none.safetensors", "--codebook",
                                      "none.safetensors", "-o", out};
        QTest::newRow("ask --max-new-tokens -1") << QStringList{"ask", "--max-new-tokens", "-1"}
                                                 << "--max-new-tokens";
        QTest::newRow("ask --max-new-tokens 0") << QStringList{"ask", "--max-new-tokens", "0"}
                                                << "--max-new-tokens";
        QTest::newRow("ask --temperature inf") << QStringList{"ask", "--temperature", "inf"}
                                               << "--temperature";
        QTest::newRow("ask --temperature nan") << QStringList{"ask", "--temperature", "nan"}
                                               << "--temperature";
        QTest::newRow("ask --top-p 0") << QStringList{"ask", "--top-p", "0"} << "--top-p";
        QTest::newRow("ask --budget 0") << QStringList{"ask", "--budget", "0"} << "--budget";
        QTest::newRow("generate --max-new-tokens 0")
            << QStringList{"generate", "--max-new-tokens", "0"} << "--max-new-tokens";
        QTest::newRow("generate --temperature -inf")
            << QStringList{"generate", "--temperature", "-inf"} << "--temperature";
        QTest::newRow("compress --seed -1") << compress + QStringList{"--seed", "-1"} << "--seed";
        QTest::newRow("compress --rounds 2^31")
            << compress + QStringList{"--rounds", "2147483648"} << "--rounds";
        QTest::newRow("compress --rounds 2^32+1 (wraps to 1)")
            << compress + QStringList{"--rounds", "4294967297"} << "--rounds";
        QTest::newRow("compress --top-l 0") << compress + QStringList{"--top-l", "0"}
                                            << "--top-l";
        QTest::newRow("compress --budget 0") << compress + QStringList{"--budget", "0"}
                                             << "--budget";
        QTest::newRow("compress --budget 1e3") << compress + QStringList{"--budget", "1e3"}
                                               << "--budget";
        QTest::newRow("analyze stress --random-codebooks -1")
            << QStringList{"analyze", "stress", "--random-codebooks", "-1"}
            << "--random-codebooks";
        QTest::newRow("analyze stress --bootstrap -5")
            << QStringList{"analyze", "stress", "--bootstrap", "-5"} << "--bootstrap";
        QTest::newRow("analyze support-origin --budgets 32,-1")
            << QStringList{"analyze", "support-origin", "--budgets", "32,-1"} << "--budgets";
        QTest::newRow("analyze break-even --offline-seconds nan")
            << QStringList{"analyze", "break-even", "--offline-seconds", "nan"}
            << "--offline-seconds";
        QTest::newRow("diagnose --random-codebooks -1")
            << QStringList{"diagnose", "--random-codebooks", "-1"} << "--random-codebooks";
        QTest::newRow("diagnose --random-seed -1")
            << QStringList{"diagnose", "--random-seed", "-1"} << "--random-seed";
        QTest::newRow("eval --budgets 0") << QStringList{"eval", "--budgets", "64,0"}
                                          << "--budgets";
        QTest::newRow("eval --limit 0") << QStringList{"eval", "--limit", "0"} << "--limit";
        QTest::newRow("eval --seed -1") << QStringList{"eval", "--seed", "-1"} << "--seed";
        QTest::newRow("eval --bootstrap 10^7")
            << QStringList{"eval", "--bootstrap", "10000000"} << "--bootstrap";
        QTest::newRow("eval report --bootstrap-seed -1")
            << QStringList{"eval", "report", "r.jsonl", "--bootstrap-seed", "-1"}
            << "--bootstrap-seed";
        QTest::newRow("encode --pool-stride 3")
            << QStringList{"encode", "v.mp4", "-o", out, "--pool-stride", "3"} << "--pool-stride";
        QTest::newRow("encode --max-decoded-gib nan")
            << QStringList{"encode", "v.mp4", "-o", out, "--max-decoded-gib", "nan"}
            << "--max-decoded-gib";
        QTest::newRow("train sketch --seed -1")
            << QStringList{"train", "sketch", "--seed", "-1"} << "--seed";
        QTest::newRow("train sketch --R nan") << QStringList{"train", "sketch", "--R", "nan"}
                                              << "--R";
        QTest::newRow("train fit --seed -1") << QStringList{"train", "fit", "--seed", "-1"}
                                             << "--seed";
        QTest::newRow("train fit --lr inf") << QStringList{"train", "fit", "--lr", "inf"}
                                            << "--lr";
        QTest::newRow("train fit --epochs 2^32+2")
            << QStringList{"train", "fit", "--epochs", "4294967298"} << "--epochs";
    }
    void refusedAtParseTime() {
        QFETCH(QStringList, args);
        QFETCH(QString, option);
        const test::LimitedRun r = test::runCliLimited(args);
        const QString what = args.join(' ') + ": " + r.text.left(1500);
        QVERIFY2(!r.crashed, qPrintable("crashed or hung: " + what));
        QCOMPARE(r.exitCode, 2);
        // "once CMD: option --NAME expects …", then the command's help.
        QVERIFY2(r.text.contains("option " + option + " expects"), qPrintable(what));
        QVERIFY2(r.text.contains("usage: once"), qPrintable(what));
        QVERIFY2(!fs::exists(out_), qPrintable("an output was created: " + what));
    }

    void validValuesOfTheSameOptionsPass() {
        // `analyze break-even` needs no input file: the values the table refuses nearby work.
        const auto r = test::runCliLimited({"analyze", "break-even", "--offline-seconds", "0",
                                            "--dense-latency", "2.5", "--method-latency", "1e-3"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.text));
        // The domain is shown in the help.
        const auto h = test::runCliLimited({"ask", "--help"});
        QCOMPARE(h.exitCode, 0);
        QVERIFY2(h.text.contains("an integer in [1, 1048576]"), qPrintable(h.text));
        QVERIFY2(h.text.contains("a finite number in [0, 100]"), qPrintable(h.text));
    }
};

QTEST_GUILESS_MAIN(TestHostileOptions)
#include "test_hostile_options.moc"
