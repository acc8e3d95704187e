// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QChartView>
#include <QString>

class QMenu;

namespace drasim::ui {

/// What every chart of the application shares: zoom with a rubber band (drag a rectangle; reset with
/// a double click, Escape or the context menu), export as PNG or SVG, a context menu that
/// subclasses extend (CSV), and a chart theme that follows the widget's palette (light or dark).
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

Q_SIGNALS:
    void zoomChanged(bool zoomed);

protected:
    /// Called after the zoom is reset: the subclass sets the axes that show all its data.
    virtual void fitAxes() { }
    /// Extra entries of the context menu (after the zoom and image entries).
    virtual void addMenuActions(QMenu& menu) { Q_UNUSED(menu); }
    /// Call once the chart is set: applies the palette's theme; subclasses restyle after it.
    void followPalette();
    virtual void themeChanged() { }

    void changeEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    bool m_zoomed = false;
};

} // namespace drasim::ui
