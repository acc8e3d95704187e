// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

class QPainter;

namespace drasim::ui {

/// The fill of a node that is down: the window's colour, a step towards its text.
QColor nodeDownFill(const QPalette& pal);

/// The badge of a node with tainted devices, counting them ("!" for the legend's sample).
void drawNodeTaintBadge(QPainter& p, const QRectF& r, int count, const QPalette& pal);

/// What the Topology grid's looks mean, in one line: the utilisation scale, then down, draining
/// and tainted devices. A widget of its own above the grid's scroll area, so it stays in sight
/// however far a heat map of thousands of nodes is scrolled; hovering explains each look.
class NodeLegend : public QWidget
{
    Q_OBJECT
public:
    explicit NodeLegend(QWidget* parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
};

} // namespace drasim::ui
