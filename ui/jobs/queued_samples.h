// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "core/common/progress.h"
#include "core/sim/node_conditions.h"
#include "core/sim/run_recorder.h"
#include "ui/jobs/job_threads.h"

namespace drasim::ui {

using SampleBatch = std::vector<sim::MetricSample>;

/// A run's samples and progress, posted to the job in batches as its `progressChanged(fraction)`
/// and `samplesAvailable(batch)` signals at most once per `minInterval` (finish() posts what is
/// left), so charts grow live without flooding the event loop. Each sample also gets the devices up
/// by model at its time ("devices.up/<model>", from the scenario's node conditions: the run's own
/// samples count nodes up, not devices). Pod events are kept for the outcome, not posted.
template <class Job> class QueuedSamples : public sim::RunRecorder, public ProgressSink
{
public:
    QueuedSamples(typename JobThreads<Job>::Run run, std::shared_ptr<const sim::NodeConditions> conditions,
        std::chrono::milliseconds minInterval)
        : m_run(std::move(run))
        , m_conditions(std::move(conditions))
        , m_minInterval(minInterval)
    { }

    void onSample(const sim::MetricSample& sample) override
    {
        m_batch.push_back(sample);
        if (m_conditions)
            for (const auto& [model, up] : m_conditions->capacityAt(sample.time).devicesUpByModel)
                m_batch.back().points.push_back({ "devices.up", model, double(up) });
        maybeFlush(false);
    }
    void onPodEvent(const sim::PodEvent& event) override { m_events.push_back(event); }
    void progress(double fraction, std::string_view) override
    {
        m_fraction = fraction;
        maybeFlush(false);
    }
    /// Posts the samples and progress not posted yet.
    void finish() { maybeFlush(true); }
    std::vector<sim::PodEvent> takeEvents() { return std::move(m_events); }

private:
    void maybeFlush(bool force)
    {
        const auto now = std::chrono::steady_clock::now();
        if (!force && now - m_last < m_minInterval)
            return;
        m_last = now;
        auto batch = std::make_shared<const SampleBatch>(std::exchange(m_batch, {}));
        const double fraction = m_fraction;
        m_run.post([batch, fraction](Job* job) {
            Q_EMIT job->progressChanged(fraction);
            if (!batch->empty())
                Q_EMIT job->samplesAvailable(batch);
        });
    }

    typename JobThreads<Job>::Run m_run;
    std::shared_ptr<const sim::NodeConditions> m_conditions;
    std::chrono::milliseconds m_minInterval;
    SampleBatch m_batch;
    std::vector<sim::PodEvent> m_events;
    double m_fraction = 0;
    std::chrono::steady_clock::time_point m_last {};
};

} // namespace drasim::ui
