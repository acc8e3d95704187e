// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <vector>

#include <QWidget>

#include "ui/models/pod_replay.h"
#include "ui/models/time_ticks.h"

namespace drasim::ui {

/// The whole run at a glance above the scrubber: running and pending pods over time as two
/// areas, time ticks that suit its length (days, hours or minutes), the scenario's injected events (node
/// failures, taints) as dashed marks, and a line at the current time. Clicking or dragging asks to move
/// there.
class TimelineStrip : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineStrip(QWidget* parent = nullptr);

    void setCounts(std::vector<PodReplay::Counts> counts, sim::SimTime end);
    /// The run's exact peaks, named in the corner (the outline's samples can miss an instant).
    void setPeaks(PodReplay::Peaks peaks);
    /// What the corner says: "peak 59 pending · 60 running".
    QString peakText() const;
    void setTime(sim::SimTime t);
    /// The times of the events the scenario injected into the cluster.
    void setMarks(std::vector<sim::SimTime> marks);
    const std::vector<sim::SimTime>& marks() const { return m_marks; }
    /// The times pods were chosen as preemption victims (once per instant: a gang's victims go
    /// together), marked by a triangle on the top edge and named in the legend.
    void setPreemptions(std::vector<sim::SimTime> times);
    const std::vector<sim::SimTime>& preemptions() const { return m_preemptions; }
    /// Where a preemption's triangle points to, in widget coordinates (its tip on the plot's top).
    QPointF preemptionTip(sim::SimTime t) const;
    /// The axis ticks at the strip's width: at least one label's width apart.
    std::vector<TimeTick> ticks() const;
    /// The room one tick label takes, gap included.
    double tickLabelWidth() const;
    /// The simulated time at a horizontal position.
    sim::SimTime timeAt(double x) const;

    QSize sizeHint() const override { return { 600, 96 }; }
    QSize minimumSizeHint() const override { return { 200, 72 }; }

Q_SIGNALS:
    void seekRequested(qint64 time);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    QRectF plotRect() const;
    QFont tickFont() const;

    std::vector<PodReplay::Counts> m_counts;
    sim::SimTime m_end = 0;
    sim::SimTime m_time = 0;
    std::vector<sim::SimTime> m_marks;
    std::vector<sim::SimTime> m_preemptions;
    std::optional<PodReplay::Peaks> m_peaks;
};

} // namespace drasim::ui
