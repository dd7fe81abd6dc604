// safetensors reader/writer: round trips and the malformed files the reader must refuse with a
// clear message (never a crash).
#include <ATen/ATen.h>

#include <QtTest>
#include <cstring>
#include <fstream>

#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;

namespace {

std::vector<std::uint8_t> image(const std::string& headerJson, std::size_t dataBytes) {
    std::vector<std::uint8_t> out(8 + headerJson.size() + dataBytes, 0);
    std::uint64_t n = headerJson.size();
    for (int i = 0; i < 8; ++i) {
        out[std::size_t(i)] = std::uint8_t(n >> (8 * i));
    }
    std::memcpy(out.data() + 8, headerJson.data(), headerJson.size());
    return out;
}

std::string writeBytes(const std::vector<std::uint8_t>& bytes, const std::string& name) {
    std::string path = test::tempDir() + "/" + name;
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    return path;
}

}  // namespace

class TestSafetensors : public QObject {
    Q_OBJECT
  private slots:
    void roundTripAllDtypes() {
        SafetensorsWriter w;
        std::vector<at::ScalarType> types = {at::kFloat,  at::kHalf, at::kBFloat16,
                                             at::kLong,   at::kInt,  at::kByte,
                                             at::kDouble, at::kBool, at::kChar};
        std::vector<at::Tensor> originals;
        for (std::size_t i = 0; i < types.size(); ++i) {
            at::Tensor t = (at::randn({3, 5}) * 10).to(types[i]);
            originals.push_back(t);
            addTensor(w, "t" + std::to_string(i), t);
        }
        w.setMetadata("format", "test/1");
        std::string path = test::tempDir() + "/all.safetensors";
        w.write(path);
        auto f = SafetensorsFile::open(path);
        QCOMPARE(f.meta("format"), std::string("test/1"));
        QCOMPARE(f.tensors().size(), types.size());
        for (std::size_t i = 0; i < types.size(); ++i) {
            at::Tensor back = loadTensor(f, "t" + std::to_string(i));
            QCOMPARE(back.scalar_type(), types[i]);
            QVERIFY(at::equal(back, originals[i]));
        }
    }

    void readsWhatPythonWrites() {
        std::string path = test::tempDir() + "/py.safetensors";
        auto r = test::runPython("write_safetensors_sample.py", {QString::fromStdString(path)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto f = SafetensorsFile::open(path);
        at::Tensor a = loadTensor(f, "a");
        QCOMPARE(a.scalar_type(), at::kBFloat16);
        QCOMPARE(a.sizes().vec(), (std::vector<std::int64_t>{2, 3}));
        at::Tensor expected = at::arange(6, at::kFloat).reshape({2, 3}).to(at::kBFloat16);
        QVERIFY(at::equal(a, expected));
        QCOMPARE(loadTensor(f, "b").sum().item<std::int64_t>(), std::int64_t(10));
        QCOMPARE(f.meta("who"), std::string("python"));
    }

    void rejectsMalformed_data() {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<int>("dataBytes");
        QTest::addColumn<QString>("needle");
        auto row = [](const char* tag, const std::string& h, int bytes, const char* needle) {
            QTest::newRow(tag) << QByteArray::fromStdString(h) << bytes << QString(needle);
        };
        // A header of one tensor "a" with these JSON values for its three keys.
        auto one = [](const std::string& dtype, const std::string& shape,
                      const std::string& offsets) {
            return R"({"a":{"dtype":)" + dtype + R"(,"shape":)" + shape + R"(,"data_offsets":)" +
                   offsets + "}}";
        };
        const std::string f32 = R"("F32")";
        row("not json", "{\"a\": ", 0, "not valid JSON");
        row("not object", "[1,2]", 0, "not a JSON object");
        row("unknown dtype", one(R"("F7")", "[1]", "[0,4]"), 4, "unsupported dtype");
        row("dtype not string", one("3", "[1]", "[0,4]"), 4, "dtype is not a string");
        row("missing shape", R"({"a":{"dtype":"F32","data_offsets":[0,4]}})", 4, "lacks a key");
        row("negative dim", one(f32, "[-1]", "[0,4]"), 4, "non-negative integer");
        row("float dim", one(f32, "[1.5]", "[0,4]"), 4, "non-negative integer");
        row("span mismatch", one(f32, "[2]", "[0,4]"), 4, "does not match shape");
        row("end before begin", one(f32, "[0]", "[4,0]"), 4, "end before begin");
        row("offsets not pair", one(f32, "[1]", "[0]"), 4, "not a pair");
        row("past end", one(f32, "[2]", "[0,8]"), 4, "past the end");
        row("overlap",
            R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[2,6]}})",
            8, "overlaps");
        row("gap", one(f32, "[1]", "[4,8]"), 8, "gap");
        row("trailing", one(f32, "[1]", "[0,4]"), 12, "trailing bytes");
        row("shape overflow", one(f32, "[4294967296,4294967296]", "[0,4]"), 4, "overflows");
        row("huge dim times size", one(R"("F64")", "[4611686018427387904]", "[0,8]"), 8,
            "does not match");
        row("metadata not object", R"({"__metadata__":[1]})", 0, "__metadata__ is not");
        row("metadata value", R"({"__metadata__":{"k":1}})", 0, "not a string");
        row("entry not object", R"({"a":5})", 0, "not an object");
        row("nested too deeply", "[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]", 0,
            "nests too deeply");
        std::string dims = "1";
        for (int i = 0; i < 64; ++i) {
            dims += ",1";  // 65 dimensions of 1: a 4-byte tensor, one rank over the limit
        }
        row("too many dims", one(f32, "[" + dims + "]", "[0,4]"), 4, "too many dimensions");
    }
    void rejectsMalformed() {
        QFETCH(QByteArray, header);
        QFETCH(int, dataBytes);
        QFETCH(QString, needle);
        std::string path =
            writeBytes(image(header.toStdString(), std::size_t(dataBytes)), "bad.safetensors");
        try {
            SafetensorsFile::open(path);
            QFAIL("accepted a malformed file");
        } catch (const OnceError& e) {
            QString msg = QString::fromStdString(e.what());
            QVERIFY2(msg.contains(needle), qPrintable(msg));
            QVERIFY2(msg.contains("bad.safetensors"), qPrintable(msg));
            QVERIFY2(!msg.contains("json.exception"), qPrintable(msg));
        }
    }

    void rejectsTruncatedAndHugeHeaders() {
        for (auto [bytes, needle] : std::vector<std::pair<std::vector<std::uint8_t>, QString>>{
                 {{1, 2, 3}, "too short"},
                 {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, '{', '}'}, "over the limit"},
                 {{100, 0, 0, 0, 0, 0, 0, 0, '{', '}'}, "past the end"},
             }) {
            std::string path = writeBytes(bytes, "short.safetensors");
            try {
                SafetensorsFile::open(path);
                QFAIL("accepted");
            } catch (const OnceError& e) {
                QVERIFY2(QString(e.what()).contains(needle), e.what());
            }
        }
        try {
            SafetensorsFile::open(test::tempDir() + "/missing.safetensors");
            QFAIL("opened a missing file");
        } catch (const OnceError& e) {
            QVERIFY(QString(e.what()).contains("missing.safetensors"));
        }
    }

    void missingTensorNamesWhatIsThere() {
        SafetensorsWriter w;
        addTensor(w, "x", at::zeros({2}));
        std::string path = test::tempDir() + "/x.safetensors";
        w.write(path);
        auto f = SafetensorsFile::open(path);
        try {
            f.entry("y");
            QFAIL("found a missing tensor");
        } catch (const OnceError& e) {
            QVERIFY(QString(e.what()).contains("tensors: x"));
        }
    }
};

QTEST_GUILESS_MAIN(TestSafetensors)
#include "test_safetensors.moc"
