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
