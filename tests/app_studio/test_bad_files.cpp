// Every kind of bad input gives a dialog that names the problem, and the window stays usable:
// a broken video, a truncated or wrong-dimension codebook, a malformed model folder, a file of
// unknown type, a missing file. Afterwards the demo still loads.
#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

#include "../widgets/studio_test_data.h"
#include "codebook/codebook.h"
#include "main_window.h"
#include "session/demo_assets.h"
#include "session/studio_session.h"
#include "studio_app_test.h"
#include "studio_application.h"
#include "support/test_support.h"

using namespace once::studio;

namespace {
QString tempDir() {
    static const QString dir = QString::fromStdString(once::test::tempDir());
    return dir;
}
QString writeFile(const QString& name, const QByteArray& bytes) {
    const QString path = tempDir() + QLatin1Char('/') + name;
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(bytes);
    return path;
}
}  // namespace

class TestBadFiles : public QObject {
    Q_OBJECT

    MainWindow* window_ = nullptr;

    // Opens `path` and expects an error dialog whose text contains every string of `expected`.
    void expectError(const QString& path, const QStringList& expected) {
        window_->session()->openPath(path);
        QTRY_VERIFY_WITH_TIMEOUT(window_->errorDialog() && window_->errorDialog()->isVisible(),
                                 60000);
        QMessageBox* box = window_->errorDialog();
        const QString text = box->text();
        for (const QString& e : expected) {
            QVERIFY2(text.contains(e, Qt::CaseInsensitive),
                     qPrintable(QStringLiteral("'%1' not in: %2").arg(e, text)));
        }
        // Window-modal, not application-modal: the rest of the desktop is never blocked.
        QCOMPARE(box->windowModality(), Qt::WindowModal);
        box->close();
        QTRY_VERIFY(!window_->errorDialog());
        QTRY_VERIFY(!window_->session()->isBusy());
        QVERIFY(window_->isEnabled());
    }

  private slots:
    void initTestCase() {
        once::studio::test::initStudioTestApplication();
        window_ = new MainWindow;
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_));
    }
    void cleanupTestCase() {
        window_->close();
        delete window_;
    }

    void brokenVideo() {
        QByteArray junk(64 * 1024, '\0');
        for (int i = 0; i < junk.size(); ++i) {
            junk[i] = static_cast<char>((i * 7919) % 251);
        }
        const QString path = writeFile(QStringLiteral("broken.mp4"), junk);
        expectError(path, {QStringLiteral("broken.mp4")});
    }

    void missingVideo() {
        expectError(tempDir() + QStringLiteral("/no_such_video.mp4"),
                    {QStringLiteral("no_such_video.mp4")});
    }

    void truncatedCodebook() {
        // A valid header length pointing past the end of the file.
        QByteArray bytes(8, '\0');
        bytes[0] = static_cast<char>(200);
        bytes += "{\"codebook\":";
        expectError(writeFile(QStringLiteral("truncated.safetensors"), bytes),
                    {QStringLiteral("truncated.safetensors")});
    }

    void wrongDimensionCodebook() {
        // Features of dimension 16 in the window, a codebook of dimension 8.
        const VideoData video = test::syntheticVideo(2, 4, 4, 16);
        window_->session()->setVideo(video);
        const QString path = tempDir() + QStringLiteral("/dim8.safetensors");
        once::Codebook::fromTensor(at::randn({12, 8}), "demo").save(path.toStdString());
        expectError(
            path, {QStringLiteral("dim8.safetensors"), QStringLiteral("16"), QStringLiteral("8")});
        QVERIFY(!window_->session()->codebook());  // refused, nothing half-loaded
        QCOMPARE(window_->session()->video().dim(), std::int64_t{16});  // the video stays
    }

    void malformedModelFolders() {
        const QString noConfig = tempDir() + QStringLiteral("/model_no_config");
        QDir().mkpath(noConfig);
        writeFile(QStringLiteral("model_no_config/tokenizer.json"), "{}");
        // A folder without config.json is not recognised as a model: open it explicitly.
        window_->session()->openModelFolder(noConfig);
        QTRY_VERIFY_WITH_TIMEOUT(window_->errorDialog() && window_->errorDialog()->isVisible(),
                                 60000);
        QVERIFY(window_->errorDialog()->text().contains(QLatin1String("config.json")));
        window_->errorDialog()->close();
        QTRY_VERIFY(!window_->errorDialog());

        writeFile(QStringLiteral("model_bad_json/config.json"), "{\"model_type\": ");
        expectError(tempDir() + QStringLiteral("/model_bad_json"),
                    {QStringLiteral("config.json"), QStringLiteral("JSON")});

        writeFile(QStringLiteral("model_no_weights/config.json"),
                  "{\"model_type\": \"llava_onevision\"}");
        writeFile(QStringLiteral("model_no_weights/tokenizer.json"), "{}");
        expectError(tempDir() + QStringLiteral("/model_no_weights"),
                    {QStringLiteral("weights"), QStringLiteral("safetensors")});

        writeFile(QStringLiteral("model_no_tokenizer/config.json"), "{\"model_type\": \"qwen2\"}");
        writeFile(QStringLiteral("model_no_tokenizer/model.safetensors"), "x");
        expectError(tempDir() + QStringLiteral("/model_no_tokenizer"),
                    {QStringLiteral("tokenizer.json")});
        QVERIFY(!window_->session()->model());
    }

    void unknownFileType() {
        expectError(writeFile(QStringLiteral("notes.txt"), "hello"),
                    {QStringLiteral("notes.txt"), QStringLiteral("unknown")});
    }

    void windowStaysUsable() {
        if (!DemoAssets::locate().hasVideo()) {
            QFAIL(
                "the demo video is not in this checkout (committed, or installed by "
                "scripts/setup.sh: a broken checkout or set-up fails, it does not skip)");
        }
        window_->session()->loadDemo();
        QVERIFY(test::waitIdle(*window_->session(), 300000));
        QVERIFY(window_->session()->result());
        QVERIFY(!window_->errorDialog());
    }
};

QTEST_MAIN(TestBadFiles)
#include "test_bad_files.moc"
