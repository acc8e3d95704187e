// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/compare_chart_view.h"

#include <algorithm>

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

#include "ui/charts/time_axis.h"
#include "ui/models/time_text.h"

namespace drasim::ui {

CompareChartView::CompareChartView(QWidget* parent)
    : ChartView(parent)
{
    auto* chart = new QChart();
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    m_x = new TimeAxis(chart);
    m_y = new QValueAxis(chart);
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    m_x->follow(chart);
    setChart(chart);
    followPalette();
    setMinimumHeight(240);
    setSeries(nullptr, {});
}

void CompareChartView::setSeries(const compare::AlignedSeries* series, const QStringList& runNames)
{
    chart()->removeAllSeries();
    m_lines.clear();
    m_hours.clear();
    m_values.clear();
    m_maxX = 1;
    m_maxY = 1;
    if (!series) {
        chart()->setTitle(tr("Choose two runs and a series"));
        resetZoom();
        return;
    }
    const QString metric = QString::fromStdString(series->metric);
    m_percent = metric.startsWith(QLatin1String("utilization"));
    chart()->setTitle(metric);
    m_y->setTitleText(m_percent ? tr("allocated") : QString());
    m_y->setLabelFormat(m_percent ? QStringLiteral("%.0f%%") : QStringLiteral("%g"));
    const double scale = m_percent ? 100.0 : 1.0;
    for (double t : series->times)
        m_hours << t / 3600.0;
    for (size_t run = 0; run < series->values.size(); ++run) {
        QList<QPointF> points;
        const auto& values = series->values[run];
        QList<std::optional<double>> shown(m_hours.size());
        for (size_t t = 0; t < series->times.size() && t < values.size(); ++t) {
            if (!values[t])
                continue; // that run has no sample at this time
            const QPointF p(m_hours[qsizetype(t)], *values[t] * scale);
            shown[qsizetype(t)] = p.y();
            points << p;
            m_maxX = std::max(m_maxX, p.x());
            m_maxY = std::max(m_maxY, p.y());
        }
        auto* line = new QLineSeries(this);
        line->setName(runNames.value(int(run), tr("run %1").arg(run + 1)));
        line->replace(points);
        chart()->addSeries(line);
        colorLine(line, seriesHue(int(run)));
        line->attachAxis(m_x);
        line->attachAxis(m_y);
        m_lines << line;
        m_values << shown;
    }
    resetZoom();
}

void CompareChartView::themeChanged()
{
    for (int run = 0; run < m_lines.size(); ++run)
        colorLine(m_lines[run], seriesHue(run));
}

QList<QPointF> CompareChartView::points(int run) const
{
    return run >= 0 && run < m_lines.size() ? m_lines[run]->points() : QList<QPointF> {};
}

QString CompareChartView::valueText(int run, double x) const
{
    if (run < 0 || run >= m_lines.size())
        return {};
    const QList<QPointF> points = m_lines[run]->points();
    const int i = nearestByX(points, x);
    if (i < 0)
        return {};
    const QString value = m_percent ? QStringLiteral("%1%").arg(points[i].y(), 0, 'f', 1)
                                    : QString::number(points[i].y(), 'g', 6);
    return tr("%1 at %2: %3").arg(m_lines[run]->name(), formatHours(points[i].x()), value);
}

QString CompareChartView::hoverText(const QPointF& value, const QPointF& position) const
{
    Q_UNUSED(position);
    QStringList lines;
    for (int run = 0; run < m_lines.size(); ++run)
        if (const QString text = valueText(run, value.x()); !text.isEmpty())
            lines << text;
    return lines.join(QLatin1Char('\n'));
}

QByteArray CompareChartView::csvText() const
{
    if (m_lines.isEmpty())
        return {};
    QStringList header { QStringLiteral("hours") };
    for (const auto* line : m_lines)
        header << csvField(line->name() + (m_percent ? QStringLiteral(" (%)") : QString()));
    QByteArray text = header.join(QLatin1Char(',')).toUtf8() + '\n';
    for (qsizetype t = 0; t < m_hours.size(); ++t) {
        QStringList row { QString::number(m_hours[t], 'g', 10) };
        for (const auto& values : m_values)
            row << (values[t] ? QString::number(*values[t], 'g', 10) : QString());
        text += row.join(QLatin1Char(',')).toUtf8() + '\n';
    }
    return text;
}

void CompareChartView::fitAxes()
{
    m_x->setRange(0, m_maxX);
    m_y->setRange(0, m_percent ? 100.0 : std::max(1.0, m_maxY * 1.1));
    if (!m_percent)
        m_y->applyNiceNumbers();
}

} // namespace drasim::ui
