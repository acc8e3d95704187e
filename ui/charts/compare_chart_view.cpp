// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/compare_chart_view.h"

#include <algorithm>

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

namespace drasim::ui {

CompareChartView::CompareChartView(QWidget* parent)
    : ChartView(parent)
{
    auto* chart = new QChart();
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    m_x = new QValueAxis(chart);
    m_x->setTitleText(tr("simulated hours"));
    m_x->setLabelFormat(QStringLiteral("%g"));
    m_y = new QValueAxis(chart);
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    setChart(chart);
    followPalette();
    setMinimumHeight(240);
    setSeries(nullptr, {});
}

void CompareChartView::setSeries(const compare::AlignedSeries* series, const QStringList& runNames)
{
    chart()->removeAllSeries();
    m_lines.clear();
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
    for (size_t run = 0; run < series->values.size(); ++run) {
        QList<QPointF> points;
        const auto& values = series->values[run];
        for (size_t t = 0; t < series->times.size() && t < values.size(); ++t) {
            if (!values[t])
                continue; // that run has no sample at this time
            const QPointF p(series->times[t] / 3600.0, *values[t] * scale);
            points << p;
            m_maxX = std::max(m_maxX, p.x());
            m_maxY = std::max(m_maxY, p.y());
        }
        auto* line = new QLineSeries(this);
        line->setName(runNames.value(int(run), tr("run %1").arg(run + 1)));
        line->replace(points);
        chart()->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
        m_lines << line;
    }
    resetZoom();
}

QList<QPointF> CompareChartView::points(int run) const
{
    return run >= 0 && run < m_lines.size() ? m_lines[run]->points() : QList<QPointF> {};
}

void CompareChartView::fitAxes()
{
    m_x->setRange(0, m_maxX);
    m_y->setRange(0, m_percent ? 100.0 : std::max(1.0, m_maxY * 1.1));
    if (!m_percent)
        m_y->applyNiceNumbers();
}

} // namespace drasim::ui
