// SPDX-License-Identifier: Apache-2.0
#include "ui/perf/open_benchmark.h"

#include <chrono>
#include <ctime>

#include <QTimer>

#include "core/api/object_set.h"
#include "ui/document/document.h"
#include "ui/jobs/open_job.h"
#include "ui/mainwindow.h"
#include "ui/perf/stall_monitor.h"

namespace drasim::ui {

namespace {

/// CPU time of the calling thread: on a machine shared with other work the wall clock says how
/// long the user waited, this says how much of it was the window's own work.
double threadCpuMs()
{
    timespec t {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

} // namespace

OpenBenchmark::OpenBenchmark(MainWindow* window, QObject* parent)
    : QObject(parent)
    , m_window(window)
    , m_monitor(new StallMonitor(5, this))
{
    // Connected after the pages, so this runs once every page has handled the new session.
    connect(window->document(), &Document::opened, this, &OpenBenchmark::onOpened);
}

void OpenBenchmark::start(const QStringList& paths)
{
    m_measuring = true;
    m_clock.start();
    m_uiCpuStartMs = threadCpuMs();
    m_monitor->start();
    m_window->openPaths(paths);
}

void OpenBenchmark::onOpened()
{
    if (!m_measuring)
        return;
    m_openedMs = double(m_clock.nsecsElapsed()) / 1e6;
    recordPhases();
    // Whatever the pages deferred runs first; then the window is painted as the user sees it.
    QTimer::singleShot(0, this, [this]() {
        m_window->repaint();
        m_totalMs = double(m_clock.nsecsElapsed()) / 1e6;
        m_phases.paintMs = m_totalMs - m_openedMs;
        m_uiCpuMs = threadCpuMs() - m_uiCpuStartMs;
        m_monitor->stop();
        m_measuring = false;
        Q_EMIT done();
    });
}

void OpenBenchmark::recordPhases()
{
    const Document* document = m_window->document();
    const OpenJob::Timeline& t = document->openJob()->lastTimeline();
    auto ms = [](OpenJob::Timeline::Clock::duration d) {
        return std::chrono::duration<double, std::milli>(d).count();
    };
    m_phases.queuedMs = ms(t.workerStarted - t.requested);
    if (const auto* session = document->session()) {
        m_phases.readMs = session->openTimes().readMs;
        m_phases.prepareMs = session->openTimes().prepareMs;
    }
    m_phases.handOverMs = ms(t.delivered - t.workerFinished);
    m_phases.pagesMs = ms(OpenJob::Timeline::Clock::now() - t.delivered);
}

double OpenBenchmark::worstStallMs() const
{
    return m_monitor->worstStallMs();
}

QString OpenBenchmark::report() const
{
    qsizetype nodes = 0;
    if (auto objects = m_window->document()->objects())
        nodes = qsizetype(objects->nodes.size());
    return tr("opened and dashboard shown in %1 ms (every page updated at %2 ms); worst UI stall %3 ms; "
              "UI thread CPU %4 ms; %5 nodes")
        .arg(QString::number(m_totalMs, 'f', 0), QString::number(m_openedMs, 'f', 0),
            QString::number(worstStallMs(), 'f', 0), QString::number(m_uiCpuMs, 'f', 0))
        .arg(nodes);
}

QString OpenBenchmark::phasesReport() const
{
    auto f = [](double ms) { return QString::number(ms, 'f', 0); };
    return tr("phases (ms): waiting for a worker %1, reading %2, preparing %3, handing over %4, pages %5, "
              "painting %6")
        .arg(f(m_phases.queuedMs), f(m_phases.readMs), f(m_phases.prepareMs), f(m_phases.handOverMs),
            f(m_phases.pagesMs), f(m_phases.paintMs));
}

} // namespace drasim::ui
