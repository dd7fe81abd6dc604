// Translations: every user-visible string of widgets/ and app/studio/ is in the English source
// and translated in zh_CN (checked by running lupdate on the sources now), the translations keep
// their placeholders and mnemonics, and the embedded zh_CN catalogue really changes the window.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLibraryInfo>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QXmlStreamReader>
#include <QtTest>

#include "main_window.h"
#include "session/methods.h"
#include "studio_app_test.h"
#include "studio_application.h"
#include "support/test_support.h"

using namespace once::studio;

namespace {
struct Message {
    QString context, source, translation, type;
};

QList<Message> readTs(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    QList<Message> out;
    QXmlStreamReader xml(&f);
    QString context;
    Message m;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) {
            continue;
        }
        if (xml.name() == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (xml.name() == QLatin1String("message")) {
            m = Message{context, {}, {}, {}};
        } else if (xml.name() == QLatin1String("source")) {
            m.source = xml.readElementText();
        } else if (xml.name() == QLatin1String("translation")) {
            m.type = xml.attributes().value(QLatin1String("type")).toString();
            m.translation =
                xml.readElementText(QXmlStreamReader::IncludeChildElements);  // numerus forms
            out << m;
        }
    }
    return out;
}

QStringList placeholders(const QString& s) {
    QStringList out;
    auto it = QRegularExpression(QStringLiteral("%\\d+")).globalMatch(s);
    while (it.hasNext()) {
        out << it.next().captured();
    }
    out.sort();
    return out;
}

QString tsPath(const QString& lang) {
    return QString::fromStdString(
        once::test::sourcePath("translations/once_studio_" + lang.toStdString() + ".ts"));
}
}  // namespace

class TestTranslations : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { once::studio::test::initStudioTestApplication(); }

    void zhCnIsCompleteAndKeepsPlaceholders() {
        const auto messages = readTs(tsPath(QStringLiteral("zh_CN")));
        QVERIFY(messages.size() > 250);
        for (const Message& m : messages) {
            const QString where = m.context + QStringLiteral(": ") + m.source;
            QVERIFY2(m.type.isEmpty(), qPrintable(QStringLiteral("%1 (%2)").arg(where, m.type)));
            QVERIFY2(!m.translation.isEmpty(), qPrintable(where));
            QVERIFY2(placeholders(m.source) == placeholders(m.translation), qPrintable(where));
            // Mnemonics survive translation ("文件(&F)").
            const bool mnemonic = m.source.contains(QRegularExpression(QStringLiteral("&[^ &]")));
            QVERIFY2(!mnemonic || m.translation.contains(QLatin1Char('&')), qPrintable(where));
        }
    }

    void sourcesHaveNoUntranslatedStrings() {
        // lupdate over the current sources into a copy: nothing may come out unfinished.
        const QString lupdate =
            QLibraryInfo::path(QLibraryInfo::BinariesPath) + QStringLiteral("/lupdate");
        if (!QFile::exists(lupdate)) {
            QFAIL(
                "lupdate is not installed (committed, or installed by scripts/setup.sh: a broken "
                "checkout or set-up fails, it does not skip)");
        }
        const QString copy =
            QString::fromStdString(once::test::tempDir()) + QStringLiteral("/once_studio_zh_CN.ts");
        QVERIFY(QFile::copy(tsPath(QStringLiteral("zh_CN")), copy));
        QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
        QProcess p;
        p.setWorkingDirectory(QString::fromStdString(once::test::sourcePath("")));
        p.start(lupdate, {QStringLiteral("-no-obsolete"), QStringLiteral("-locations"),
                          QStringLiteral("none"), QStringLiteral("widgets"),
                          QStringLiteral("app/studio"), QStringLiteral("-ts"), copy});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        for (const Message& m : readTs(copy)) {
            QVERIFY2(m.type.isEmpty(),
                     qPrintable(QStringLiteral("untranslated in zh_CN: %1: %2 (run the "
                                               "update_translations target and translate it)")
                                    .arg(m.context, m.source)));
        }
    }

    void embeddedChineseCatalogueChangesTheWindow() {
        QCOMPARE(installTranslators(*qApp, QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
        MainWindow window;
        const QList<QAction*> menus = window.menuBar()->actions();
        QCOMPARE(menus.first()->text(), QStringLiteral("文件(&F)"));
        QCOMPARE(menus.last()->text(), QStringLiteral("帮助(&H)"));
        QCOMPARE(QCoreApplication::translate("once::studio::QuestionPanel", "Dense"),
                 QStringLiteral("稠密"));
        // Every registered method's one-line summary, as the method box shows it (issue 30:
        // they were English in a Chinese interface; the catalogue keeps them by their text).
        for (const QString& method : methods::all()) {
            const QString english =
                QString::fromStdString(once::compressorInfo(method.toStdString()).summary);
            QVERIFY2(methods::summary(method) != english, qPrintable(method + QLatin1String(": ") + english));
        }
        // An unknown language falls back to English without failing.
        QCOMPARE(installTranslators(*qApp, QStringLiteral("xx_YY")), QStringLiteral("en"));
    }
};

QTEST_MAIN(TestTranslations)
#include "test_translations.moc"
