// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
#include <QTimer>

namespace drasim::ui {

/// Measures how long the event loop of the thread it lives on is kept from running: a timer asks
/// to fire every few milliseconds and each tick records how late it came. A late tick means the
/// thread was busy (a slot, a layout, a paint) for that long, which the user sees as a frozen
/// window. For the stall test and `drasim-gui --bench-open`.
class StallMonitor : public QObject
{
    Q_OBJECT
public:
    explicit StallMonitor(int intervalMs = 5, QObject* parent = nullptr);

    void start();
    void stop();
    bool isRunning() const { return m_timer.isActive(); }

    /// The longest stretch between two ticks beyond the interval, in milliseconds.
    double worstStallMs() const { return m_worstMs; }
    /// Ticks later than `thresholdMs` (default 50).
    int stallsOver(double thresholdMs = 50.0) const;
    int ticks() const { return m_ticks; }
    /// Milliseconds since start() (to place other events beside the stalls).
    double elapsedMs() const { return double(m_clock.nsecsElapsed()) / 1e6; }
    /// The stalls over `thresholdMs` as "at 120 ms: 85 ms" lines, in order.
    QStringList stallLog(double thresholdMs = 20.0) const;

private:
    void tick();

    int m_intervalMs;
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastNs = 0;
    double m_worstMs = 0;
    int m_ticks = 0;
    QList<double> m_lateness; // ms per tick beyond the interval, for stallsOver()
    QList<double> m_at; // when each of m_lateness ended, ms since start()
};

} // namespace drasim::ui
