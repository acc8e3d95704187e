// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/series_chart_view.h"

#include <algorithm>
#include <cmath>

#include <QChart>
#include <QLineSeries>
#include <QMap>
#include <QPainter>
#include <QValueAxis>

#include "ui/charts/time_axis.h"
#include "ui/models/run_series_model.h"
#include "ui/models/time_text.h"

namespace drasim::ui {

SeriesChartView::SeriesChartView(const QString& title, const QString& seriesPrefix, const QString& yTitle,
    bool percent, RunSeriesModel* model, QWidget* parent)
    : ChartView(parent)
    , m_prefix(seriesPrefix)
    , m_percent(percent)
    , m_model(model)
{
    auto* chart = new QChart();
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    m_x = new TimeAxis(chart);
    m_y = new QValueAxis(chart);
    m_y->setTitleText(yTitle);
    m_y->setLabelFormat(percent ? QStringLiteral("%.0f%%") : QStringLiteral("%g"));
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    m_x->setRange(0, 1);
    m_x->follow(chart);
    m_y->setRange(0, percent ? 100 : 1);
    setChart(chart);
    followPalette();
    setMinimumHeight(220);

    for (int i = 0; i < model->seriesNames().size(); ++i)
        addLine(model->seriesNames()[i], i + 1);
    connect(model, &RunSeriesModel::seriesAdded, this, &SeriesChartView::addLine);
    connect(model, &QAbstractItemModel::rowsInserted, this,
        [this](const QModelIndex&, int first, int last) { appendRows(first, last); });
    connect(model, &QAbstractItemModel::modelReset, this, [this]() {
        this->chart()->removeAllSeries();
        m_columns.clear();
        m_lines.clear();
        m_hues.clear();
        m_maxX = 1;
        m_maxY = 1;
        m_shownX = -1;
        m_shownY = -1;
        resetZoom();
    });
}

int SeriesChartView::lineCount() const
{
    return int(m_columns.size());
}

QStringList SeriesChartView::timeTickLabels() const
{
    return m_x->tickLabels();
}

void SeriesChartView::addLine(const QString& name, int column)
{
    if (!name.startsWith(m_prefix) || m_excluded.contains(name))
        return;
    auto* series = new QLineSeries(this);
    const QString label = name.mid(m_prefix.size());
    series->setName(label.isEmpty() ? name : label);
    chart()->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    m_columns << column;
    m_lines << series;
    // Pending and running pods keep the colours of their meaning (warning, good); other lines
    // take hues in the order they appear.
    const QString& shown = series->name();
    m_hues << (shown == QLatin1String("pending") ? SeriesHue::Amber
            : shown == QLatin1String("running")  ? SeriesHue::Green
                                                 : seriesHue(int(m_lines.size()) - 1));
    colorLine(series, m_hues.back());
    // Only the new line gets the rows already in the model (its history, empty when the series
    // appears mid-run); the other lines have them already.
    appendPoints(int(m_lines.size()) - 1, 0, m_model->rowCount() - 1);
    updateAxes(m_model->rowCount() - 1);
}

void SeriesChartView::appendRows(int firstRow, int lastRow)
{
    if (m_lines.isEmpty() && !m_emptyText.isEmpty())
        viewport()->update();
    for (int i = 0; i < m_columns.size(); ++i)
        appendPoints(i, firstRow, lastRow);
    updateAxes(lastRow);
}

void SeriesChartView::appendPoints(int line, int firstRow, int lastRow)
{
    // Points are appended per batch rather than mapped (QVXYModelMapper), because utilisation is a
    // 0..1 ratio in the model and the chart shows percent.
    const double scale = m_percent ? 100.0 : 1.0;
    QList<QPointF> points;
    for (int r = std::max(firstRow, 0); r <= lastRow; ++r) {
        const QVariant v = m_model->index(r, m_columns[line]).data();
        if (!v.isValid())
            continue;
        const double x = m_model->index(r, 0).data().toDouble();
        points.append(QPointF(x, v.toDouble() * scale));
        m_maxY = std::max(m_maxY, v.toDouble() * scale);
    }
    if (points.isEmpty())
        return;
    // replace() redraws the line once; append() redraws it once per point added, which made long
    // runs stall the UI thread for seconds.
    QList<QPointF> all = m_lines[line]->points();
    all += points;
    m_lines[line]->replace(all);
}

void SeriesChartView::setTimeSpan(double hours)
{
    m_span = hours;
    if (!isZoomed())
        fitAxes();
}

void SeriesChartView::updateAxes(int lastRow)
{
    if (lastRow >= 0)
        m_maxX = std::max(m_maxX, m_model->index(lastRow, 0).data().toDouble());
    // Setting a range lays out every tick label again (tens of milliseconds for a chart): only
    // when the data has outgrown what is shown.
    const bool outgrown = m_maxX > m_shownX || (!m_percent && m_maxY > m_shownY);
    if (!isZoomed() && outgrown) // a zoomed chart keeps the window the user chose
        fitAxes();
}

void SeriesChartView::themeChanged()
{
    for (int i = 0; i < m_lines.size(); ++i)
        colorLine(m_lines[i], m_hues[i]);
}

void SeriesChartView::fitAxes()
{
    m_shownX = std::max(m_maxX, m_span);
    m_x->setRange(0, m_shownX);
    if (m_percent) {
        m_y->setRange(0, 100.0);
        return;
    }
    // Headroom above the highest value, so a growing line does not relayout the axis each batch.
    m_y->setRange(0, std::max(1.0, m_maxY * 1.25));
    m_y->applyNiceNumbers(); // round tick labels (0, 20, 40...) instead of range fifths
    m_shownY = m_y->max();
}

QString SeriesChartView::valueText(int line, double x) const
{
    if (line < 0 || line >= m_lines.size() || m_lines[line]->count() == 0)
        return {};
    const QList<QPointF> points = m_lines[line]->points(); // sorted by time
    const auto it = points.begin() + nearestByX(points, x);
    const QString value
        = m_percent ? QStringLiteral("%1%").arg(it->y(), 0, 'f', 1) : QString::number(it->y(), 'g', 6);
    return tr("%1 at %2: %3").arg(m_lines[line]->name(), formatHours(it->x()), value);
}

void SeriesChartView::setEventMarks(QList<EventMark> marks)
{
    std::stable_sort(
        marks.begin(), marks.end(), [](const EventMark& a, const EventMark& b) { return a.hours < b.hours; });
    m_marks = marks;
    m_markLines.clear();
    QMap<QString, int> kinds; // of the line being built: kind → events
    auto label = [&kinds]() {
        QStringList parts;
        for (auto it = kinds.begin(); it != kinds.end(); ++it)
            parts << (it.value() > 1 ? QStringLiteral("%1 ×%2").arg(it.key()).arg(it.value()) : it.key());
        return parts.join(QStringLiteral(", "));
    };
    for (const auto& mark : marks) {
        if (m_markLines.isEmpty() || m_markLines.back().hours != mark.hours) {
            if (!m_markLines.isEmpty())
                m_markLines.back().label = label();
            kinds.clear();
            m_markLines << MarkLine { mark.hours, {}, {} };
        }
        ++kinds[mark.kind];
        m_markLines.back().details << QStringLiteral("%1 %2").arg(mark.kind, mark.subject).trimmed();
    }
    if (!m_markLines.isEmpty())
        m_markLines.back().label = label();
    viewport()->update();
}

QString SeriesChartView::markLabel(double hours) const
{
    for (const auto& line : m_markLines)
        if (line.hours == hours)
            return line.label;
    return {};
}

double SeriesChartView::viewportX(double hours) const
{
    const QRectF plot = chart()->mapRectToScene(chart()->plotArea());
    const double x = plot.left() + plot.width() * (hours - m_x->min()) / (m_x->max() - m_x->min());
    return mapFromScene(QPointF(x, plot.top())).x();
}

QString SeriesChartView::shownEmptyText() const
{
    return m_lines.isEmpty() && m_model->rowCount() > 0 ? m_emptyText : QString();
}

void SeriesChartView::drawForeground(QPainter* painter, const QRectF& rect)
{
    ChartView::drawForeground(painter, rect);
    drawPlotAreaText(painter, shownEmptyText());
    if (m_markLines.isEmpty())
        return;
    const QRectF plot = chart()->mapRectToScene(chart()->plotArea());
    const QColor color = toneColor(Tone::Bad, palette());
    painter->save();
    painter->setClipRect(plot);
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.8);
    painter->setFont(small);
    for (const auto& mark : m_markLines) {
        if (mark.hours < m_x->min() || mark.hours > m_x->max())
            continue;
        const double x = plot.left() + plot.width() * (mark.hours - m_x->min()) / (m_x->max() - m_x->min());
        painter->setPen(QPen(color, 1.5, Qt::DashLine));
        painter->drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        // The label runs down along the line, so marks an hour apart do not write over each other.
        painter->save();
        painter->translate(x + 3, plot.top() + 4);
        painter->rotate(90);
        painter->setPen(color);
        painter->drawText(QPointF(0, 0), mark.label);
        painter->restore();
    }
    painter->restore();
}

QString SeriesChartView::hoverText(const QPointF& value, const QPointF& position) const
{
    Q_UNUSED(position);
    QStringList lines;
    // An event mark within 1 % of the span from the mouse is named first.
    const double near = (m_x->max() - m_x->min()) / 100.0;
    for (const auto& mark : m_markLines)
        if (std::abs(mark.hours - value.x()) <= near)
            lines << tr("At %1: %2").arg(formatHours(mark.hours), mark.details.join(QStringLiteral(", ")));
    for (int line = 0; line < m_lines.size(); ++line)
        if (const QString text = valueText(line, value.x()); !text.isEmpty())
            lines << text;
    return lines.join(QLatin1Char('\n'));
}

QByteArray SeriesChartView::csvText() const
{
    if (m_lines.isEmpty())
        return {};
    QStringList header { QStringLiteral("hours") };
    for (const auto* line : m_lines)
        header << csvField(line->name() + (m_percent ? QStringLiteral(" (%)") : QString()));
    QByteArray text = header.join(QLatin1Char(',')).toUtf8() + '\n';
    const double scale = m_percent ? 100.0 : 1.0;
    for (int r = 0; r < m_model->rowCount(); ++r) {
        QStringList row { QString::number(m_model->index(r, 0).data().toDouble(), 'g', 10) };
        for (int column : m_columns) {
            const QVariant v = m_model->index(r, column).data();
            row << (v.isValid() ? QString::number(v.toDouble() * scale, 'g', 10) : QString());
        }
        text += row.join(QLatin1Char(',')).toUtf8() + '\n';
    }
    return text;
}

} // namespace drasim::ui
