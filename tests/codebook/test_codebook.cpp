// Codebook loading from every supported format, metadata checks, and the refusals.
#include <ATen/ATen.h>

#include <QtTest>
#include <fstream>
#include <limits>

#include "codebook/codebook.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;

class TestCodebook : public QObject {
    Q_OBJECT
    std::string dir_;
    at::Tensor expected_;

  private slots:
    void initTestCase() {
        dir_ = test::tempDir();
        auto r = test::runPython("write_codebook_imports.py", {QString::fromStdString(dir_)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        std::ifstream raw(dir_ + "/cb.raw", std::ios::binary);
        expected_ = at::empty({10, 6}, at::kFloat);
        raw.read(static_cast<char*>(expected_.data_ptr()), 240);
    }

    void importsNpyAndPt() {
        QVERIFY(at::equal(Codebook::load(dir_ + "/cb.npy").vectors(), expected_));
        QVERIFY(at::allclose(Codebook::load(dir_ + "/cb16.npy").vectors(), expected_, 1e-2, 1e-2));
        // The only 2-D floating tensor of a nested state dict is found without a key.
        QVERIFY(at::equal(Codebook::load(dir_ + "/cb.pt").vectors(), expected_));
        CodebookLoadOptions byKey;
        byKey.key = "b";
        QCOMPARE(Codebook::load(dir_ + "/two.pt", byKey).size(), std::int64_t(4));
        try {
            Codebook::load(dir_ + "/two.pt");
            QFAIL("picked a tensor among two without a key");
        } catch (const OnceError& e) {
            QVERIFY(QString(e.what()).contains("--key"));
        }
    }

    void saveLoadRoundTripWithMetadata() {
        Codebook cb = Codebook::fromTensor(expected_, "demo", "patch descriptors");
        const std::string path = dir_ + "/cb.safetensors";
        cb.save(path, "BF16", {{"training", "{\"K\": 10}"}});
        Codebook back = Codebook::load(path);
        QCOMPARE(back.backbone(), std::string("demo"));
        QCOMPARE(back.storedDtype(), std::string("BFloat16"));
        QCOMPARE(back.metadata().at("training"), std::string("{\"K\": 10}"));
        QCOMPARE(back.sha256().size(), std::size_t(64));
        QVERIFY(at::allclose(back.vectors(), expected_, 1e-2, 1e-2));
        QVERIFY(at::allclose(back.normalized().norm(2, 1), at::ones({10}), 1e-5, 1e-5));
        back.checkCompatible(6, "demo", "f.safetensors");
        try {
            back.checkCompatible(6, "llava-onevision", "f.safetensors");
            QFAIL("accepted another backbone");
        } catch (const OnceError& e) {
            QVERIFY(QString(e.what()).contains("demo") &&
                    QString(e.what()).contains("llava-onevision"));
        }
        try {
            back.checkCompatible(8, "demo", "f.safetensors");
            QFAIL("accepted another dimension");
        } catch (const OnceError& e) {
            QVERIFY(QString(e.what()).contains("D = ") || QString(e.what()).contains("dim"));
        }
    }

    void refusesCorruptedOrInconsistentFiles() {
        auto writeWith = [&](const std::string& name, const std::map<std::string, std::string>& m,
                             const at::Tensor& t) {
            SafetensorsWriter w;
            addTensor(w, "codebook", t);
            for (const auto& [k, v] : m) {
                w.setMetadata(k, v);
            }
            w.write(dir_ + "/" + name);
            return dir_ + "/" + name;
        };
        QVERIFY_THROWS_EXCEPTION(
            OnceError,
            Codebook::load(writeWith("sha.safetensors", {{"tensor_sha256", "00"}}, expected_)));
        QVERIFY_THROWS_EXCEPTION(
            OnceError, Codebook::load(writeWith("dim.safetensors", {{"dim", "7"}}, expected_)));
        QVERIFY_THROWS_EXCEPTION(
            OnceError,
            Codebook::load(writeWith("fmt.safetensors", {{"format", "other/2"}}, expected_)));
        QVERIFY_THROWS_EXCEPTION(
            OnceError, Codebook::load(writeWith("rank.safetensors", {}, at::zeros({10}))));
        QVERIFY_THROWS_EXCEPTION(OnceError, Codebook::load(writeWith("int.safetensors", {},
                                                                     at::zeros({4, 4}, at::kInt))));
        QVERIFY_THROWS_EXCEPTION(OnceError, Codebook::load(dir_ + "/cb.raw"));
        QVERIFY_THROWS_EXCEPTION(OnceError, Codebook::load(dir_ + "/absent.npy"));
        std::ofstream(dir_ + "/junk.pt") << "not a zip";
        QVERIFY_THROWS_EXCEPTION(OnceError, Codebook::load(dir_ + "/junk.pt"));
        std::ofstream(dir_ + "/junk.npy") << "\x93NUMPY junk";
        QVERIFY_THROWS_EXCEPTION(OnceError, Codebook::load(dir_ + "/junk.npy"));
    }

    void refusalsNameTheField_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("needle");
        QTest::newRow("size not a number") << "size.safetensors"
                                           << "__metadata__.size"
                                           << "not a number";
        QTest::newRow("dim overflowing") << "dimbig.safetensors"
                                         << "__metadata__.dim"
                                         << "not a number";
        QTest::newRow("Inf in row 3") << "inf.safetensors"
                                      << "codebook row 3"
                                      << "NaN or Inf";
        QTest::newRow("npy negative dim") << "neg.npy"
                                          << "shape[0]"
                                          << "negative";
        QTest::newRow("npy unknown key") << "key.npy"
                                         << "header"
                                         << "unknown key";
        QTest::newRow("npy huge shape") << "huge.npy"
                                        << "data"
                                        << "does not match";
    }
    void refusalsNameTheField() {
        QFETCH(QString, file);
        QFETCH(QString, field);
        QFETCH(QString, needle);
        const std::string path = dir_ + "/" + file.toStdString();
        at::Tensor cb = expected_.clone();
        auto npy = [&](const std::string& header) {
            std::string h = header;
            std::string bytes = "\x93NUMPY\x01";
            bytes += '\0';
            bytes += char(h.size() & 0xFF);
            bytes += char(h.size() >> 8);
            std::ofstream(path, std::ios::binary) << bytes << h << std::string(24, '\0');
        };
        SafetensorsWriter w;
        if (file == "size.safetensors") {
            addTensor(w, "codebook", cb);
            w.setMetadata("size", "ten");
        } else if (file == "dimbig.safetensors") {
            addTensor(w, "codebook", cb);
            w.setMetadata("dim", "6.0e0");
        } else if (file == "inf.safetensors") {
            cb[3][2] = std::numeric_limits<float>::infinity();
            addTensor(w, "codebook", cb.to(at::kBFloat16));
        } else if (file == "neg.npy") {
            npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-2, 3), }\n");
        } else if (file == "key.npy") {
            npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'x': 0}\n");
        } else {
            npy("{'descr': '<f8', 'fortran_order': False, 'shape': (100000, 100000), }\n");
        }
        if (file.endsWith(".safetensors")) {
            w.write(path);
        }
        try {
            Codebook::load(path);
            QFAIL("loaded a bad codebook");
        } catch (const OnceError& e) {
            QVERIFY2(e.where().file == path, e.what());
            QVERIFY2(QString::fromStdString(e.where().field) == field, e.what());
            QVERIFY2(QString(e.what()).contains(needle), e.what());
        }
    }

    void npyVersionTwoAndSpacedHeader() {
        // NumPy writes format 2.0 for long headers; spacing and a trailing comma are allowed.
        const std::string path = dir_ + "/v2.npy";
        const std::string h = "{ 'shape' : (2, 3) , 'fortran_order':False,'descr':'<f4' }   \n";
        std::string bytes = "\x93NUMPY\x02";
        bytes += '\0';
        for (int i = 0; i < 4; ++i) {
            bytes += char((h.size() >> (8 * i)) & 0xFF);
        }
        at::Tensor v = at::arange(6, at::kFloat).view({2, 3});
        std::ofstream(path, std::ios::binary)
            << bytes << h << std::string(static_cast<const char*>(v.data_ptr()), 24);
        QVERIFY(at::equal(Codebook::load(path).vectors(), v));
    }
};

QTEST_GUILESS_MAIN(TestCodebook)
#include "test_codebook.moc"
