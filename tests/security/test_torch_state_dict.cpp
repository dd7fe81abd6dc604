// PyTorch codebooks as PyTorch users save them: nn.Module.state_dict() is a
// collections.OrderedDict with a _metadata attribute (set by BUILD), alone or nested in a
// training checkpoint. Written by the real torch (tests/reference/write_codebook_imports.py),
// each must load with the tensors torch.load gives, by name, through the library and through
// `once compress`; and what would run code on loading (a whole pickled module, whose class is a
// global of __main__) or is not a plain OrderedDict() stays refused, naming the file, with no
// output written.
#include <ATen/ATen.h>

#include <QtTest>
#include <filesystem>
#include <fstream>

#include "codebook/codebook.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "io/torch_pickle.h"
#include "support/bounded_cli.h"
#include "support/test_support.h"

using namespace once;
namespace fs = std::filesystem;

class TestTorchStateDict : public QObject {
    Q_OBJECT
    std::string dir_, features_;
    at::Tensor expected_;

    QString q(const std::string& s) const { return QString::fromStdString(s); }

    test::BoundedRun compress(const std::string& codebook, const std::string& out,
                              const QStringList& extra = {}) {
        return test::runCliBounded(
            QStringList{"compress", "--features", q(features_), "--codebook", q(codebook),
                        "--budget", "6", "-o", q(out), "--device", "cpu"} +
                extra,
            120);
    }

    static at::Tensor tokens(const std::string& resultFile) {
        return loadTensor(SafetensorsFile::open(resultFile), "tokens");
    }

  private slots:
    void initTestCase() {
        dir_ = test::tempDir();
        const auto r = test::runPython("write_codebook_imports.py", {QString::fromStdString(dir_)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        std::ifstream raw(dir_ + "/cb.raw", std::ios::binary);
        expected_ = at::empty({10, 6}, at::kFloat);
        raw.read(static_cast<char*>(expected_.data_ptr()), 240);
        at::manual_seed(4);
        features_ = test::writeFeatureFile(at::randn({3, 4, 6}), dir_ + "/f.safetensors");
    }

    void stateDictsLoadByName() {
        const auto sd = readTorchStateDict(dir_ + "/state_dict.pt");
        QCOMPARE(sd.size(), std::size_t(1));
        QVERIFY(at::equal(sd.at("weight"), expected_));
        const auto module = readTorchStateDict(dir_ + "/module_state.pt");
        QCOMPARE(module.size(), std::size_t(3));
        QVERIFY(at::equal(module.at("0.codebook"), expected_));
        QCOMPARE(module.at("0.proj.weight").sizes().vec(), (std::vector<std::int64_t>{3, 6}));
        QCOMPARE(module.at("0.proj.bias").sizes().vec(), (std::vector<std::int64_t>{3}));
        // A checkpoint: the state dict nested in a dict with numbers beside it.
        const auto ckpt = readTorchStateDict(dir_ + "/checkpoint.pt");
        QCOMPARE(ckpt.size(), std::size_t(3));
        QVERIFY(at::equal(ckpt.at("model.0.codebook"), expected_));
        // The other formats still load as before.
        QVERIFY(
            at::equal(readTorchStateDict(dir_ + "/cb.pt").at("quantizer.embedding"), expected_));
        QVERIFY(at::equal(Codebook::load(dir_ + "/state_dict.pt").vectors(), expected_));
        CodebookLoadOptions key;
        key.key = "model.0.codebook";
        QVERIFY(at::equal(Codebook::load(dir_ + "/checkpoint.pt", key).vectors(), expected_));
    }

    void compressTakesThem() {
        const std::string want = dir_ + "/want.safetensors";
        QCOMPARE(compress(dir_ + "/cb.npy", want).exitCode, 0);
        const std::map<std::string, QStringList> cases = {
            {"state_dict.pt", {}},
            {"module_state.pt", {"--key", "0.codebook"}},
            {"checkpoint.pt", {"--key", "model.0.codebook"}}};
        for (const auto& [file, extra] : cases) {
            const std::string out = dir_ + "/" + file + ".out.safetensors";
            const test::BoundedRun r = compress(dir_ + "/" + file, out, extra);
            QVERIFY2(r.exitCode == 0, qPrintable(q(file) + ": " + r.text()));
            QVERIFY(at::equal(tokens(out), tokens(want)));
        }
    }

    void codeAndOtherObjectsStayRefused() {
        for (const char* file : {"whole_module.pt", "ordered_items.pt"}) {
            const std::string out = dir_ + "/refused.safetensors";
            const test::BoundedRun r = compress(dir_ + "/" + file, out);
            QVERIFY2(r.exitCode == 1, qPrintable(q(file) + ": " + r.text()));
            QVERIFY2(r.err.contains(file), qPrintable(r.err));
            QVERIFY(!fs::exists(out));
        }
        const test::BoundedRun whole = compress(dir_ + "/whole_module.pt", dir_ + "/x");
        QVERIFY2(whole.err.contains("not allowed"), qPrintable(whole.err));
    }
};

QTEST_GUILESS_MAIN(TestTorchStateDict)
#include "test_torch_state_dict.moc"
