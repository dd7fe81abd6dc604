#include "studio_application.h"

#include <QApplication>
#include <QIcon>
#include <QLibraryInfo>
#include <QTranslator>

#include "app_settings.h"

// Q_INIT_RESOURCE must be used outside any namespace; the resources live in a static library,
// whose unreferenced registration object the linker would otherwise drop.
static void initStudioResources() {
    Q_INIT_RESOURCE(studio);
}

namespace once::studio {

void initStudioApplication(QApplication& app) {
    initStudioResources();
    QApplication::setOrganizationName(QStringLiteral("ONCE"));
    QApplication::setOrganizationDomain(QStringLiteral("once-studio.org"));
    QApplication::setApplicationName(QStringLiteral("ONCE Studio"));
    QApplication::setApplicationVersion(QStringLiteral(ONCE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.once_studio.OnceStudio"));
    app.setWindowIcon(QIcon(QStringLiteral(":/icons/once-studio.svg")));
}

namespace {
QString& installed() {
    static QString language = QStringLiteral("en");
    return language;
}

// One studio catalogue at a time: a second call (tests switch languages) replaces the first.
QTranslator*& studioTranslator() {
    static QTranslator* translator = nullptr;
    return translator;
}

bool installStudioCatalogue(QApplication& app, const QString& lang) {
    auto* studio = new QTranslator(&app);
    if (!studio->load(QStringLiteral(":/i18n/once_studio_%1.qm").arg(lang))) {
        delete studio;
        return false;
    }
    if (QTranslator* old = studioTranslator()) {
        QApplication::removeTranslator(old);
        delete old;
    }
    studioTranslator() = studio;
    QApplication::installTranslator(studio);
    return true;
}
}  // namespace

QString installedLanguage() {
    return installed();
}

QString installTranslators(QApplication& app, const QString& language) {
    const QString lang = AppSettings::effectiveLanguage(language);
    // English is the source language; its catalogue only adds the plural forms ("1 token",
    // "2 tokens") of strings written with %n.
    if (lang == QLatin1String("en") || !installStudioCatalogue(app, lang)) {
        installStudioCatalogue(app, QStringLiteral("en"));
        installed() = QStringLiteral("en");
        return installed();
    }
    installed() = lang;
    // Qt's own strings (standard buttons, file dialogs) in the same language.
    auto* qt = new QTranslator(&app);
    if (qt->load(QStringLiteral("qtbase_%1").arg(lang),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QApplication::installTranslator(qt);
    } else {
        delete qt;
    }
    return lang;
}

}  // namespace once::studio
