// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPalette>
#include <QString>

namespace drasim::ui {

/// The window's colours: the system's (the platform theme, light or dark as the desktop is set),
/// or a light or dark palette chosen in View › Theme and remembered in QSettings ("view/theme").
enum class Theme { System, Light, Dark };

QString themeName(Theme theme); ///< "system", "light", "dark"
Theme themeFromName(const QString& name); ///< unknown names: System

/// The palette of a theme; System is the palette the application started with.
QPalette themePalette(Theme theme);
/// Applies a theme to the whole application (every widget gets a PaletteChange; charts follow).
void applyTheme(Theme theme);
/// The theme remembered in QSettings (System when none).
Theme savedTheme();
void saveTheme(Theme theme);

/// Whether a palette is dark (its window background is): views pick readable colours with it.
bool isDarkPalette(const QPalette& palette);

} // namespace drasim::ui
