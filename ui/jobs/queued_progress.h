// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include <QString>

#include "core/common/progress.h"
#include "ui/jobs/job_threads.h"

namespace drasim::ui {

/// Core's progress of one run, posted to the job as its `progressChanged(fraction, stage)` signal.
/// Within `minInterval` of the last report, a report with the same stage short of the end is
/// dropped (a new stage or the end always goes through), so a busy search does not flood the event
/// loop; a zero interval forwards every report.
template <class Job> class QueuedProgress : public ProgressSink
{
public:
    QueuedProgress(typename JobThreads<Job>::Run run, std::chrono::milliseconds minInterval)
        : m_run(std::move(run))
        , m_minInterval(minInterval)
    { }

    void progress(double fraction, std::string_view stage) override
    {
        const auto now = std::chrono::steady_clock::now();
        if (fraction < 1.0 && stage == m_stage && now - m_last < m_minInterval)
            return;
        m_last = now;
        m_stage = std::string(stage);
        const QString text = QString::fromStdString(m_stage);
        m_run.post([fraction, text](Job* job) { Q_EMIT job->progressChanged(fraction, text); });
    }

private:
    typename JobThreads<Job>::Run m_run;
    std::chrono::milliseconds m_minInterval;
    std::string m_stage;
    std::chrono::steady_clock::time_point m_last {};
};

} // namespace drasim::ui
