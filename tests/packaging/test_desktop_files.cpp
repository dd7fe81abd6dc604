// The desktop integration files that the .deb installs pass the freedesktop validators
// (desktop-file-validate, appstreamcli; scripts/setup.sh installs both) and name the program and
// icon that packaging/packaging.cmake installs.
#include <QFile>
#include <QProcess>
#include <QtTest>

#include "support/test_support.h"

namespace {

once::test::ProcessResult run(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    once::test::ProcessResult r;
    if (!p.waitForStarted(30000)) {
        r.err = program + QStringLiteral(" is not installed (scripts/setup.sh installs it)");
        return r;
    }
    p.waitForFinished(120000);
    r.exitCode = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString packagingFile(const char* name) {
    return QString::fromStdString(once::test::sourcePath(std::string("packaging/") + name));
}

QString readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

}  // namespace

class TestDesktopFiles : public QObject {
    Q_OBJECT
  private slots:
    void desktopEntryIsValid() {
        const QString desktop = packagingFile("org.once_studio.OnceStudio.desktop");
        const auto r = run(QStringLiteral("desktop-file-validate"), {desktop});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.trimmed().isEmpty(), qPrintable(r.out));  // no warnings either
        const QString text = readAll(desktop);
        QVERIFY(text.contains(QLatin1String("\nExec=once-studio")));
        QVERIFY(text.contains(QLatin1String("\nIcon=org.once_studio.OnceStudio")));
    }

    void metainfoIsValid() {
        const QString metainfo = packagingFile("org.once_studio.OnceStudio.metainfo.xml");
        const auto r = run(QStringLiteral("appstreamcli"),
                           {QStringLiteral("validate"), QStringLiteral("--no-net"), metainfo});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY(readAll(metainfo).contains(QLatin1String("org.once_studio.OnceStudio.desktop")));
    }

    void cmakeInstallsWhatTheyName() {
        const QString cmake = readAll(packagingFile("packaging.cmake"));
        // The application id names the files, and the icon is installed under it (Icon=).
        QVERIFY(cmake.contains(QLatin1String("set(_once_app_id \"org.once_studio.OnceStudio\")")));
        QVERIFY(cmake.contains(QLatin1String("packaging/${_once_app_id}.desktop")));
        QVERIFY(cmake.contains(QLatin1String("packaging/${_once_app_id}.metainfo.xml")));
        QVERIFY(cmake.contains(QLatin1String("RENAME \"${_once_app_id}.svg\"")));
    }
};

QTEST_APPLESS_MAIN(TestDesktopFiles)
#include "test_desktop_files.moc"
