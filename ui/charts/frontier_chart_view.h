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

/// The study at one load level as cost against the main service level (worst seed): every mix
/// evaluated (those that missed a level greyed), the frontier as a line, the recommendation
/// marked. Hover names the mix. Reads the roles of a PlanMixesModel and redraws when it resets.
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
    int recommendedCount() const;
    /// "h100=2 l40s=0: $746,000, longest pending 12 min" for a model row.
    QString pointText(int row) const;

protected:
    void fitAxes() override;
    void themeChanged() override;

private:
    void rebuild();
    void styleSeries();
    void hover(QXYSeries* series, const QList<int>& rows, const QPointF& point, bool state);

    PlanMixesModel* m_model;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    QScatterSeries* m_met = nullptr;
    QScatterSeries* m_missed = nullptr;
    QLineSeries* m_frontier = nullptr;
    QScatterSeries* m_recommended = nullptr;
    QList<int> m_metRows;
    QList<int> m_missedRows;
    QList<int> m_recommendedRows;
    double m_top = 1; ///< top of the value window (LevelAxis units)
};

} // namespace drasim::ui
