// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QStringList>

#include "core/compare/comparison.h"
#include "ui/charts/chart_view.h"

class QLineSeries;
class QValueAxis;

namespace drasim::ui {

/// One metric of two (or more) runs overlaid on one time axis (hours), a line per run, from
/// core/compare's aligned series. Utilisation ratios are shown in percent. Zoom and export come
/// from ChartView.
class CompareChartView : public ChartView
{
    Q_OBJECT
public:
    explicit CompareChartView(QWidget* parent = nullptr);

    /// Shows `series` with one line per run, named by `runNames`; null clears the chart.
    void setSeries(const compare::AlignedSeries* series, const QStringList& runNames);
    int lineCount() const { return int(m_lines.size()); }
    /// Points of line `run` (hours, value as shown), for tests.
    QList<QPointF> points(int run) const;

protected:
    void fitAxes() override;

private:
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    QList<QLineSeries*> m_lines;
    bool m_percent = false;
    double m_maxX = 1;
    double m_maxY = 1;
};

} // namespace drasim::ui
