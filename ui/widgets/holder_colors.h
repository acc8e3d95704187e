// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

namespace drasim::ui {

/// Colours shared by the topology views, chosen from the widget's palette so light and dark
/// themes both read well.
namespace holder_colors {

/// True when the palette's window is dark.
bool isDark(const QPalette& palette);
/// A stable colour per holder (pod or claim name): the same pod has the same colour everywhere.
QColor forHolder(const QString& holder, const QPalette& palette);
/// Fill for a device nobody holds.
QColor freeDevice(const QPalette& palette);
/// Heat scale for utilisation in [0, 1]: calm at 0, saturated at 1.
QColor utilisation(double fraction, const QPalette& palette);
/// Text that stays readable on `background`.
QColor textOn(const QColor& background);

} // namespace holder_colors
} // namespace drasim::ui
