#pragma once
// Application-wide setup shared by the executable and the tests: names used by QSettings and the
// desktop entry, the embedded resources, and the translators for the chosen language.
#include <QString>

class QApplication;

namespace once::studio {

/// Organisation/application names, version, desktop file name, embedded icons.
void initStudioApplication(QApplication& app);
/// Installs the translators of `language` ("en", "zh_CN"; "" follows the system). Returns the
/// language in use (English when no translation for the request exists).
QString installTranslators(QApplication& app, const QString& language);
/// The language installTranslators() put in use last ("en" before any call).
QString installedLanguage();

}  // namespace once::studio
