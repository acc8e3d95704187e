// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/timeline_strip.h"

#include <algorithm>

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPointF>
#include <QPolygonF>

#include "ui/models/time_ticks.h"
#include "ui/models/tone_colors.h"
#include "ui/widgets/holder_colors.h"

namespace drasim::ui {

TimelineStrip::TimelineStrip(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setCursor(Qt::PointingHandCursor);
}

void TimelineStrip::setCounts(std::vector<PodReplay::Counts> counts, sim::SimTime end)
{
    m_counts = std::move(counts);
    m_end = end;
    update();
}

void TimelineStrip::setTime(sim::SimTime t)
{
    m_time = t;
    update();
}

QRectF TimelineStrip::plotRect() const
{
    return QRectF(rect()).adjusted(8, 18, -8, -16);
}

sim::SimTime TimelineStrip::timeAt(double x) const
{
    const QRectF plot = plotRect();
    const double f = std::clamp((x - plot.left()) / std::max(1.0, plot.width()), 0.0, 1.0);
    return sim::SimTime(f * double(m_end) + 0.5);
}

void TimelineStrip::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QRectF plot = plotRect();
    p.setPen(QPen(pal.color(QPalette::Mid), 1));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    if (m_counts.size() < 2 || m_end <= 0)
        return;
    int top = 1;
    for (const auto& c : m_counts)
        top = std::max({ top, c.running, c.pending });
    auto x = [&](sim::SimTime t) { return plot.left() + plot.width() * double(t) / double(m_end); };
    auto y = [&](int v) { return plot.bottom() - plot.height() * double(v) / double(top); };
    const bool dark = holder_colors::isDark(pal);
    const QColor runningColor = dark ? QColor(64, 170, 160) : QColor(30, 140, 130);
    const QColor pendingColor = dark ? QColor(230, 140, 60) : QColor(220, 110, 30);
    for (const auto& [pick, color] : { std::pair { 0, runningColor }, std::pair { 1, pendingColor } }) {
        QPainterPath area(QPointF(plot.left(), plot.bottom()));
        for (const auto& c : m_counts)
            area.lineTo(x(c.time), y(pick == 0 ? c.running : c.pending));
        area.lineTo(plot.right(), plot.bottom());
        area.closeSubpath();
        QColor fill = color;
        fill.setAlpha(pick == 0 ? 110 : 90);
        p.fillPath(area, fill);
        QPainterPath line;
        for (size_t i = 0; i < m_counts.size(); ++i) {
            const QPointF pt(x(m_counts[i].time), y(pick == 0 ? m_counts[i].running : m_counts[i].pending));
            i == 0 ? line.moveTo(pt) : line.lineTo(pt);
        }
        p.strokePath(line, QPen(color, 1.5));
    }

    // Ticks whose labels never touch: days for a long run, hours or minutes for a short one.
    p.setFont(tickFont());
    const double labelPx = tickLabelWidth();
    p.setPen(pal.color(QPalette::PlaceholderText));
    for (const TimeTick& tick : ticks()) {
        const double tx = x(tick.time);
        p.drawLine(QPointF(tx, plot.bottom()), QPointF(tx, plot.bottom() + 3));
        p.drawText(QRectF(tx - labelPx / 2, plot.bottom() + 2, labelPx, 14), Qt::AlignHCenter | Qt::AlignTop,
            tick.label);
    }

    p.setPen(QPen(toneColor(Tone::Bad, pal), 1.5, Qt::DashLine));
    for (sim::SimTime t : m_marks)
        p.drawLine(QPointF(x(t), plot.top()), QPointF(x(t), plot.bottom()));

    // Preemptions: a triangle hanging from the top edge, in the tone the event list gives them.
    const QColor preemptionColor = toneColor(Tone::Warning, pal);
    p.setPen(Qt::NoPen);
    p.setBrush(preemptionColor);
    for (sim::SimTime t : m_preemptions) {
        const QPointF tip = preemptionTip(t);
        p.drawPolygon(QPolygonF({ tip, tip + QPointF(-4, -6), tip + QPointF(4, -6) }));
    }
    p.setBrush(Qt::NoBrush);

    // Legend and the peak, top left.
    p.setPen(runningColor);
    p.drawText(QPointF(plot.left(), 13), tr("■ running"));
    double legend = p.fontMetrics().horizontalAdvance(tr("■ running")) + 12;
    p.setPen(pendingColor);
    p.drawText(QPointF(plot.left() + legend, 13), tr("■ pending"));
    if (!m_preemptions.empty()) {
        legend += p.fontMetrics().horizontalAdvance(tr("■ pending")) + 12;
        p.setPen(preemptionColor);
        p.drawText(QPointF(plot.left() + legend, 13), tr("▼ preemption"));
    }
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(QRectF(plot.left(), 2, plot.width(), 14), Qt::AlignRight | Qt::AlignTop,
        m_peaks ? peakText() : tr("peak %1 pods").arg(top));

    const double cx = x(std::clamp<sim::SimTime>(m_time, 0, m_end));
    p.setPen(QPen(pal.color(QPalette::Highlight), 2));
    p.drawLine(QPointF(cx, plot.top() - 2), QPointF(cx, plot.bottom()));
}

QFont TimelineStrip::tickFont() const
{
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    return small;
}

double TimelineStrip::tickLabelWidth() const
{
    // The widest label a tick can have ("150d", "1d18h", "2h45m"), and a gap.
    const QFontMetricsF fm(tickFont());
    return fm.horizontalAdvance(QStringLiteral("88d88h")) + 12;
}

std::vector<TimeTick> TimelineStrip::ticks() const
{
    return timeTicks(m_end, plotRect().width(), tickLabelWidth());
}

void TimelineStrip::setPeaks(PodReplay::Peaks peaks)
{
    m_peaks = peaks;
    update();
}

QString TimelineStrip::peakText() const
{
    // Pending first, as the run's summary and `drasim simulate` state their peak.
    return m_peaks ? tr("peak %1 pending · %2 running").arg(m_peaks->pending).arg(m_peaks->running)
                   : QString();
}

void TimelineStrip::setMarks(std::vector<sim::SimTime> marks)
{
    m_marks = std::move(marks);
    update();
}

void TimelineStrip::setPreemptions(std::vector<sim::SimTime> times)
{
    times.erase(std::unique(times.begin(), times.end()), times.end());
    m_preemptions = std::move(times);
    update();
}

QPointF TimelineStrip::preemptionTip(sim::SimTime t) const
{
    const QRectF plot = plotRect();
    return { plot.left() + plot.width() * double(t) / double(std::max<sim::SimTime>(m_end, 1)),
        plot.top() + 6 };
}

void TimelineStrip::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        Q_EMIT seekRequested(timeAt(event->position().x()));
}

void TimelineStrip::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() & Qt::LeftButton)
        Q_EMIT seekRequested(timeAt(event->position().x()));
}

} // namespace drasim::ui
