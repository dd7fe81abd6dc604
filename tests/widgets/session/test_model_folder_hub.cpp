// The studio's model folder (ModelFolder::inspect, what "Open Model Folder" and a restored
// session run) on the Hugging Face hub cache as huggingface_hub writes it
// (tests/reference/hub_cache.py): a snapshot folder of symlinks into ../../blobs, whole and
// sharded, for both backbones, and the repository folder models--ORG--NAME (its refs/main
// snapshot). Each is its backbone, with the folder's own sampling (Qwen3.5: its video processor,
// as transformers samples) and its language model's sizes; a refs/main that is a FIFO is refused
// without waiting.
#include <QtTest>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "session/model_folder.h"
#include "support/bounded_cli.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once::studio;
namespace fs = std::filesystem;

class TestModelFolderHub : public QObject {
    Q_OBJECT
    nlohmann::json hub_;

  private slots:
    void initTestCase() {
        const std::string dir = once::test::tempDir();
        const auto py = once::test::runPython("hub_cache.py", {QString::fromStdString(dir)});
        QVERIFY2(py.exitCode == 0, qPrintable(py.err));
        hub_ = nlohmann::json::parse(once::test::readText(dir + "/hub.json"));
    }

    void snapshotsAndRepositoryFolders() {
        for (const auto& [id, r] : hub_["repos"].items()) {
            const std::string snapshot = r["snapshot"].get<std::string>();
            const ModelFolder saved =
                ModelFolder::inspect(QString::fromStdString(r["source"].get<std::string>()));
            const std::string repoFolder = fs::path(snapshot).parent_path().parent_path().string();
            for (const std::string& path : {snapshot, repoFolder}) {
                const ModelFolder m = ModelFolder::inspect(QString::fromStdString(path));
                QCOMPARE(m.backbone.toStdString(), r["backbone"].get<std::string>());
                QCOMPARE(m.path.toStdString(), snapshot);
                QCOMPARE(m.samplingDefault, saved.samplingDefault);
                QCOMPARE(m.llm.hidden, saved.llm.hidden);
                QCOMPARE(m.llm.layers, saved.llm.layers);
            }
            // The tiny Qwen3.5's video processor samples 2 FPS, 4 to 256 frames.
            QCOMPARE(
                saved.samplingDefault,
                QString::fromLatin1(r["backbone"] == "qwen3.5" ? "fps:2:4:256" : "uniform:32"));
        }
    }

    void aFifoRefIsRefused() {
        const std::string copy = once::test::tempDir() + "/hub";
        once::test::copyTree(hub_["cache"].get<std::string>(), copy);
        const std::string repo = copy + "/models--once-test--llava-ov-tiny";
        QVERIFY(once::test::makeFifo(repo + "/refs/main"));
        try {
            ModelFolder::inspect(QString::fromStdString(repo));
            QFAIL("a FIFO refs/main was read");
        } catch (const once::OnceError& e) {
            QVERIFY2(QString(e.what()).contains("refs/main") && QString(e.what()).contains("FIFO"),
                     e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestModelFolderHub)
#include "test_model_folder_hub.moc"
