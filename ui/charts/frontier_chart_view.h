// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>

#include "ui/charts/chart_view.h"

class QLineSeries;
class QScatterSeries;
class QValueAxis;
class QXYSeries;

namespace drasim::ui {

class PlanMixesModel;
class TimeAxis;

/// The study at one load level as cost against the main service level (worst seed): every mix
/// evaluated (those that missed a level greyed), the frontier as a line through every mix no
/// cheaper mix beats (those missing a level ringed in the "bad" tone), the recommendation marked, the level
/// itself as a dashed line, and the mixes whose value lies beyond the chart's top marked there with a
/// triangle. Waits read as every view writes a duration ("30m", "1h"). Hovering a marker names the mix and
/// its real value; the CSV export lists every mix with its role. Reads the roles of a PlanMixesModel and
/// redraws when it resets.
class FrontierChartView : public ChartView
{
    Q_OBJECT
public:
    explicit FrontierChartView(PlanMixesModel* model, QWidget* parent = nullptr);

    /// Points per series, for tests: evaluated mixes that met every level, missed, frontier,
    /// recommended.
    int metCount() const;
    int missedCount() const;
    int frontierCount() const;
    /// Frontier mixes that miss a level (ringed).
    int frontierMissedCount() const;
    int recommendedCount() const;
    /// Mixes whose value is beyond the chart's top, drawn at it.
    int clippedCount() const;
    /// The service level's line: its value (axis units), or -1 when none is drawn.
    double levelLine() const;
    QString chartTitle() const;
    QString xTitle() const;
    /// The y title as drawn: the level's name, elided in its middle when longer than the plot
    /// area is high (the Loads table names it whole).
    QString yTitle() const;
    /// The level's name the y title stands for, whole.
    QString yTitleWhole() const { return m_yTitle; }
    /// The y axis' labels when it shows a time (a wait: "0s", "30m", "1h"), left to right;
    /// empty when it shows a percentage.
    QStringList yTimeLabels() const;
    /// The x axis' tick label format ("%g" for a small range: no "0 1 1 2").
    QString xLabelFormat() const;
    /// "h100=2 l40s=0: $746,000, longest pending 12 min" for a model row.
    QString pointText(int row) const;

protected:
    void fitAxes() override;
    void themeChanged() override;
    /// pointText() of the marker nearest to the mouse, when one is within a few pixels.
    QString hoverText(const QPointF& value, const QPointF& position) const override;
    /// One row per mix: the mix, its cost in USD, the main level on its worst seed (the unit of
    /// the y axis, not cut at the chart's top), and whether it meets every level, lies on the
    /// frontier and is recommended.
    QByteArray csvText() const override;

private:
    void rebuild();
    void styleSeries();
    /// Puts `y` on the chart's left, in place of the other value axis, with every series on it.
    void useValueAxis(QValueAxis* y);
    /// Sets the y title from m_yTitle, cut to the plot area's height (a rotated title longer
    /// than it would be clipped at both ends).
    void fitYTitle();

    PlanMixesModel* m_model;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr; ///< the one of the two below now on the chart
    QString m_yTitle;
    QValueAxis* m_percentY = nullptr;
    TimeAxis* m_waitY = nullptr; ///< values in minutes, labelled as every view writes a duration
    QScatterSeries* m_met = nullptr;
    QScatterSeries* m_missed = nullptr;
    QLineSeries* m_frontier = nullptr;
    QScatterSeries* m_frontierMissed = nullptr;
    QScatterSeries* m_recommended = nullptr;
    QScatterSeries* m_clipped = nullptr;
    QLineSeries* m_level = nullptr;
    double m_limit = -1; ///< the main level's bound (axis units), -1 without a study
    QList<int> m_metRows;
    QList<int> m_missedRows;
    QList<int> m_recommendedRows;
    QList<int> m_clippedRows;
    double m_top = 1; ///< top of the value window (LevelAxis units)
};

} // namespace drasim::ui
