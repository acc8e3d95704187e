// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/frag_chart_view.h"

#include <algorithm>
#include <cmath>

#include <QAreaSeries>
#include <QChart>
#include <QFontMetricsF>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QValueAxis>

namespace drasim::ui {

FragChartView::FragChartView(FragMeasure measure, QWidget* parent)
    : ChartView(parent)
    , m_measure(measure)
{
    auto* chart = new QChart();
    chart->setTitle(measure == FragMeasure::Allocated
            ? tr("GPU allocated, % of GPU capacity (line: median, band: quartiles across seeds)")
            : tr("GPU fragmentation, % of GPU capacity (line: median, band: quartiles across seeds)"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    m_x = new QValueAxis(chart);
    m_x->setTitleText(tr("arrived GPU demand (% of GPU capacity)"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    // Ticks on round values (80, 90, ...) whatever the range starts at (75).
    m_x->setTickType(QValueAxis::TicksDynamic);
    m_x->setTickAnchor(0);
    m_x->setTickInterval(10);
    m_y = new QValueAxis(chart);
    // Short: the plot is low and a long title is cut (the labels and the chart's title give the
    // unit).
    m_y->setTitleText(measure == FragMeasure::Allocated ? tr("allocated") : tr("fragmented"));
    m_y->setLabelFormat(QStringLiteral("%.0f%%")); // the unit on every label: "90%"
    m_y->setTickType(QValueAxis::TicksDynamic);
    m_y->setTickAnchor(0);
    m_y->setTickInterval(5);
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    setChart(chart);
    // The steps that fit depend on the plot's height, which the window decides.
    connect(chart, &QChart::plotAreaChanged, this, &FragChartView::fitYStep);
    followPalette();
    setMinimumHeight(230); // both charts and the controls above fit a 800-pixel window
    fitAxes();
}

void FragChartView::setEmptyText(const QString& text)
{
    if (text == m_emptyText)
        return;
    m_emptyText = text;
    viewport()->update();
}

QString FragChartView::shownEmptyText() const
{
    return m_lines.isEmpty() ? m_emptyText : QString();
}

void FragChartView::drawForeground(QPainter* painter, const QRectF& rect)
{
    ChartView::drawForeground(painter, rect);
    drawPlotAreaText(painter, shownEmptyText());
}

double FragChartView::yTickStep() const
{
    return m_y->tickInterval();
}

double FragChartView::ySpan() const
{
    return m_y->max() - m_y->min();
}

double FragChartView::plotHeight() const
{
    return chart()->plotArea().height();
}

QString FragChartView::xTitle() const
{
    return m_x->titleText();
}

QString FragChartView::yTitle() const
{
    return m_y->titleText();
}

void FragChartView::setCurves(std::vector<FragCurve> curves)
{
    for (QAreaSeries* band : std::as_const(m_bands))
        chart()->removeSeries(band);
    for (QLineSeries* line : std::as_const(m_lines))
        chart()->removeSeries(line);
    qDeleteAll(m_bands);
    qDeleteAll(m_lines);
    m_bands.clear();
    m_lines.clear();
    m_curves = std::move(curves);
    // Bands first, so that every line is drawn over all of them.
    for (const FragCurve& curve : m_curves) {
        auto* lower = new QLineSeries(this);
        lower->replace(curve.lowerQuartile);
        auto* upper = new QLineSeries(this);
        upper->replace(curve.upperQuartile);
        auto* band = new QAreaSeries(upper, lower);
        band->setName(curve.policy + tr(" quartiles"));
        chart()->addSeries(band);
        band->attachAxis(m_x);
        band->attachAxis(m_y);
        m_bands << band;
    }
    for (const FragCurve& curve : m_curves) {
        auto* line = new QLineSeries(this);
        line->setName(curve.policy);
        line->replace(curve.median);
        chart()->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
        m_lines << line;
    }
    // The legend names the policies once: the bands share their line's colour.
    for (QAreaSeries* band : std::as_const(m_bands))
        for (QLegendMarker* marker : chart()->legend()->markers(band))
            marker->setVisible(false);
    styleSeries();
    fitAxes();
}

void FragChartView::fitAxes()
{
    double low = 100, high = 0, left = 130, right = 75;
    bool any = false;
    for (const FragCurve& curve : m_curves) {
        for (const QPointF& p : curve.lowerQuartile) {
            low = std::min(low, p.y());
            left = std::min(left, p.x());
            right = std::max(right, p.x());
            any = true;
        }
        for (const QPointF& p : curve.upperQuartile)
            high = std::max(high, p.y());
    }
    if (!any) {
        m_x->setRange(75, 130);
        m_y->setRange(0, 100);
        m_y->setTickInterval(yStep(100));
        return;
    }
    // Whole multiples of 5 around the data: the curves' differences are a few points wide.
    const double bottom = std::floor(low / 5) * 5;
    m_x->setRange(left, right);
    const double top = std::max(bottom + 5, std::ceil(high / 5) * 5);
    m_y->setRange(bottom, top);
    m_y->setTickInterval(yStep(top - bottom));
}

double FragChartView::yStep(double span) const
{
    // The finest round step whose labels stay a line and a half apart in the plot's height (the
    // charts are low when the window is).
    const double room = std::max(60.0, chart()->plotArea().height());
    const double lines = room / (1.5 * QFontMetricsF(m_y->labelsFont()).height());
    for (double step : { 1.0, 2.0, 5.0, 10.0, 20.0, 25.0 })
        if (span / step <= lines)
            return step;
    return 50.0;
}

void FragChartView::fitYStep()
{
    const double step = yStep(m_y->max() - m_y->min());
    if (step != m_y->tickInterval())
        m_y->setTickInterval(step);
}

void FragChartView::themeChanged()
{
    styleSeries();
}

void FragChartView::styleSeries()
{
    for (int i = 0; i < m_lines.size(); ++i) {
        const QColor color = seriesColor(seriesHue(i), darkChart());
        QPen pen = m_lines[i]->pen();
        pen.setColor(color);
        pen.setWidthF(2.0);
        m_lines[i]->setPen(pen);
        QColor fill = color;
        fill.setAlphaF(0.18);
        m_bands[i]->setBrush(fill);
        m_bands[i]->setPen(Qt::NoPen);
    }
}

QString FragChartView::hoverText(const QPointF& value, const QPointF& position) const
{
    Q_UNUSED(position);
    QStringList lines;
    for (const FragCurve& curve : m_curves) {
        const int i = nearestByX(curve.median, value.x());
        if (i < 0)
            continue;
        if (lines.isEmpty())
            lines << tr("At %1 % arrived:").arg(curve.median[i].x());
        lines << tr("%1: %2 % (quartiles %3-%4)")
                     .arg(curve.policy, QString::number(curve.median[i].y(), 'f', 2),
                         QString::number(curve.lowerQuartile[i].y(), 'f', 2),
                         QString::number(curve.upperQuartile[i].y(), 'f', 2));
    }
    return lines.join(QLatin1Char('\n'));
}

QByteArray FragChartView::csvText() const
{
    if (m_curves.empty())
        return {};
    const QString value
        = m_measure == FragMeasure::Allocated ? QStringLiteral("allocated") : QStringLiteral("fragment");
    QByteArray text = QStringLiteral("policy,arrived_percent,%1_median,%1_q1,%1_q3\n").arg(value).toUtf8();
    for (const FragCurve& curve : m_curves)
        for (qsizetype i = 0; i < curve.median.size(); ++i)
            text += QStringLiteral("%1,%2,%3,%4,%5\n")
                        .arg(csvField(curve.policy), QString::number(curve.median[i].x(), 'g', 10),
                            QString::number(curve.median[i].y(), 'g', 10),
                            QString::number(curve.lowerQuartile[i].y(), 'g', 10),
                            QString::number(curve.upperQuartile[i].y(), 'g', 10))
                        .toUtf8();
    return text;
}

} // namespace drasim::ui
