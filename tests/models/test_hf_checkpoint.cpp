// HfCheckpoint, the model-folder reader, on folders built to break it: names inside
// model.safetensors.index.json stay inside the folder (lexically: the hub cache's symlinks to
// ../../blobs are followed), a shard that is not a regular file is refused without waiting on it,
// and malformed JSON is the project's error naming the file, never the library's text.
#include <ATen/ATen.h>
#include <sys/stat.h>

#include <QtTest>
#include <filesystem>
#include <fstream>

#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "models/hf_checkpoint.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

void write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

/// A folder with config.json and an index whose weight map sends tensor "w" to `shard`.
std::string folderWithIndex(const std::string& shard) {
    const std::string dir = test::tempDir() + "/model";
    fs::create_directories(dir);
    write(dir + "/config.json", R"({"model_type": "qwen2"})");
    write(dir + "/model.safetensors.index.json",
          R"({"metadata": {}, "weight_map": {"w": ")" + shard + R"("}})");
    return dir;
}

void expectRefused(const std::string& dir, const std::string& file, const std::string& field) {
    try {
        HfCheckpoint::open(dir);
        QFAIL("opened");
    } catch (const OnceError& e) {
        qInfo("%s", e.what());
        QVERIFY2(e.where().file.find(file) != std::string::npos, e.what());
        QCOMPARE(e.where().field, field);
        QVERIFY(std::string(e.what()).find("json.exception") == std::string::npos);
    }
}

}  // namespace

class TestHfCheckpoint : public QObject {
    Q_OBJECT

  private slots:
    void shardNamesStayInsideTheFolder() {
        // A real shard beside the folder: a reader following "../" would open it.
        const std::string dir = folderWithIndex("../outside.safetensors");
        SafetensorsWriter w;
        addTensor(w, "w", at::ones({2}));
        w.write(dir + "/../outside.safetensors");
        expectRefused(dir, "model.safetensors.index.json", "weight_map.w");
        expectRefused(folderWithIndex("/etc/passwd"), "model.safetensors.index.json",
                      "weight_map.w");
        expectRefused(folderWithIndex("sub/../x.safetensors"), "model.safetensors.index.json",
                      "weight_map.w");
    }

    void shardSymlinkedOutOfTheFolderOpens() {
        // As the hub cache stores it: snapshots/REV/FILE -> ../../blobs/SHA.
        const std::string dir = folderWithIndex("model-00001-of-00001.safetensors");
        fs::create_directories(dir + "/../blobs");
        SafetensorsWriter w;
        addTensor(w, "w", at::arange(4, at::kFloat));
        w.write(dir + "/../blobs/5e1f");
        fs::create_symlink("../blobs/5e1f", dir + "/model-00001-of-00001.safetensors");
        QCOMPARE(HfCheckpoint::open(dir).get("w").sum().item<float>(), 6.0f);
    }

    void shardThatIsNoRegularFileIsRefused() {
        const std::string dir = folderWithIndex("model-00001-of-00001.safetensors");
        const std::string fifo = dir + "/model-00001-of-00001.safetensors";
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        expectRefused(dir, "model-00001-of-00001.safetensors", "");  // returns, never waits
        fs::remove(fifo);
        fs::create_symlink("/dev/zero", fifo);
        expectRefused(dir, "model-00001-of-00001.safetensors", "");
    }

    void shardInsideTheFolderOpens() {
        const std::string dir = folderWithIndex("sub/part-1.safetensors");
        fs::create_directories(dir + "/sub");
        SafetensorsWriter w;
        addTensor(w, "w", at::arange(3, at::kFloat));
        w.write(dir + "/sub/part-1.safetensors");
        HfCheckpoint ck = HfCheckpoint::open(dir);
        QCOMPARE(ck.get("w").sum().item<float>(), 3.0f);
    }

    void malformedJsonNamesTheFile() {
        const std::string dir = folderWithIndex("x.safetensors");
        write(dir + "/config.json", "{\"model_type\": ");
        expectRefused(dir, "config.json", "");
        write(dir + "/config.json", std::string(100000, '[') + std::string(100000, ']'));
        expectRefused(dir, "config.json", "");  // nested deeper than the stated limit
        write(dir + "/config.json", "[1, 2]");
        expectRefused(dir, "config.json", "");
        write(dir + "/config.json", "{}");
        write(dir + "/model.safetensors.index.json", R"({"weight_map": {"w": 7}})");
        expectRefused(dir, "model.safetensors.index.json", "w");
    }
};

QTEST_GUILESS_MAIN(TestHfCheckpoint)
#include "test_hf_checkpoint.moc"
