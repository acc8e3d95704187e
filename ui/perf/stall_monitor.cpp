// SPDX-License-Identifier: Apache-2.0
#include "ui/perf/stall_monitor.h"

#include <algorithm>

namespace drasim::ui {

StallMonitor::StallMonitor(int intervalMs, QObject* parent)
    : QObject(parent)
    , m_intervalMs(intervalMs)
{
    m_timer.setTimerType(Qt::PreciseTimer); // coarse timers may fire 5% late by design
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &StallMonitor::tick);
}

void StallMonitor::start()
{
    m_worstMs = 0;
    m_ticks = 0;
    m_lateness.clear();
    m_at.clear();
    m_clock.start();
    m_lastNs = 0;
    m_timer.start();
}

void StallMonitor::stop()
{
    if (!m_timer.isActive())
        return;
    tick(); // the stretch since the last tick counts too (a stall right before stopping)
    m_timer.stop();
}

void StallMonitor::tick()
{
    const qint64 now = m_clock.nsecsElapsed();
    const double lateMs = std::max(0.0, double(now - m_lastNs) / 1e6 - m_intervalMs);
    m_lastNs = now;
    ++m_ticks;
    m_worstMs = std::max(m_worstMs, lateMs);
    if (lateMs > 1.0) {
        m_lateness << lateMs;
        m_at << double(now) / 1e6;
    }
}

int StallMonitor::stallsOver(double thresholdMs) const
{
    return int(std::count_if(
        m_lateness.begin(), m_lateness.end(), [thresholdMs](double v) { return v > thresholdMs; }));
}

QStringList StallMonitor::stallLog(double thresholdMs) const
{
    QStringList lines;
    for (qsizetype i = 0; i < m_lateness.size(); ++i)
        if (m_lateness[i] > thresholdMs)
            lines << QStringLiteral("at %1 ms: %2 ms")
                         .arg(QString::number(m_at[i] - m_lateness[i] - m_intervalMs, 'f', 0),
                             QString::number(m_lateness[i], 'f', 0));
    return lines;
}

} // namespace drasim::ui
