// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCategoryAxis>

#include "core/sim/sim_time.h"

class QChart;

namespace drasim::ui {

/// A chart's time axis: values in hours since the start of the run (what the lines are drawn in),
/// labels as every view writes a time ("6h", "1d", "1d12h", "7d"), at round steps that suit the
/// range shown and the plot's width (ui/models/time_ticks.h), made again when either changes
/// (a zoom, a longer run, a resized window). Placed on the left or right it reads durations
/// the same way (a wait axis), spacing its labels by the plot's height.
class TimeAxis : public QCategoryAxis
{
    Q_OBJECT
public:
    explicit TimeAxis(QObject* parent = nullptr);

    /// The time one unit of the axis' values stands for (an hour unless set; a minute for an
    /// axis of waits drawn in minutes).
    void setUnit(sim::SimTime unit);
    /// Starts following `chart`'s plot width (call after chart->addAxis(this)).
    void follow(QChart* chart);
    /// The labels now shown, left to right.
    QStringList tickLabels() const { return m_labels; }

private:
    void relabel();

    QChart* m_chart = nullptr;
    sim::SimTime m_unit = sim::kHour;
    QStringList m_labels; ///< as appended (QCategoryAxis::categoriesLabels() is not const)
    double m_labelledMin = -1;
    double m_labelledMax = -1;
    double m_labelledWidth = -1;
};

} // namespace drasim::ui
