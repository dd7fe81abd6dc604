// De-quantisation of every supported ggml type (F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0,
// Q4_K, Q5_K, Q6_K) equals the `gguf` package's gguf.quants.dequantize on random blocks that
// Python writes into a GGUF file with gguf.GGUFWriter (so the reader is checked on a file
// written by the reference implementation too).
#include <ATen/ATen.h>

#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>

#include "models/gguf_dequant.h"
#include "models/gguf_file.h"
#include "support/test_support.h"

using namespace once;

namespace {

at::Tensor readF32(const std::string& path, std::vector<std::int64_t> shape) {
    std::ifstream in(path, std::ios::binary);
    at::Tensor t = at::empty(shape, at::kFloat);
    in.read(reinterpret_cast<char*>(t.data_ptr<float>()), std::streamsize(t.numel() * 4));
    return t;
}

}  // namespace

class TestGgufDequant : public QObject {
    Q_OBJECT
  private slots:
    void matchesGguf() {
        const std::string dir = test::tempDir();
        auto r = test::runPython("gguf_reference.py", {"dequant", QString::fromStdString(dir)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        nlohmann::json manifest = nlohmann::json::parse(std::ifstream(dir + "/manifest.json"));
        GgufFile g = GgufFile::open(dir + "/types.gguf");
        QCOMPARE(g.tensors().size(), manifest.size());
        QVERIFY(manifest.size() >= 11);
        for (const auto& m : manifest) {
            const std::string name = m.at("name").get<std::string>();
            const auto shape = m.at("shape").get<std::vector<std::int64_t>>();
            const GgufTensorInfo& info = g.tensorInfo(name);
            QCOMPARE(info.type, m.at("type").get<std::uint32_t>());
            QCOMPARE(ggmlTypeName(info.type), name);
            at::Tensor ours = g.tensor(name, shape);
            at::Tensor ref = readF32(dir + "/" + name + ".f32", shape);
            const double err = test::maxAbsDiff(ours, ref);
            qInfo("%-5s max |ours - gguf| = %g over %lld values", name.c_str(), err,
                  static_cast<long long>(ref.numel()));
            // Same block layout and the same float operations in the same order: bit-exact.
            QVERIFY2(at::equal(ours, ref), (name + ": " + std::to_string(err)).c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestGgufDequant)
#include "test_gguf_dequant.moc"
