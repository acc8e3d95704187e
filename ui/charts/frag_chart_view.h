// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include <QList>

#include "ui/charts/chart_view.h"
#include "ui/models/frag_curves.h"

class QAreaSeries;
class QLineSeries;
class QValueAxis;

namespace drasim::ui {

/// A fragmentation study as % of the GPU capacity (allocated, or fragmented) against the arrived
/// GPU demand: one line per policy (the median across seeds) over a faint band between the
/// quartiles. Hovering lists every policy's median at the arrived % under the mouse; the CSV
/// export gives median and quartiles.
class FragChartView : public ChartView
{
    Q_OBJECT
public:
    explicit FragChartView(FragMeasure measure, QWidget* parent = nullptr);

    /// Replaces the curves (empty: an empty chart).
    void setCurves(std::vector<FragCurve> curves);

    /// The median lines, in the study's order of policies (named after them), for tests.
    QList<QLineSeries*> lines() const { return m_lines; }
    /// The quartile bands, one per line.
    QList<QAreaSeries*> bands() const { return m_bands; }
    /// Said over the plot while there are no curves ("Run draws one line per policy here").
    void setEmptyText(const QString& text);
    /// The text shown over the plot now: empty once curves are drawn.
    QString shownEmptyText() const;
    /// The y axis' tick step now (percentage points).
    double yTickStep() const;
    /// The y axis' range now (percentage points from bottom to top).
    double ySpan() const;
    /// The plot's height in pixels now.
    double plotHeight() const;
    QString xTitle() const;
    QString yTitle() const;

protected:
    void fitAxes() override;
    void themeChanged() override;
    QString hoverText(const QPointF& value, const QPointF& position) const override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    /// One row per policy and arrived %: median, lower and upper quartile.
    QByteArray csvText() const override;

private:
    void styleSeries();
    /// The y axis' tick step for a span of `span` percentage points in the plot's height.
    double yStep(double span) const;
    /// The step for the range shown, again (after the plot's height changed).
    void fitYStep();

    FragMeasure m_measure;
    std::vector<FragCurve> m_curves;
    QString m_emptyText;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    QList<QLineSeries*> m_lines;
    QList<QAreaSeries*> m_bands;
};

} // namespace drasim::ui
