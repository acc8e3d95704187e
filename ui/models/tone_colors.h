// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QPalette>

namespace drasim::ui {

/// Colours that carry a meaning in tables, labels and banners: a better or matching result, a worse
/// one or an error, a warning or a pending pod, and a line of less interest (a candidate turned
/// away). Each has one shade for light palettes and one for dark ones, chosen so that text in it
/// keeps a WCAG AA contrast (4.5:1) on the palette's Base, AlternateBase and Window. Views ask for
/// a tone instead of naming a colour, so nothing they paint is fixed to one palette.
enum class Tone { Good, Bad, Warning, Muted };

/// The tone's shade for a palette (dark when its Base is).
QColor toneColor(Tone tone, const QPalette& palette);
/// The tone's shade for the application's palette.
QColor toneColor(Tone tone);

/// Chart line hues, in the order lines take them; each has a shade for light charts and one for
/// dark ones, so a line keeps its hue when the theme changes (Qt's chart themes order their
/// colours differently and would swap them).
enum class SeriesHue { Blue, Amber, Green, Purple, Teal, Magenta, Brown, Red };
constexpr int kSeriesHues = 8;

/// The shade of a hue for a light or dark chart.
QColor seriesColor(SeriesHue hue, bool dark);
/// The hue the index-th line of a chart takes (cycling through all hues).
SeriesHue seriesHue(int index);

/// A colour between a (t = 0) and b (t = 1), alpha included.
QColor blend(const QColor& a, const QColor& b, double t);

/// The WCAG 2 contrast ratio of two colours (1 to 21), alpha ignored.
double contrastRatio(const QColor& a, const QColor& b);

} // namespace drasim::ui
