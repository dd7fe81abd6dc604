// Hostile tensor files through the CLI: PyTorch .pt, NumPy .npy, GGUF, feature and codebook
// safetensors files that claim more than they hold, nest without end, overflow or hold NaN. Every
// one must end in exit code 1 (not a signal), with an error naming the file, no library text
// (json.exception, stoll, backtraces, bad_alloc), within seconds under a 3 GB address-space limit,
// and without an output file (test::expectRefused, support/limited_cli.h). Valid twins of each
// kind pass the same pipeline, so a harness that refused everything would fail.
#include <ATen/ATen.h>

#include <QFile>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <limits>

#include "codebook/codebook.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "support/limited_cli.h"
#include "support/safetensors_files.h"
#include "support/test_support.h"

using namespace once;

using test::expectRefused;
using Run = test::LimitedRun;

class TestHostileIo : public QObject {
    Q_OBJECT
    std::string dir_, features_, codebook_, out_;

    QStringList compressWith(const std::string& features, const std::string& codebook) const {
        return QStringList{"compress", "--budget", "8"}
               << "--features" << QString::fromStdString(features) << "--codebook"
               << QString::fromStdString(codebook) << "-o" << QString::fromStdString(out_);
    }
    std::string path(const std::string& name) const { return dir_ + "/" + name; }

  private slots:
    void initTestCase() {
        dir_ = test::tempDir();
        out_ = dir_ + "/out.safetensors";
        auto py = test::runPython("hostile_io_files.py", {QString::fromStdString(dir_)});
        QVERIFY2(py.exitCode == 0, qPrintable(py.err));
        at::manual_seed(1);
        features_ = test::writeSafetensors(
            path("features.safetensors"),
            {{"features", at::randn({3, 4, 3})}, {"frame_times", at::arange(3, at::kDouble)}},
            {{"format", "once-features/1"}, {"grid", "2x2"}});
        codebook_ = path("cb.safetensors");
        Codebook::fromTensor(at::randn({6, 3})).save(codebook_);
    }

    void validTwinsPass() {
        for (const char* cb : {"valid.pt", "valid_handmade.pt", "valid.npy", "cb.safetensors"}) {
            const Run r = test::runCliLimited(compressWith(features_, path(cb)));
            QVERIFY2(r.exitCode == 0 && !r.crashed, qPrintable(QString(cb) + ": " + r.text));
            QVERIFY(std::filesystem::exists(out_));
            std::filesystem::remove(out_);
        }
    }

    void pytorchFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("needle");
        QTest::newRow("tensor past its storage") << "short_storage.pt"
                                                 << "outside its storage";
        QTest::newRow("record shorter than claimed") << "short_record.pt"
                                                     << "shorter";
        QTest::newRow("100000 nested lists") << "deep_nested.pt"
                                             << "too deeply";
        QTest::newRow("nesting through the memo") << "memo_deep.pt"
                                                  << "too deeply";
        QTest::newRow("memo index 2^32-1") << "huge_memo.pt"
                                           << "memo index";
        QTest::newRow("dict containing itself") << "cycle.pt"
                                                << "contains itself";
    }
    void pytorchFiles() {
        QFETCH(QString, file);
        QFETCH(QString, needle);
        expectRefused(compressWith(features_, path(file.toStdString())), file.toStdString(), out_,
                      needle);
    }

    void numpyFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("needle");
        QTest::newRow("negative dimension") << "negative_dim.npy"
                                            << "negative dimension";
        QTest::newRow("1 MB header") << "long_header.npy"
                                     << "too long";
        QTest::newRow("shape product overflow") << "overflow.npy"
                                                << "overflows";
        QTest::newRow("10^12 elements, no data") << "huge.npy"
                                                 << "does not match";
    }
    void numpyFiles() {
        QFETCH(QString, file);
        QFETCH(QString, needle);
        expectRefused(compressWith(features_, path(file.toStdString())), file.toStdString(), out_,
                      needle);
    }

    void ggufFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("needle");
        QTest::newRow("array count 2^40") << "huge_count.gguf"
                                          << "past the end";
        QTest::newRow("17M-element array") << "over_limit.gguf"
                                           << "longer than the limit";
        QTest::newRow("string past the end") << "string_past_end.gguf"
                                             << "past the end";
    }
    void ggufFiles() {
        QFETCH(QString, file);
        QFETCH(QString, needle);
        expectRefused({"generate", "--model", QString::fromStdString(path(file.toStdString())),
                       "--prompt", "hi"},
                      file.toStdString(), {}, needle);
    }

    void featureFiles() {
        at::Tensor f = at::randn({3, 4, 3});
        at::Tensor t = at::arange(3, at::kDouble);
        at::Tensor nanF = f.clone();
        nanF[2][1][0] = std::numeric_limits<float>::quiet_NaN();
        at::Tensor nanT = t.clone();
        nanT[1] = std::numeric_limits<double>::infinity();
        const struct {
            const char* name;
            std::map<std::string, at::Tensor> tensors;
            std::map<std::string, std::string> meta;
            const char* needle;
        } cases[] = {
            {"nan_features.safetensors",
             {{"features", nanF.to(at::kBFloat16)}, {"frame_times", t}},
             {},
             "features[2, 1, 0]"},
            {"nan_times.safetensors", {{"features", f}, {"frame_times", nanT}}, {}, "frame_times"},
            {"attention_shape.safetensors",
             {{"features", f}, {"frame_times", t}, {"attention", at::ones({4, 3})}},
             {},
             "attention"},
            {"nan_attention.safetensors",
             {{"features", f},
              {"frame_times", t},
              {"attention", at::full({3, 4}, std::numeric_limits<float>::quiet_NaN())}},
             {},
             "attention"},
            {"grid_overflow.safetensors",
             {{"features", f}, {"frame_times", t}},
             {{"grid", "99999999999999999999x1"}},
             "grid"},
        };
        for (const auto& c : cases) {
            const std::string file = test::writeSafetensors(path(c.name), c.tensors, c.meta);
            expectRefused(compressWith(file, codebook_), c.name, out_, c.needle);
        }
    }

    void codebookMetadata() {
        const std::string file = test::writeSafetensors(
            path("cb_size_text.safetensors"), {{"codebook", at::randn({6, 3})}},
            {{"format", "once-codebook/1"}, {"size", "six"}});
        expectRefused(compressWith(features_, file), "cb_size_text.safetensors", out_,
                      "not a number");
        const std::string huge = test::writeSafetensors(path("cb_size_huge.safetensors"),
                                                        {{"codebook", at::randn({6, 3})}},
                                                        {{"dim", "99999999999999999999999"}});
        expectRefused(compressWith(features_, huge), "cb_size_huge.safetensors", out_, "dim");
    }

    void infoOnHostileSafetensors() {
        auto raw = [&](const std::string& name, const std::string& header) {
            std::string bytes(8, '\0');
            const std::uint64_t n = header.size();
            for (int i = 0; i < 8; ++i) {
                bytes[std::size_t(i)] = char((n >> (8 * i)) & 0xFF);
            }
            std::ofstream(path(name), std::ios::binary) << bytes << header;
            return path(name);
        };
        const std::string deep = raw("deep.safetensors", std::string(200000, '['));
        expectRefused({"info", QString::fromStdString(deep)}, "deep.safetensors", {}, "deeply");
        const std::string bad = raw("badjson.safetensors", "{\"a\": \x01\x02");
        expectRefused({"info", QString::fromStdString(bad)}, "badjson.safetensors", {},
                      "not valid JSON");
        // A header that claims 2^62 bytes of data for a tensor in a tiny file.
        const std::string claim =
            raw("claim.safetensors",
                R"({"a":{"dtype":"F32","shape":[1048576,1048576,1048576],"data_offsets":[0,4]}})");
        expectRefused({"info", QString::fromStdString(claim)}, "claim.safetensors", {});
    }
};

QTEST_GUILESS_MAIN(TestHostileIo)
#include "test_hostile_io.moc"
