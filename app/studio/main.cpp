// once-studio: the ONCE Studio desktop application.
//   once-studio [FILE…]            open videos, feature files, codebooks or model folders
//   once-studio --demo             start with the embedded demo loaded
//   once-studio --open-session FILE   reopen a saved session (.oncesession; --session works too)
//   once-studio --screenshot PNG   load the demo, save a picture of the window, quit
#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "app_settings.h"
#include "command_line.h"
#include "main_window.h"
#include "session/atomic_save.h"
#include "session/studio_session.h"
#include "session_file_controller.h"
#include "studio_application.h"

namespace {
// --help and --version print and exit: answer them without a display (a QApplication needs
// one), so they work over ssh and in package checks.
bool textOnly(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        for (const char* flag : {"-h", "--help", "--help-all", "-v", "--version"}) {
            if (std::strcmp(argv[i], flag) == 0) {
                return true;
            }
        }
    }
    return false;
}
}  // namespace

int main(int argc, char** argv) {
    // Before Qt sees them: it would take --session FILE for its session manager (issue 30).
    std::vector<std::string> protectedArgs = once::studio::protectStudioArguments(argc, argv);
    std::vector<char*> args;
    for (std::string& a : protectedArgs) {
        args.push_back(a.data());
    }
    args.push_back(nullptr);
    argc = int(protectedArgs.size());
    argv = args.data();

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "main", "ONCE Studio: video-token compression with a global codebook"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption demo(QStringLiteral("demo"),
                                  QCoreApplication::translate("main", "Load the embedded demo."));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QCoreApplication::translate("main", "Load the demo, save the window to FILE and quit."),
        QStringLiteral("FILE"));
    const QCommandLineOption language(
        QStringLiteral("lang"),
        QCoreApplication::translate("main", "Interface language for this run (en, zh_CN)."),
        QStringLiteral("LANG"));
    const QCommandLineOption session(
        QStringList{QString::fromLatin1(once::studio::kOpenSessionOption),
                    QStringLiteral("session")},
        QCoreApplication::translate(
            "main", "Reopen the session saved in FILE (.oncesession); --session FILE works too."),
        QStringLiteral("FILE"));
    parser.addOptions({demo, screenshot, language, session});
    parser.addPositionalArgument(
        QStringLiteral("files"),
        QCoreApplication::translate("main", "Videos, feature files, codebooks or model folders."),
        QStringLiteral("[FILE…]"));

    if (textOnly(argc, argv)) {
        QCoreApplication core(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("ONCE Studio"));
        QCoreApplication::setApplicationVersion(QStringLiteral(ONCE_VERSION));
        parser.process(core);  // prints and exits
        return 0;
    }
    QApplication app(argc, argv);
    once::studio::initStudioApplication(app);
    parser.process(app);

    once::studio::installTranslators(app, parser.isSet(language)
                                              ? parser.value(language)
                                              : once::studio::AppSettings().language());

    once::studio::MainWindow window;
    window.show();
    for (const QString& path : parser.positionalArguments()) {
        window.openAnyPath(path);
    }
    if (parser.isSet(session)) {
        window.sessionFiles()->openSessionFile(parser.value(session));
    }
    if (parser.isSet(demo) || parser.isSet(screenshot)) {
        window.session()->loadDemo();
    }
    if (parser.isSet(screenshot)) {
        const QString path = parser.value(screenshot);
        // When all work is done (or failed), give the views a moment to paint, then save.
        QObject::connect(window.session(), &once::studio::StudioSession::busyChanged, &window,
                         [&window, path](bool busy) {
                             if (busy) {
                                 return;
                             }
                             QTimer::singleShot(500, &window, [&window, path] {
                                 QBuffer png;
                                 png.open(QIODevice::WriteOnly);
                                 const bool ok =
                                     window.grab().save(&png, "PNG") &&
                                     once::studio::saveFileAtomically(path, png.data(), nullptr);
                                 std::fprintf(stderr, "%s %s\n", ok ? "saved" : "could not save",
                                              qPrintable(path));
                                 window.close();
                                 QApplication::exit(ok && window.session()->result() ? 0 : 1);
                             });
                         });
    }
    return app.exec();
}
