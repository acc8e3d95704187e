// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/holder_colors.h"

#include <algorithm>

#include <QCryptographicHash>

namespace drasim::ui::holder_colors {

bool isDark(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor forHolder(const QString& holder, const QPalette& palette)
{
    // A hash rather than an index so colours do not shift when other pods come and go.
    const QByteArray h = QCryptographicHash::hash(holder.toUtf8(), QCryptographicHash::Md5);
    const int hue = (uchar(h[0]) << 8 | uchar(h[1])) % 360;
    return isDark(palette) ? QColor::fromHsl(hue, 140, 95) : QColor::fromHsl(hue, 170, 175);
}

QColor freeDevice(const QPalette& palette)
{
    return isDark(palette) ? palette.color(QPalette::Base).lighter(130) : palette.color(QPalette::Base);
}

QColor utilisation(double fraction, const QPalette& palette)
{
    fraction = std::clamp(fraction, 0.0, 1.0);
    // From the base colour through teal to a deep orange: busy nodes stand out, idle ones recede.
    const QColor idle = freeDevice(palette);
    const QColor busy = isDark(palette) ? QColor(214, 110, 40) : QColor(230, 120, 40);
    const QColor mid = isDark(palette) ? QColor(40, 130, 130) : QColor(120, 200, 190);
    auto mix = [](const QColor& a, const QColor& b, double t) {
        return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
            float(a.greenF() + (b.greenF() - a.greenF()) * t),
            float(a.blueF() + (b.blueF() - a.blueF()) * t));
    };
    return fraction < 0.5 ? mix(idle, mid, fraction * 2) : mix(mid, busy, (fraction - 0.5) * 2);
}

QColor textOn(const QColor& background)
{
    return background.lightness() > 140 ? QColor(20, 20, 20) : QColor(240, 240, 240);
}

} // namespace drasim::ui::holder_colors
