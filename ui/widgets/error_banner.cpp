// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/error_banner.h"

#include <QPainter>

#include "ui/models/tone_colors.h"

namespace drasim::ui {

namespace {

constexpr int kMarkWidth = 4; // the solid bar on the left edge

} // namespace

ErrorBanner::ErrorBanner(QWidget* parent)
    : QLabel(parent)
{
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setMargin(6);
    setIndent(kMarkWidth + 4);
    // The window's width is the user's: a long message (a path, a CEL expression without spaces)
    // wraps or is cut, it never widens the window.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setMinimumWidth(1);
}

QColor ErrorBanner::background() const
{
    // A light wash of the error colour: text in WindowText keeps its contrast on it.
    return blend(palette().color(QPalette::Window), toneColor(Tone::Bad, palette()), 0.14);
}

void ErrorBanner::paintEvent(QPaintEvent* event)
{
    {
        QPainter painter(this);
        const QColor bad = toneColor(Tone::Bad, palette());
        const QRectF box = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
        painter.setPen(QPen(blend(palette().color(QPalette::Window), bad, 0.55), 1.0));
        painter.setBrush(background());
        painter.drawRect(box);
        painter.fillRect(QRectF(0, 0, kMarkWidth, height()), bad);
    }
    QLabel::paintEvent(event);
}

} // namespace drasim::ui
