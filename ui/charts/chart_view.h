// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>

#include <QChartView>
#include <QMargins>
#include <QString>

#include "ui/models/tone_colors.h"

class QMenu;

namespace drasim::ui {

/// What every chart of the application shares: the values under the mouse in a tooltip, zoom with a
/// rubber band (drag a rectangle; reset with a double click, Escape or the context menu), export as
/// PNG, SVG or (when the subclass gives its data) CSV, a context menu that subclasses extend, and a
/// chart theme that follows the widget's palette (light or dark).
class ChartView : public QChartView
{
    Q_OBJECT
public:
    explicit ChartView(QWidget* parent = nullptr);

    /// Zooms into a rectangle of the plot area (widget coordinates), as a rubber band does.
    void zoomTo(const QRectF& plotRect);
    /// Back to the axes that show all the data.
    void resetZoom();
    bool isZoomed() const;

    /// The chart as a file: SVG (vector, through QSvgGenerator) when the name ends in .svg,
    /// otherwise a bitmap whose format follows the suffix (PNG). False with `error` filled when
    /// the file cannot be written.
    bool exportImage(const QString& file, QString* error = nullptr);
    /// The chart's data as CSV (csvText()). False with `error` filled when the chart has no data
    /// to export or the file cannot be written.
    bool exportCsv(const QString& file, QString* error = nullptr) const;
    /// What hovering shows with the mouse at `viewportPos`: the values under it; empty outside
    /// the plot area or where there is nothing to tell.
    QString hoverTextAt(const QPoint& viewportPos) const;
    /// Lays the legend out so that no label is cut short: one row under the plot while every label
    /// fits in it whole, otherwise as many rows as the labels need (long device model names).
    /// Runs by itself whenever the chart changes (series added, view resized).
    void fitLegend();

Q_SIGNALS:
    void zoomChanged(bool zoomed);

protected:
    /// Called after the zoom is reset: the subclass sets the axes that show all its data.
    virtual void fitAxes() { }
    /// Extra entries of the context menu (after the zoom and image entries).
    virtual void addMenuActions(QMenu& menu) { Q_UNUSED(menu); }
    /// The values at `value` (the axes' units of the chart's first series), for the tooltip;
    /// `position` is the same point in chart coordinates, for "nearest marker" lookups.
    virtual QString hoverText(const QPointF& value, const QPointF& position) const
    {
        Q_UNUSED(value);
        Q_UNUSED(position);
        return {};
    }
    /// The data as CSV, header line first, values as shown; empty: no CSV export.
    virtual QByteArray csvText() const { return {}; }
    /// One CSV field, quoted when it holds a comma, a quote or a line break.
    static QString csvField(QString text);
    /// Index of the point of `points` (sorted by x) nearest to x, or -1 when there is none.
    static int nearestByX(const QList<QPointF>& points, double x);
    /// Call once the chart is set: applies the palette's theme; subclasses restyle after it.
    void followPalette();
    virtual void themeChanged() { }
    /// Whether the chart follows a dark palette (its window background is dark).
    bool darkChart() const;
    /// Gives a line its hue's shade for the current theme (kept across light and dark).
    void colorLine(QAbstractSeries* line, SeriesHue hue) const;
    /// Writes `text` centred over the plot area in the palette's placeholder colour, as an empty
    /// chart says why it is empty (from drawForeground); nothing when `text` is empty.
    void drawPlotAreaText(QPainter* painter, const QString& text);

    void changeEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    bool m_zoomed = false;
    std::optional<QMargins> m_baseMargins; // the chart's margins without room for a wrapped legend
};

} // namespace drasim::ui
