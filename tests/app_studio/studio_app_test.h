#pragma once
// Set-up shared by the studio's window tests: the application as once-studio initialises it,
// with QSettings of its own per test program (ctest runs them in parallel) in Qt's test location,
// cleared so every run starts from the defaults.
#include <QApplication>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

#include "studio_application.h"

namespace once::studio::test {

inline void initStudioTestApplication() {
    initStudioApplication(*qApp);
    QCoreApplication::setApplicationName(
        QStringLiteral("ONCE Studio ") +
        QFileInfo(QString::fromLocal8Bit(QTest::currentAppName())).fileName());
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
}

}  // namespace once::studio::test
