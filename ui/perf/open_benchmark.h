// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>

namespace drasim::ui {

class MainWindow;
class StallMonitor;

/// `drasim-gui --bench-open FILE`: how long from asking to open a scenario until the dashboard is
/// on screen (loaded and prepared in the background, every page updated, the window painted), and
/// the longest the UI thread was blocked on the way. One measured run, printed by the caller.
class OpenBenchmark : public QObject
{
    Q_OBJECT
public:
    explicit OpenBenchmark(MainWindow* window, QObject* parent = nullptr);

    void start(const QStringList& paths);

    double totalMs() const { return m_totalMs; }
    double openedMs() const { return m_openedMs; }
    double worstStallMs() const;
    /// "opened and dashboard shown in 812 ms (pages updated at 640 ms); worst UI stall 210 ms; 5000 nodes".
    QString report() const;
    /// Where the time went: "phases (ms): waiting for a worker 0, reading 1, preparing 1180,
    /// handing over 2, pages 95, painting 30" (reading and preparing on the worker).
    QString phasesReport() const;

Q_SIGNALS:
    void done();

private:
    void onOpened();
    void recordPhases();

    struct Phases
    {
        double queuedMs = 0;
        double readMs = 0;
        double prepareMs = 0;
        double handOverMs = 0;
        double pagesMs = 0;
        double paintMs = 0;
    };

    MainWindow* m_window;
    StallMonitor* m_monitor;
    QElapsedTimer m_clock;
    double m_openedMs = 0;
    double m_totalMs = 0;
    bool m_measuring = false;
    double m_uiCpuStartMs = 0;
    double m_uiCpuMs = 0;
    Phases m_phases;
};

} // namespace drasim::ui
