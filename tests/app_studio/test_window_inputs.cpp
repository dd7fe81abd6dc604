// Ways in: drag and drop (a feature file and its codebook at once), the recent-files list, and
// the settings dialog (validated, remembered in QSettings, applied to the session).
#include <QDropEvent>
#include <QLineEdit>
#include <QMimeData>
#include <QSettings>
#include <QStandardPaths>
#include <QUrl>
#include <QtTest>

#include "../widgets/studio_test_data.h"
#include "app_settings.h"
#include "codebook/codebook.h"
#include "features/feature_file.h"
#include "main_window.h"
#include "recent_files_menu.h"
#include "session/studio_session.h"
#include "settings_dialog.h"
#include "studio_app_test.h"
#include "studio_application.h"
#include "support/test_support.h"

using namespace once::studio;

class TestWindowInputs : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { once::studio::test::initStudioTestApplication(); }

    void dropAFeatureFileAndItsCodebook() {
        const QString dir = QString::fromStdString(once::test::tempDir());
        const VideoData video = test::syntheticVideo(3, 4, 4, 16);
        once::EncodedVideo file;
        file.features = video.features;
        file.frameTimes = {0.0, 0.5, 1.0};
        file.backbone = "demo";
        file.gridH = 4;
        file.gridW = 4;
        file.sampling = "uniform:3";
        const QString features = dir + QStringLiteral("/clip.features.safetensors");
        saveFeatureFile(file, features.toStdString());
        const QString codebook = dir + QStringLiteral("/cb.safetensors");
        test::codebookFrom(video, 8)->save(codebook.toStdString());
        QCOMPARE(StudioSession::classify(features), StudioSession::FileKind::FeatureFile);
        QCOMPARE(StudioSession::classify(codebook), StudioSession::FileKind::Codebook);

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QMimeData mime;
        // The video first: the window loads the codebook first anyway, so one assignment runs.
        mime.setUrls({QUrl::fromLocalFile(features), QUrl::fromLocalFile(codebook)});
        QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, {});
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, {});
        QApplication::sendEvent(&window, &drop);
        QVERIFY(test::waitIdle(*window.session()));
        QVERIFY(window.session()->video().fromFeatureFile);
        QCOMPARE(window.session()->video().gridW, 4);
        QCOMPARE(window.session()->codebook()->size(), std::int64_t{8});
        QVERIFY(!window.errorDialog());

        // Both are now at the top of the recent files, newest first.
        const QStringList recent = AppSettings().recentFiles();
        QVERIFY(recent.size() >= 2);
        QVERIFY(recent.contains(QFileInfo(features).absoluteFilePath()));
        QVERIFY(recent.contains(QFileInfo(codebook).absoluteFilePath()));
    }

    void recentFilesAreOrderedAndBounded() {
        AppSettings settings;
        settings.clearRecentFiles();
        const QString dir = QString::fromStdString(once::test::tempDir());
        QStringList paths;
        for (int i = 0; i < AppSettings::kMaxRecentFiles + 3; ++i) {
            paths << dir + QStringLiteral("/f%1.mp4").arg(i);
            QFile f(paths.back());
            QVERIFY(f.open(QIODevice::WriteOnly));
            settings.addRecentFile(paths.back());
        }
        settings.addRecentFile(paths[5]);  // again: moves to the front, no duplicate
        const QStringList recent = settings.recentFiles();
        QCOMPARE(recent.size(), AppSettings::kMaxRecentFiles);
        QCOMPARE(recent.front(), paths[5]);
        QCOMPARE(recent.count(paths[5]), 1);
        RecentFilesMenu menu;
        QCOMPARE(menu.actions().size(), AppSettings::kMaxRecentFiles + 2);  // + separator, Clear
        QSignalSpy open(&menu, &RecentFilesMenu::openRequested);
        menu.actions().front()->trigger();
        QCOMPARE(open.first().first().toString(), paths[5]);
        // Files that disappeared are not offered.
        QFile::remove(paths[5]);
        QVERIFY(!settings.recentFiles().contains(paths[5]));
    }

    void settingsAreValidatedAndRemembered() {
        PipelineSettings p;
        p.sampling = QStringLiteral("uniform:16");
        p.threads = 1;
        SettingsDialog dialog(p, QStringLiteral("zh_CN"));
        QCOMPARE(dialog.pipeline().sampling, QStringLiteral("uniform:16"));
        QCOMPARE(dialog.language(), QStringLiteral("zh_CN"));
        QLineEdit* sampling = nullptr;
        for (QLineEdit* edit : dialog.findChildren<QLineEdit*>()) {
            sampling = edit->text() == QLatin1String("uniform:16") ? edit : sampling;
        }
        QVERIFY(sampling);
        sampling->setText(QStringLiteral("every:frame"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));  // refused: still open
        sampling->setText(QStringLiteral("fps:1:4:64"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));

        AppSettings settings;
        settings.setPipeline(dialog.pipeline());
        settings.setLanguage(dialog.language());
        QCOMPARE(AppSettings().pipeline().sampling, QStringLiteral("fps:1:4:64"));
        QCOMPARE(AppSettings().language(), QStringLiteral("zh_CN"));
        // A new window starts with the remembered settings.
        MainWindow window;
        QCOMPARE(window.session()->pipelineSettings().sampling, QStringLiteral("fps:1:4:64"));
        // CUDA is offered only when this process can use it.
        QCOMPARE(SettingsDialog::cudaAvailable(), false);
    }
};

QTEST_MAIN(TestWindowInputs)
#include "test_window_inputs.moc"
