// GGUF reader: a well-formed file written byte by byte reads back (metadata, tensor values), and
// malformed files — bad magic or version, truncation, strings/arrays/counts past the end, unknown
// value or tensor types, nested arrays, overflowing dims, misaligned or out-of-file data, bad
// alignment, duplicates — each fail with an OnceError naming the file and the field, no crash.
#include <ATen/ATen.h>

#include <QtTest>
#include <cstring>
#include <fstream>
#include <functional>

#include "models/gguf_dequant.h"
#include "models/gguf_file.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;

namespace {

// Little-endian GGUF bytes, assembled piece by piece so that each case can break one piece.
struct Bytes {
    std::vector<std::uint8_t> b;
    template <typename T>
    Bytes& put(T v) {
        // Byte by byte: GCC 12's -Wstringop-overflow misfires on a ranged insert here.
        const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
        for (std::size_t i = 0; i < sizeof(T); ++i) {
            b.push_back(p[i]);
        }
        return *this;
    }
    Bytes& u32(std::uint32_t v) { return put(v); }
    Bytes& u64(std::uint64_t v) { return put(v); }
    Bytes& raw(const std::string& s) {
        for (char c : s) {
            b.push_back(static_cast<std::uint8_t>(c));
        }
        return *this;
    }
    Bytes& str(const std::string& s) { return u64(s.size()).raw(s); }
    Bytes& kvString(const std::string& k, const std::string& v) { return str(k).u32(8).str(v); }
    Bytes& kvU32(const std::string& k, std::uint32_t v) { return str(k).u32(4).u32(v); }
    Bytes& tensor(const std::string& name, std::vector<std::uint64_t> dims, std::uint32_t type,
                  std::uint64_t offset) {
        str(name).u32(std::uint32_t(dims.size()));
        for (auto d : dims) {
            u64(d);
        }
        return u32(type).u64(offset);
    }
    Bytes& pad(std::size_t align) {
        while (b.size() % align) {
            b.push_back(0);
        }
        return *this;
    }
};

Bytes header(std::uint64_t tensors, std::uint64_t kvs, std::uint32_t version = 3) {
    Bytes x;
    x.raw("GGUF").u32(version).u64(tensors).u64(kvs);
    return x;
}

// The valid file the cases start from: two keys, one F32 tensor [2, 32] with values 0..63.
Bytes validFile() {
    Bytes x = header(1, 2);
    x.kvString("general.architecture", "llama").kvU32("general.alignment", 32);
    x.tensor("t", {32, 2}, 0, 0).pad(32);
    for (int i = 0; i < 64; ++i) {
        x.put(float(i));
    }
    return x;
}

std::string write(const Bytes& x) {
    static int n = 0;
    std::string path = test::tempDir() + "/case" + std::to_string(n++) + ".gguf";
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(x.b.data()), std::streamsize(x.b.size()));
    return path;
}

// Opens (and reads every tensor of) `x`; expects an OnceError naming the file and a field that
// contains `field`.
void expectError(const Bytes& x, const std::string& field, const std::string& brief = {}) {
    const std::string path = write(x);
    try {
        GgufFile g = GgufFile::open(path);
        for (const auto& t : g.tensors()) {
            g.tensor(t.name);
        }
    } catch (const OnceError& e) {
        QVERIFY2(e.where().file == path, e.what());
        QVERIFY2(e.where().field.find(field) != std::string::npos, e.what());
        QVERIFY2(e.brief().find(brief) != std::string::npos, e.what());
        qInfo("%s", e.what());
        return;
    }
    QFAIL(("no error for a malformed file (expected one about " + field + ")").c_str());
}

}  // namespace

class TestGgufFile : public QObject {
    Q_OBJECT
  private slots:
    void readsAValidFile() {
        GgufFile g = GgufFile::open(write(validFile()));
        QCOMPARE(g.version(), 3u);
        QCOMPARE(g.alignment(), std::uint64_t(32));
        QCOMPARE(g.getString("general.architecture"), std::string("llama"));
        QCOMPARE(g.getInt("general.alignment"), std::int64_t(32));
        QCOMPARE(g.tensors().size(), std::size_t(1));
        QCOMPARE(g.tensorInfo("t").shape(), (std::vector<std::int64_t>{2, 32}));
        at::Tensor t = g.tensor("t", {2, 32});
        QVERIFY(at::equal(t, at::arange(64, at::kFloat).view({2, 32})));
        // Typed getters name the key on a wrong type or a missing key.
        QVERIFY_THROWS_EXCEPTION(OnceError, g.getInt("general.architecture"));
        QVERIFY_THROWS_EXCEPTION(OnceError, g.getString("missing.key"));
        QVERIFY_THROWS_EXCEPTION(OnceError, g.tensor("t", {32, 2}));
        QVERIFY_THROWS_EXCEPTION(OnceError, g.tensor("absent"));
    }

    void badMagic() {
        Bytes x = validFile();
        std::memcpy(x.b.data(), "GGML", 4);
        expectError(x, "magic", "not a GGUF file");
    }
    void badVersion() {
        Bytes x = validFile();
        x.b[4] = 1;  // version 1: 32-bit counts, not supported
        expectError(x, "version");
        x.b[4] = 0;
        x.b[7] = 3;  // a big-endian version 3
        expectError(x, "version");
    }
    void emptyAndTruncatedHeader() {
        expectError(Bytes{}, "magic");
        Bytes x = validFile();
        x.b.resize(10);  // inside tensor_count
        expectError(x, "tensor_count", "ends inside its header");
        x = validFile();
        x.b.resize(40);  // too short for two key/values at all
        expectError(x, "metadata_kv_count");
        x = validFile();
        x.b.resize(60);  // inside the first value's string length
        expectError(x, "general.architecture", "ends inside its header");
        x = validFile();
        x.b.resize(120);  // inside the tensor info
        expectError(x, "t (", "ends inside its header");
    }
    void stringLengthPastEnd() {
        Bytes x = header(0, 1);
        x.u64(1ull << 40).raw("general.name");
        expectError(x, "metadata[0].key", "runs past the end");
        Bytes y = header(0, 1);
        y.str("general.name").u32(8).u64(1000).raw("short");
        expectError(y, "general.name", "runs past the end");
    }
    void countsPastEnd() {
        Bytes x = header(0, 1ull << 62);
        expectError(x, "metadata_kv_count");
        Bytes y = header(1ull << 62, 0);
        expectError(y, "tensor_count");
    }
    void unknownValueType() {
        Bytes x = header(0, 1);
        x.str("general.thing").u32(13).u32(0);
        expectError(x, "general.thing", "unknown GGUF metadata value type");
    }
    void badArrays() {
        Bytes nested = header(0, 1);
        nested.str("a.nested").u32(9).u32(9).u64(1);
        expectError(nested, "a.nested", "nested");
        Bytes huge = header(0, 1);
        huge.str("a.huge").u32(9).u32(5).u64(1ull << 50);
        expectError(huge, "a.huge", "array runs past the end");
        Bytes badBool = header(0, 1);
        badBool.str("a.flag").u32(7).put(std::uint8_t(2));
        expectError(badBool, "a.flag");
    }
    void duplicates() {
        Bytes keys = header(0, 2);
        keys.kvU32("a.b", 1).kvU32("a.b", 2);
        expectError(keys, "a.b", "appears twice");
        Bytes tensors = header(2, 0);
        tensors.tensor("w", {32}, 0, 0).tensor("w", {32}, 0, 128).pad(32);
        tensors.b.resize(tensors.b.size() + 256);
        expectError(tensors, "w", "appears twice");
    }
    void badDims() {
        Bytes zero = header(1, 0);
        zero.tensor("w", {}, 0, 0).pad(32);
        expectError(zero, "w", "number of dimensions");
        Bytes five = header(1, 0);
        five.tensor("w", {1, 1, 1, 1, 1}, 0, 0).pad(32);
        expectError(five, "w", "number of dimensions");
        Bytes overflow = header(1, 0);
        overflow.tensor("w", {1ull << 40, 1ull << 40}, 0, 0).pad(32);
        expectError(overflow, "w", "overflow");
        Bytes notBlocks = header(1, 0);
        notBlocks.tensor("w", {33, 2}, 2 /* Q4_0 */, 0).pad(32);
        notBlocks.b.resize(notBlocks.b.size() + 64);
        expectError(notBlocks, "w", "whole number of blocks");
    }
    void unknownTensorType() {
        Bytes x = header(1, 0);
        x.tensor("w", {32}, 99, 0).pad(32);
        x.b.resize(x.b.size() + 128);
        expectError(x, "w", "unknown tensor type");
    }
    void misalignedOffset() {
        Bytes x = header(1, 0);
        x.tensor("w", {4}, 0, 4).pad(32);
        x.b.resize(x.b.size() + 64);
        expectError(x, "w", "misaligned");
    }
    void tensorPastEnd() {
        Bytes x = validFile();
        x.b.resize(x.b.size() - 4);  // the last float is cut
        expectError(x, "t", "outside the file");
        Bytes far = header(1, 0);
        far.tensor("w", {8}, 0, 1ull << 40).pad(32);
        expectError(far, "w", "outside the file");
    }
    void badAlignment() {
        Bytes x = header(0, 1);
        x.kvU32("general.alignment", 3);
        expectError(x, "general.alignment", "alignment");
        Bytes zero = header(0, 1);
        zero.kvU32("general.alignment", 0);
        expectError(zero, "general.alignment", "alignment");
    }
    void typeWithoutDequantisation() {
        Bytes x = header(1, 0);
        x.tensor("w", {256}, 10 /* Q2_K: sizes known, no de-quantisation */, 0).pad(32);
        x.b.resize(x.b.size() + 84);
        expectError(x, "w", "cannot be de-quantised");
    }
    void missingFile() {
        QVERIFY_THROWS_EXCEPTION(OnceError, GgufFile::open(test::tempDir() + "/absent.gguf"));
    }
    void arraysAreCompact() {
        // Arrays keep one flat vector by kind: integers of every width, floats and strings read
        // back through the typed getters.
        Bytes x = header(0, 4);
        x.str("a.u8")
            .u32(9)
            .u32(0)
            .u64(3)
            .put(std::uint8_t(1))
            .put(std::uint8_t(2))
            .put(std::uint8_t(255));
        x.str("a.i32").u32(9).u32(5).u64(2).put(std::int32_t(-7)).put(std::int32_t(9));
        x.str("a.str").u32(9).u32(8).u64(2).str("x").str("yz");
        x.str("a.f32").u32(9).u32(6).u64(1).put(1.5f);
        GgufFile g = GgufFile::open(write(x));
        QCOMPARE(g.getIntArray("a.u8"), (std::vector<std::int64_t>{1, 2, 255}));
        QCOMPARE(g.getIntArray("a.i32"), (std::vector<std::int64_t>{-7, 9}));
        QCOMPARE(g.getStringArray("a.str"), (std::vector<std::string>{"x", "yz"}));
        QCOMPARE(g.find("a.f32")->floats, (std::vector<double>{1.5}));
        QCOMPARE(g.find("a.u8")->arraySize(), std::size_t(3));
        QVERIFY_THROWS_EXCEPTION(OnceError, g.getIntArray("a.f32"));
        QVERIFY_THROWS_EXCEPTION(OnceError, g.getStringArray("a.u8"));
    }
    void limits() {
        // Lengths within the file but over the stated limits are refused before allocating.
        Bytes key = header(0, 1);
        key.str(std::string(kMaxGgufKeyBytes + 1, 'k')).u32(4).u32(1);
        expectError(key, "metadata[0].key", "longer than the limit");
        Bytes name = header(1, 0);
        name.tensor(std::string(kMaxGgufTensorNameBytes + 1, 'n'), {32}, 0, 0).pad(32);
        name.b.resize(name.b.size() + 128);
        expectError(name, "tensor[0].name", "longer than the limit");
        Bytes many = header(0, kMaxGgufMetadataKeys + 1);
        many.b.resize(many.b.size() + 13 * (kMaxGgufMetadataKeys + 1));
        expectError(many, "metadata_kv_count", "over the limit");
        // A u8 array one element over the limit, all of it present in the file.
        Bytes big = header(0, 1);
        big.str("a.big").u32(9).u32(0).u64(kMaxGgufArrayElements + 1);
        big.b.resize(big.b.size() + kMaxGgufArrayElements + 1);
        expectError(big, "a.big", "longer than the limit");
    }
};

QTEST_APPLESS_MAIN(TestGgufFile)
#include "test_gguf_file.moc"
