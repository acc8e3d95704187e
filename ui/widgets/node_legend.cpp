// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/node_legend.h"

#include <QPaintEvent>
#include <QPainter>
#include <QPainterPath>

#include "ui/models/tone_colors.h"
#include "ui/widgets/holder_colors.h"

namespace drasim::ui {

namespace {
constexpr int kLegendHeight = 22;
constexpr int kInset = 8; ///< the grid's margin (ClusterGridView)
} // namespace

QColor nodeDownFill(const QPalette& pal)
{
    return blend(pal.color(QPalette::Window), pal.color(QPalette::WindowText), 0.22);
}

void drawNodeTaintBadge(QPainter& p, const QRectF& r, int count, const QPalette& pal)
{
    const QColor badge = toneColor(Tone::Warning, pal);
    p.setPen(Qt::NoPen);
    p.setBrush(badge);
    p.drawEllipse(r);
    p.setPen(holder_colors::textOn(badge));
    p.drawText(r, Qt::AlignCenter, count > 0 ? QString::number(count) : QStringLiteral("!"));
}

NodeLegend::NodeLegend(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setToolTip(tr("Tiles are coloured by the share of the node's devices held.<br><b>Down</b>: the node "
                  "failed or its pool was removed.<br><b>Draining</b>: a NoSchedule or NoExecute node taint "
                  "keeps new pods off it.<br><b>Tainted devices</b>: a device taint (DeviceTaint or "
                  "DeviceTaintRule); the badge counts them."));
}

QSize NodeLegend::sizeHint() const
{
    return { 420, kLegendHeight };
}

QSize NodeLegend::minimumSizeHint() const
{
    return { 0, kLegendHeight };
}

void NodeLegend::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    p.setFont(small);
    const QRect area = rect().adjusted(kInset, 0, -kInset, 0); // in line with the grid's first node
    const int box = 14;
    double x = area.left();
    const double y = area.top() + (area.height() - box) / 2.0;
    auto label = [&](const QString& text) {
        p.setPen(pal.color(QPalette::WindowText));
        const int w = p.fontMetrics().horizontalAdvance(text);
        p.drawText(
            QRectF(x + box + 4, area.top(), w + 2, area.height()), Qt::AlignVCenter | Qt::AlignLeft, text);
        x += box + 4 + w + 14;
    };
    for (int i = 0; i <= 4; ++i) { // the scale, idle to fully used
        p.fillRect(QRectF(x + i * 8, y, 8, box), holder_colors::utilisation(i / 4.0, pal));
    }
    p.setPen(pal.color(QPalette::Mid));
    p.drawRect(QRectF(x, y, 40, box));
    x += 40 - box;
    label(tr("held (fullest class)"));
    QPainterPath downBox;
    downBox.addRoundedRect(QRectF(x, y, box, box), 3, 3);
    p.fillPath(downBox, nodeDownFill(pal));
    QColor hatch = holder_colors::textOn(nodeDownFill(pal));
    hatch.setAlpha(70);
    p.fillPath(downBox, QBrush(hatch, Qt::BDiagPattern));
    p.setPen(QPen(toneColor(Tone::Bad, pal), 1.5));
    p.drawPath(downBox);
    label(tr("down"));
    p.setPen(QPen(toneColor(Tone::Warning, pal), 2, Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(QRectF(x + 1, y + 1, box - 2, box - 2), 3, 3);
    label(tr("draining"));
    drawNodeTaintBadge(p, QRectF(x, y, box, box), 0, pal);
    label(tr("tainted devices"));
}

} // namespace drasim::ui
