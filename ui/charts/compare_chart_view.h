// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>

#include <QList>
#include <QStringList>

#include "core/compare/comparison.h"
#include "ui/charts/chart_view.h"

class QLineSeries;
class QValueAxis;

namespace drasim::ui {

class TimeAxis;

/// One metric of two (or more) runs overlaid on one time axis (hours), a line per run, from
/// core/compare's aligned series. Utilisation ratios are shown in percent. Hovering shows each
/// run's value at the time under the mouse; zoom and export (PNG, SVG, the aligned series as CSV)
/// come from ChartView.
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
    /// "baseline at 12h30m: 42" for the sample of run `run` nearest to x (hours); empty without one.
    QString valueText(int run, double x) const;

protected:
    void fitAxes() override;
    /// Gives every run's line back its hue after the theme recoloured them.
    void themeChanged() override;
    QString hoverText(const QPointF& value, const QPointF& position) const override;
    /// "hours" then one column per run (values as shown), one row per aligned sample time; a run
    /// without a sample at that time leaves its field empty.
    QByteArray csvText() const override;

private:
    TimeAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    QList<QLineSeries*> m_lines;
    QList<double> m_hours; ///< the aligned sample times
    QList<QList<std::optional<double>>> m_values; ///< [run][time], as shown
    bool m_percent = false;
    double m_maxX = 1;
    double m_maxY = 1;
};

} // namespace drasim::ui
