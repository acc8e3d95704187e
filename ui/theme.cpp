// SPDX-License-Identifier: Apache-2.0
#include "ui/theme.h"

#include <QApplication>
#include <QSettings>
#include <QStyle>

namespace drasim::ui {

namespace {

const char* kSettingsKey = "view/theme";

/// The system's palette, captured before the first theme change replaces the application's.
QPalette& systemPalette()
{
    static QPalette palette = QApplication::palette();
    return palette;
}

QPalette darkPalette()
{
    // Neutral greys with enough contrast for text (WCAG AA on every text/background pair) and a
    // blue selection that reads on both the window and the base colour.
    QPalette p;
    const QColor window(0x2b, 0x2b, 0x2f), base(0x1f, 0x1f, 0x23), text(0xe6, 0xe6, 0xe6);
    const QColor button(0x36, 0x36, 0x3b), disabled(0x80, 0x80, 0x86);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x29, 0x29, 0x2e));
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x40));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4a, 0x50));
    p.setColor(QPalette::Midlight, QColor(0x3f, 0x3f, 0x45));
    p.setColor(QPalette::Mid, QColor(0x30, 0x30, 0x35));
    p.setColor(QPalette::Dark, QColor(0x18, 0x18, 0x1b));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7b, 0xd9));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x7c, 0xb8, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb3, 0x9d, 0xff));
    for (auto role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, disabled);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x50, 0x50, 0x55));
    return p;
}

} // namespace

QString themeName(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

Theme themeFromName(const QString& name)
{
    if (name == QLatin1String("light"))
        return Theme::Light;
    if (name == QLatin1String("dark"))
        return Theme::Dark;
    return Theme::System;
}

QPalette themePalette(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return QApplication::style()->standardPalette();
    case Theme::Dark:
        return darkPalette();
    case Theme::System:
        break;
    }
    return systemPalette();
}

void applyTheme(Theme theme)
{
    systemPalette(); // remember the system's before it is replaced
    QApplication::setPalette(themePalette(theme));
}

Theme savedTheme()
{
    return themeFromName(QSettings().value(QLatin1String(kSettingsKey)).toString());
}

void saveTheme(Theme theme)
{
    QSettings().setValue(QLatin1String(kSettingsKey), themeName(theme));
}

bool isDarkPalette(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

} // namespace drasim::ui
