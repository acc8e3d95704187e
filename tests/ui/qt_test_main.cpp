// SPDX-License-Identifier: Apache-2.0
// GoogleTest entry point for Qt tests: one QApplication for the whole binary, offscreen by default.
#include <cstdlib>

#include <QApplication>
#include <QTemporaryDir>

#include <gtest/gtest.h>

int main(int argc, char** argv)
{
    if (!std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    // Settings (recent files, window state) and data (the run store) go to a scratch folder,
    // never to the user's own.
    QTemporaryDir home;
    if (!home.isValid())
        return 1;
    setenv("XDG_CONFIG_HOME", (home.path() + QStringLiteral("/config")).toLocal8Bit().constData(), 1);
    setenv("XDG_DATA_HOME", (home.path() + QStringLiteral("/data")).toLocal8Bit().constData(), 1);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("drasim-tests"));
    QApplication::setApplicationName(QStringLiteral("drasim-tests"));
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
