// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/chart_view.h"

#include <algorithm>
#include <cmath>

#include <QBuffer>
#include <QChart>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QImageWriter>
#include <QKeyEvent>
#include <QLegend>
#include <QLegendMarker>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QToolTip>
#include <QXYSeries>

namespace drasim::ui {

ChartView::ChartView(QWidget* parent)
    : QChartView(parent)
{
    setRubberBand(QChartView::RectangleRubberBand);
    setRenderHint(QPainter::Antialiasing);
    setFocusPolicy(Qt::ClickFocus); // Escape resets the zoom of the chart clicked last
    viewport()->setMouseTracking(true); // hover values follow the mouse without a button held
    // Series come and go and the view is resized: the legend is placed again after each change.
    connect(scene(), &QGraphicsScene::changed, this, &ChartView::fitLegend);
}

void ChartView::zoomTo(const QRectF& plotRect)
{
    if (!chart() || plotRect.width() < 1 || plotRect.height() < 1)
        return;
    chart()->zoomIn(plotRect);
    if (!m_zoomed) {
        m_zoomed = true;
        Q_EMIT zoomChanged(true);
    }
}

void ChartView::resetZoom()
{
    if (!chart())
        return;
    chart()->zoomReset();
    fitAxes(); // data may have grown since the zoom began
    if (m_zoomed) {
        m_zoomed = false;
        Q_EMIT zoomChanged(false);
    }
}

bool ChartView::isZoomed() const
{
    return m_zoomed;
}

bool ChartView::exportImage(const QString& file, QString* error)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (QFileInfo(file).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0) {
        // Vector output: the scene is painted again onto an SVG generator, so lines and text stay
        // sharp at any size.
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size());
        svg.setViewBox(QRect(QPoint(0, 0), size()));
        svg.setTitle(chart() ? chart()->title() : QString());
        svg.setDescription(tr("Chart exported by drasim"));
        QPainter painter(&svg);
        render(&painter, QRectF(QPointF(0, 0), QSizeF(size())), viewport()->rect());
        painter.end();
    } else {
        QImageWriter writer(&buffer, QFileInfo(file).suffix().toLatin1());
        if (!writer.write(grab().toImage())) {
            if (error)
                *error = writer.errorString();
            return false;
        }
    }
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size() || !out.commit()) {
        if (error)
            *error = out.errorString();
        return false;
    }
    return true;
}

bool ChartView::exportCsv(const QString& file, QString* error) const
{
    const QByteArray text = csvText();
    if (text.isEmpty()) {
        if (error)
            *error = tr("the chart has no data to export");
        return false;
    }
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Text) || out.write(text) != text.size()
        || !out.commit()) {
        if (error)
            *error = out.errorString();
        return false;
    }
    return true;
}

QString ChartView::csvField(QString text)
{
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"'))
        || text.contains(QLatin1Char('\n')))
        text = QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    return text;
}

int ChartView::nearestByX(const QList<QPointF>& points, double x)
{
    if (points.isEmpty())
        return -1;
    auto it = std::lower_bound(
        points.begin(), points.end(), x, [](const QPointF& p, double v) { return p.x() < v; });
    if (it == points.end() || (it != points.begin() && x - (it - 1)->x() < it->x() - x))
        --it;
    return int(it - points.begin());
}

QString ChartView::hoverTextAt(const QPoint& viewportPos) const
{
    if (!chart() || chart()->series().isEmpty())
        return {};
    const QPointF position = chart()->mapFromScene(mapToScene(viewportPos));
    if (!chart()->plotArea().contains(position))
        return {};
    return hoverText(chart()->mapToValue(position), position);
}

bool ChartView::darkChart() const
{
    return palette().color(QPalette::Window).lightness() < 128;
}

void ChartView::colorLine(QAbstractSeries* line, SeriesHue hue) const
{
    auto* xy = qobject_cast<QXYSeries*>(line);
    if (!xy)
        return;
    QPen pen = xy->pen();
    pen.setColor(seriesColor(hue, darkChart()));
    xy->setPen(pen);
}

void ChartView::drawPlotAreaText(QPainter* painter, const QString& text)
{
    if (text.isEmpty())
        return;
    painter->save();
    painter->setPen(palette().color(QPalette::PlaceholderText));
    painter->drawText(chart()->mapRectToScene(chart()->plotArea()), Qt::AlignCenter, text);
    painter->restore();
}

void ChartView::followPalette()
{
    // A dark window background means a dark palette: use the matching chart theme, so axes, grid
    // and labels stay readable. The theme also recolours the lines in its own colour order:
    // subclasses give them back their fixed hues in themeChanged().
    if (!chart())
        return;
    const bool dark = darkChart();
    const auto theme = dark ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (chart()->theme() != theme) {
        chart()->setTheme(theme);
        themeChanged();
    }
    // The theme paints its own background; the palette's keeps charts part of the page.
    chart()->setBackgroundBrush(palette().color(QPalette::Base));
}

void ChartView::fitLegend()
{
    if (!chart() || !chart()->legend()->isVisible())
        return;
    QLegend* legend = chart()->legend();
    if (!m_baseMargins)
        m_baseMargins = chart()->margins();
    const QMargins base = *m_baseMargins;
    // Rows as the legend fills them: a marker takes its label, a square as high as the text and
    // spacing (estimated a little wide, so the rows counted are never fewer than the rows laid out).
    const QFontMetricsF metrics(legend->font());
    const qreal room = chart()->size().width() - base.left() - base.right();
    int rows = 1;
    qreal x = 0;
    for (const QLegendMarker* marker : legend->markers()) {
        if (!marker->isVisible())
            continue;
        const qreal width = metrics.horizontalAdvance(marker->label()) + metrics.height() + 20;
        if (x > 0 && x + width > room - 16) {
            ++rows;
            x = 0;
        }
        x += width;
    }
    if (rows == 1) {
        if (!legend->isAttachedToChart()) {
            legend->attachToChart();
            legend->setAlignment(Qt::AlignBottom);
            chart()->setMargins(base);
        }
        return;
    }
    // Attached under the plot the legend keeps one row and cuts labels short; detached, it wraps
    // them into rows in the band the bottom margin leaves free.
    const qreal height = rows * (metrics.height() + 10) + 8;
    QMargins margins = base;
    margins.setBottom(base.bottom() + int(std::ceil(height)));
    if (chart()->margins() != margins)
        chart()->setMargins(margins);
    if (legend->isAttachedToChart()) {
        legend->detachFromChart();
        legend->setAlignment(Qt::AlignTop); // detached, rows fill from the top of the band down
    }
    // Qt flows the detached legend's markers a little wider than their labels measure: the band
    // keeps a marker's worth of slack on the right so the last one on a row is not cut.
    const QRectF band(base.left(), chart()->size().height() - base.bottom() - height, room - 24, height);
    if (legend->geometry() != band)
        legend->setGeometry(band);
}

void ChartView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        followPalette();
    QChartView::changeEvent(event);
}

void ChartView::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    auto* reset = menu.addAction(tr("Reset zoom"), this, &ChartView::resetZoom);
    reset->setEnabled(m_zoomed);
    menu.addSeparator();
    const QString title = chart() ? chart()->title() : QString();
    auto exportAs = [this, title](const QString& suffix, const QString& filter) {
        const QString file = QFileDialog::getSaveFileName(
            this, tr("Export chart"), title + QLatin1Char('.') + suffix, filter);
        QString error;
        if (!file.isEmpty() && !exportImage(file, &error))
            QMessageBox::warning(this, tr("Export chart"), tr("Could not write %1: %2").arg(file, error));
    };
    menu.addAction(tr("Export as PNG…"), this,
        [exportAs]() { exportAs(QStringLiteral("png"), tr("PNG image (*.png)")); });
    menu.addAction(tr("Export as SVG…"), this,
        [exportAs]() { exportAs(QStringLiteral("svg"), tr("SVG image (*.svg)")); });
    if (!csvText().isEmpty())
        menu.addAction(tr("Export data as CSV…"), this, [this, title]() {
            const QString file = QFileDialog::getSaveFileName(
                this, tr("Export chart data"), title + QStringLiteral(".csv"), tr("CSV (*.csv)"));
            QString error;
            if (!file.isEmpty() && !exportCsv(file, &error))
                QMessageBox::warning(
                    this, tr("Export chart data"), tr("Could not write %1: %2").arg(file, error));
        });
    addMenuActions(menu);
    menu.exec(event->globalPos());
}

void ChartView::mouseMoveEvent(QMouseEvent* event)
{
    QChartView::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton)
        return; // a rubber band is being drawn
    const QString text = hoverTextAt(event->position().toPoint());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void ChartView::mouseReleaseEvent(QMouseEvent* event)
{
    // A right click opens the context menu; QChartView would also zoom out on its release.
    if (event->button() == Qt::RightButton) {
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event); // a rubber band ends here and zooms the chart
    if (chart() && chart()->isZoomed() && !m_zoomed) {
        m_zoomed = true;
        Q_EMIT zoomChanged(true);
    }
}

void ChartView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && m_zoomed) {
        resetZoom();
        event->accept();
        return;
    }
    QChartView::mouseDoubleClickEvent(event);
}

void ChartView::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape && m_zoomed) {
        resetZoom();
        event->accept();
        return;
    }
    QChartView::keyPressEvent(event);
}

} // namespace drasim::ui
