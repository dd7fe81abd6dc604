// Codebook loading from every supported format, metadata checks, and the refusals.
#include <ATen/ATen.h>

#include <QtTest>
#include <fstream>

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
};

QTEST_GUILESS_MAIN(TestCodebook)
#include "test_codebook.moc"
