// SPDX-License-Identifier: Apache-2.0
#include "ui/charts/time_axis.h"

#include <cmath>
#include <utility>

#include <QChart>
#include <QFontMetricsF>
#include <QRectF>

#include "ui/models/time_ticks.h"

namespace drasim::ui {

TimeAxis::TimeAxis(QObject* parent)
    : QCategoryAxis(parent)
{
    setTitleText(tr("time since the start"));
    // A label at its tick, not in the middle of the span between two.
    setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    connect(this, &QValueAxis::rangeChanged, this, &TimeAxis::relabel);
}

void TimeAxis::setUnit(sim::SimTime unit)
{
    m_unit = unit > 0 ? unit : sim::kHour;
    m_labelledMin = m_labelledMax = -1;
    relabel();
}

void TimeAxis::follow(QChart* chart)
{
    m_chart = chart;
    connect(chart, &QChart::plotAreaChanged, this, &TimeAxis::relabel);
    relabel();
}

void TimeAxis::relabel()
{
    // Along the axis: the plot's width under or over it, its height beside it.
    const bool vertical = orientation() == Qt::Vertical;
    const QRectF plot = m_chart ? m_chart->plotArea() : QRectF(0, 0, 600, 300);
    const double width = vertical ? plot.height() : plot.width();
    // Labelling again moves nothing the user sees unless the range or the width did; skipping it
    // also ends the loop a new label's size could start through plotAreaChanged.
    if (min() == m_labelledMin && max() == m_labelledMax && std::abs(width - m_labelledWidth) < 8)
        return;
    m_labelledMin = min();
    m_labelledMax = max();
    m_labelledWidth = width;
    for (const QString& label : std::as_const(m_labels))
        remove(label);
    m_labels.clear();
    const auto ms = [this](double units) { return sim::SimTime(std::llround(units * double(m_unit))); };
    const QFontMetricsF metrics(labelsFont());
    const double labelPx
        = vertical ? 2.5 * metrics.height() : metrics.horizontalAdvance(QStringLiteral("88d88h")) + 16;
    // The first category starts where the axis does; each label stands at its category's end.
    setStartValue(min());
    for (const TimeTick& tick : timeTicksBetween(ms(min()), ms(max()), width, labelPx)) {
        append(tick.label, double(tick.time) / double(m_unit));
        m_labels << tick.label;
    }
}

} // namespace drasim::ui
