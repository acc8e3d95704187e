// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdlib>

#include <QColor>
#include <QImage>
#include <QRect>

namespace drasim::ui::testing {

/// Whether some pixel of `area` in `image` (the part inside the image) is within a small
/// distance of `color`: antialiased and dashed lines are found without matching one exact pixel.
inline bool hasColorNear(const QImage& image, const QRect& area, const QColor& color)
{
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x) {
            if (!image.rect().contains(x, y))
                continue;
            const QColor c = image.pixelColor(x, y);
            if (std::abs(c.red() - color.red()) + std::abs(c.green() - color.green())
                    + std::abs(c.blue() - color.blue())
                < 40)
                return true;
        }
    return false;
}

} // namespace drasim::ui::testing
