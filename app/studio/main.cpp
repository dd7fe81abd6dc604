// once-studio: the ONCE Studio desktop application.
//   once-studio [FILE…]            open videos, feature files, codebooks or model folders
//   once-studio --demo             start with the embedded demo loaded
//   once-studio --screenshot PNG   load the demo, save a picture of the window, quit
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>

#include "app_settings.h"
#include "main_window.h"
#include "session/studio_session.h"
#include "studio_application.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    once::studio::initStudioApplication(app);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main",
                                "ONCE Studio: video-token compression with a global "
                                "codebook"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption demo(QStringLiteral("demo"),
                                  QApplication::translate("main", "Load the embedded demo."));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QApplication::translate("main", "Load the demo, save the window to FILE and quit."),
        QStringLiteral("FILE"));
    const QCommandLineOption language(
        QStringLiteral("lang"),
        QApplication::translate("main", "Interface language for this run (en, zh_CN)."),
        QStringLiteral("LANG"));
    parser.addOptions({demo, screenshot, language});
    parser.addPositionalArgument(
        QStringLiteral("files"),
        QApplication::translate("main", "Videos, feature files, codebooks or model folders."),
        QStringLiteral("[FILE…]"));
    parser.process(app);

    once::studio::installTranslators(app, parser.isSet(language)
                                              ? parser.value(language)
                                              : once::studio::AppSettings().language());

    once::studio::MainWindow window;
    window.show();
    auto* session = window.session();
    for (const QString& path : parser.positionalArguments()) {
        session->openPath(path);
    }
    if (parser.isSet(demo) || parser.isSet(screenshot)) {
        session->loadDemo();
    }
    if (parser.isSet(screenshot)) {
        const QString path = parser.value(screenshot);
        // When all work is done (or failed), give the views a moment to paint, then save.
        QObject::connect(session, &once::studio::StudioSession::busyChanged, &window,
                         [&window, path](bool busy) {
                             if (busy) {
                                 return;
                             }
                             QTimer::singleShot(500, &window, [&window, path] {
                                 const bool ok = window.grab().save(path);
                                 std::fprintf(stderr, "%s %s\n", ok ? "saved" : "could not save",
                                              qPrintable(path));
                                 window.close();
                                 QApplication::exit(ok && window.session()->result() ? 0 : 1);
                             });
                         });
    }
    return app.exec();
}
