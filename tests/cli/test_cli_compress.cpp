// `once compress` and `once info` end to end: the JSON summary, the result file, and a clear
// error with exit code 1 and no output file for every kind of bad input.
#include <ATen/ATen.h>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <map>

#include "codebook/codebook.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "support/test_support.h"

using namespace once;

namespace {

std::string writeFeatures(const std::string& dir, const std::string& name, const at::Tensor& f) {
    SafetensorsWriter w;
    addTensor(w, "features", f);
    addTensor(w, "frame_times", at::arange(f.size(0), at::kDouble));
    w.setMetadata("format", "once-features/1");
    w.setMetadata("backbone", "demo");
    w.setMetadata("grid", "1x" + std::to_string(f.size(1)));
    const std::string path = dir + "/" + name;
    w.write(path);
    return path;
}

}  // namespace

class TestCliCompress : public QObject {
    Q_OBJECT
    std::string dir_, features_, codebook_;

  private slots:
    void initTestCase() {
        dir_ = test::tempDir();
        at::manual_seed(3);
        features_ = writeFeatures(dir_, "f.safetensors", at::randn({6, 20, 16}).to(at::kBFloat16));
        codebook_ = dir_ + "/cb.safetensors";
        Codebook::fromTensor(at::randn({48, 16}), "demo").save(codebook_);
    }

    void compressWritesResultAndJson() {
        const QString out = QString::fromStdString(dir_ + "/out.safetensors");
        auto r = test::runCli({"compress", "--features", QString::fromStdString(features_),
                               "--codebook", QString::fromStdString(codebook_), "--budget", "10",
                               "-o", out, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(j["N"].toInt(), 120);
        QVERIFY(j["M"].toInt() >= 1 && j["M"].toInt() <= 10);
        QCOMPARE(j["coverage"].toDouble(), 1.0);
        QVERIFY(j["seconds"].toObject().contains("assign"));
        auto f = SafetensorsFile::open(out.toStdString());
        QCOMPARE(loadTensor(f, "tokens").size(0), std::int64_t(j["M"].toInt()));
        QCOMPARE(loadTensor(f, "group_of_token").size(0), std::int64_t(120));
        QCOMPARE(f.meta("budget"), std::string("10"));

        auto info = test::runCli({"info", out, "--json"});
        QCOMPARE(info.exitCode, 0);
        QVERIFY(QJsonDocument::fromJson(info.out.toUtf8()).object()["valid"].toBool());
    }

    void bf16PrecisionRunsTheProductionOrder() {
        // --precision bfloat16 (the paper's cast, normalise, multiply in BF16) gives a complete
        // result; an unknown precision is a clear error naming the field, with no output file.
        const QString out = QString::fromStdString(dir_ + "/bf16.safetensors");
        auto r = test::runCli({"compress", "--features", QString::fromStdString(features_),
                               "--codebook", QString::fromStdString(codebook_), "--budget", "10",
                               "--precision", "bfloat16", "-o", out, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(j["N"].toInt(), 120);
        QCOMPARE(j["coverage"].toDouble(), 1.0);
        auto f = SafetensorsFile::open(out.toStdString());
        const at::Tensor sizes = loadTensor(f, "group_sizes");
        QCOMPARE(sizes.sum().item<std::int64_t>(), std::int64_t(120));

        const QString bad = QString::fromStdString(dir_ + "/bad_precision.safetensors");
        auto e = test::runCli({"compress", "--features", QString::fromStdString(features_),
                               "--codebook", QString::fromStdString(codebook_), "--budget", "10",
                               "--precision", "float8", "-o", bad});
        QCOMPARE(e.exitCode, 1);
        QVERIFY2(e.err.contains("precision") && e.err.contains("float8"), qPrintable(e.err));
        QVERIFY(!QFile::exists(bad));
    }

    void float32KernelsGiveTheSameResult() {
        // --float32-kernel sgemm and bf16-certified: identical groups and codewords; an unknown
        // kernel is refused naming the option, with no output file.
        std::map<QString, at::Tensor> groups, codewords;
        for (const QString kernel : {"sgemm", "bf16-certified"}) {
            const QString out = QString::fromStdString(dir_ + "/k-") + kernel;
            auto r = test::runCli({"compress", "--features", QString::fromStdString(features_),
                                   "--codebook", QString::fromStdString(codebook_), "--budget", "7",
                                   "--float32-kernel", kernel, "-o", out});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            auto f = SafetensorsFile::open(out.toStdString());
            groups[kernel] = loadTensor(f, "group_of_token").clone();
            codewords[kernel] = loadTensor(f, "codeword_ids").clone();
        }
        QVERIFY(at::equal(groups["sgemm"], groups["bf16-certified"]));
        QVERIFY(at::equal(codewords["sgemm"], codewords["bf16-certified"]));
        const QString bad = QString::fromStdString(dir_ + "/bad_kernel.safetensors");
        auto e = test::runCli({"compress", "--features", QString::fromStdString(features_),
                               "--codebook", QString::fromStdString(codebook_), "--budget", "7",
                               "--float32-kernel", "tf32", "-o", bad});
        QCOMPARE(e.exitCode, 1);
        QVERIFY2(e.err.contains("float32Kernel") && e.err.contains("tf32"), qPrintable(e.err));
        QVERIFY(!QFile::exists(bad));
    }

    void peerMethodsNeedNoCodebook() {
        for (const QString method : {"tome", "spatial-pool", "frame-drop"}) {
            const QString out = QString::fromStdString(dir_ + "/peer-" + method.toStdString());
            auto r = test::runCli({"compress", "--features", QString::fromStdString(features_),
                                   "--method", method, "--budget", "40", "-o", out, "--json"});
            QVERIFY2(r.exitCode == 0, qPrintable(method + ": " + r.err));
            QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
            QCOMPARE(j["method"].toString(), method);
            QVERIFY(j["M"].toInt() >= 1 && j["M"].toInt() <= 40);
            QVERIFY(!j.contains("variant"));
            auto f = SafetensorsFile::open(out.toStdString());
            QCOMPARE(f.meta("method"), method.toStdString());
            QCOMPARE(loadTensor(f, "tokens").size(0), std::int64_t(j["M"].toInt()));
        }
        // A parameter reaches the method; a wrong one is refused with its name.
        const QString out = QString::fromStdString(dir_ + "/tome-r.safetensors");
        auto ok =
            test::runCli({"compress", "--features", QString::fromStdString(features_), "--method",
                          "tome", "--param", "r=4", "--budget", "100", "-o", out, "--json"});
        QVERIFY2(ok.exitCode == 0, qPrintable(ok.err));
        auto bad = test::runCli({"compress", "--features", QString::fromStdString(features_),
                                 "--method", "tome", "--param", "bogus=1", "-o", out});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("bogus"), qPrintable(bad.err));
        auto unknown = test::runCli({"compress", "--features", QString::fromStdString(features_),
                                     "--method", "nope", "-o", out});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains("tome"), qPrintable(unknown.err));  // lists known methods
        auto noCodebook =
            test::runCli({"compress", "--features", QString::fromStdString(features_), "-o", out});
        QCOMPARE(noCodebook.exitCode, 2);
    }

    // Bad option values (a budget of 0, ...) are usage errors: tests/security/
    // test_hostile_options.cpp.
    void badInputsFailCleanly_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("needle");
        QTest::newRow("malformed features") << "malformed"
                                            << "header";
        QTest::newRow("dimension mismatch") << "dim"
                                            << "dimension";
        QTest::newRow("NaN codebook") << "nan"
                                      << "NaN";
        QTest::newRow("Inf codebook") << "inf"
                                      << "Inf";
        QTest::newRow("features not 3-D") << "rank"
                                          << "features";
        QTest::newRow("missing file") << "missing"
                                      << "nothing.safetensors";
        QTest::newRow("backbone mismatch") << "backbone"
                                           << "backbone";
    }
    void badInputsFailCleanly() {
        QFETCH(QString, what);
        QFETCH(QString, needle);
        std::string features = features_, codebook = codebook_, budget = "8";
        if (what == "malformed") {
            features = dir_ + "/bad.safetensors";
            std::ofstream(features) << "\x10\0\0\0\0\0\0\0{not json at all";
        } else if (what == "dim") {
            features = writeFeatures(dir_, "d.safetensors", at::randn({2, 5, 12}));
        } else if (what == "nan" || what == "inf") {
            at::Tensor c = at::randn({8, 16});
            c[5][0] = what == "nan" ? NAN : -INFINITY;
            codebook = dir_ + "/" + what.toStdString() + ".npy";
            // .npy written by hand: a tiny v1 header for float32 [8, 16]
            std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (8, 16), }";
            header.resize(118, ' ');
            header += '\n';
            std::ofstream o(codebook, std::ios::binary);
            o.write("\x93NUMPY\x01\x00", 8);
            const char len[2] = {char(header.size() & 0xff), char(header.size() >> 8)};
            o.write(len, 2);
            o << header;
            o.write(static_cast<const char*>(c.data_ptr()), std::streamsize(c.nbytes()));
        } else if (what == "rank") {
            SafetensorsWriter w;
            addTensor(w, "features", at::randn({20, 16}));
            addTensor(w, "frame_times", at::zeros({20}, at::kDouble));
            features = dir_ + "/rank.safetensors";
            w.write(features);
        } else if (what == "missing") {
            features = dir_ + "/nothing.safetensors";
        } else if (what == "backbone") {
            codebook = dir_ + "/other.safetensors";
            Codebook::fromTensor(at::randn({8, 16}), "llava-onevision").save(codebook);
        }
        const std::string out = dir_ + "/never.safetensors";
        auto r = test::runCli({"compress", "--features", QString::fromStdString(features),
                               "--codebook", QString::fromStdString(codebook), "--budget",
                               QString::fromStdString(budget), "-o", QString::fromStdString(out)});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(needle, Qt::CaseInsensitive), qPrintable(r.err));
        QVERIFY(!std::filesystem::exists(out));
        // No temporary file left behind either.
        for (const auto& e : std::filesystem::directory_iterator(dir_)) {
            QVERIFY2(e.path().string().find(".tmp-") == std::string::npos, e.path().c_str());
        }
    }

    void usageErrorsExitTwo() {
        QCOMPARE(test::runCli({"compress", "--budget", "x"}).exitCode, 2);
        QCOMPARE(test::runCli({"nosuchcommand"}).exitCode, 2);
        QCOMPARE(test::runCli({"compress", "--help"}).exitCode, 0);
        // A command group alone lists its subcommands (an error without --help).
        auto group = test::runCli({"analyze"});
        QCOMPARE(group.exitCode, 2);
        QVERIFY2(group.err.contains("analyze stress") && group.err.contains("analyze break-even"),
                 qPrintable(group.err));
        auto groupHelp = test::runCli({"train", "--help"});
        QCOMPARE(groupHelp.exitCode, 0);
        QVERIFY2(groupHelp.out.contains("train sketch") && groupHelp.out.contains("train fit"),
                 qPrintable(groupHelp.out));
        // `once help`: every summary starts in the same column, two-word names included.
        auto help = test::runCli({"help"});
        QCOMPARE(help.exitCode, 0);
        int column = -1;
        for (const QString& line : help.out.split('\n')) {
            const auto m =
                QRegularExpression(QStringLiteral("^  (\\S+(?: \\S+)?)\\s{2,}\\S")).match(line);
            if (!line.startsWith(QStringLiteral("  ")) || !m.hasMatch()) {
                continue;
            }
            const int at = static_cast<int>(m.capturedEnd(0)) - 1;
            QVERIFY2(column < 0 || at == column, qPrintable(line));
            column = at;
        }
        QVERIFY(column > 0);
    }
};

QTEST_GUILESS_MAIN(TestCliCompress)
#include "test_cli_compress.moc"
