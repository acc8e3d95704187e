// SPDX-License-Identifier: Apache-2.0
#include "ui/models/tone_colors.h"

#include <algorithm>
#include <cmath>

#include <QGuiApplication>

namespace drasim::ui {

namespace {

double relativeLuminance(const QColor& c)
{
    auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

} // namespace

QColor toneColor(Tone tone, const QPalette& palette)
{
    // Table cells are painted on Base (and AlternateBase); labels on Window. Both are dark or both
    // light in every palette the application uses.
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    switch (tone) {
    case Tone::Good:
        return dark ? QColor(0x6f, 0xcf, 0x7f) : QColor(0x1b, 0x7a, 0x34);
    case Tone::Bad:
        return dark ? QColor(0xff, 0x7b, 0x72) : QColor(0xc0, 0x1c, 0x28);
    case Tone::Warning:
        return dark ? QColor(0xf0, 0xa0, 0x50) : QColor(0xa6, 0x53, 0x00);
    case Tone::Muted:
        return dark ? QColor(0xa0, 0xa0, 0xa6) : QColor(0x66, 0x66, 0x66);
    }
    return palette.color(QPalette::Text);
}

QColor toneColor(Tone tone)
{
    return toneColor(tone, QGuiApplication::palette());
}

QColor seriesColor(SeriesHue hue, bool dark)
{
    // Dark shades are lighter and a little less saturated, so lines stand out on a dark plot
    // without glaring; light shades are deep enough for a white plot.
    switch (hue) {
    case SeriesHue::Blue:
        return dark ? QColor(0x5a, 0xa9, 0xe6) : QColor(0x1f, 0x6f, 0xb4);
    case SeriesHue::Amber:
        return dark ? QColor(0xf5, 0xa6, 0x4a) : QColor(0xc8, 0x6a, 0x00);
    case SeriesHue::Green:
        return dark ? QColor(0x7c, 0xcf, 0x6a) : QColor(0x2e, 0x8b, 0x2e);
    case SeriesHue::Purple:
        return dark ? QColor(0xa9, 0x8b, 0xf0) : QColor(0x6a, 0x45, 0xc0);
    case SeriesHue::Teal:
        return dark ? QColor(0x3f, 0xc1, 0xb5) : QColor(0x0f, 0x80, 0x78);
    case SeriesHue::Magenta:
        return dark ? QColor(0xec, 0x7c, 0xc8) : QColor(0xb0, 0x30, 0x8c);
    case SeriesHue::Brown:
        return dark ? QColor(0xc9, 0x95, 0x62) : QColor(0x86, 0x56, 0x28);
    case SeriesHue::Red:
        return dark ? QColor(0xf0, 0x72, 0x72) : QColor(0xc0, 0x2a, 0x2a);
    }
    return dark ? QColor(Qt::white) : QColor(Qt::black);
}

SeriesHue seriesHue(int index)
{
    return SeriesHue(((index % kSeriesHues) + kSeriesHues) % kSeriesHues);
}

QColor blend(const QColor& a, const QColor& b, double t)
{
    const auto mix = [t](double x, double y) { return float(x + (y - x) * t); };
    return QColor::fromRgbF(mix(a.redF(), b.redF()), mix(a.greenF(), b.greenF()), mix(a.blueF(), b.blueF()),
        mix(a.alphaF(), b.alphaF()));
}

double contrastRatio(const QColor& a, const QColor& b)
{
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace drasim::ui
