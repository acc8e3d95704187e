// SPDX-License-Identifier: Apache-2.0
#include "core/storage/run_store_recorder.h"

#include "core/common/data_value.h"
#include "core/sim/run_summary.h"
#include "core/sim/sim_time.h"

namespace drasim::storage {

RunStoreRecorder::RunStoreRecorder(RunStore& store, std::string label, size_t batchPoints)
    : m_store(store)
    , m_label(std::move(label))
    , m_batchPoints(batchPoints)
{ }

RunStoreRecorder::~RunStoreRecorder() = default;

void RunStoreRecorder::onRunStarted(const sim::RunInfo& info)
{
    m_runId = m_store.beginRun(
        info.scenario, info.seed, m_label, m_scenarioHash.empty() ? info.scenarioHash : m_scenarioHash);
}

void RunStoreRecorder::onSample(const sim::MetricSample& sample)
{
    if (m_runId == 0)
        return;
    for (const auto& p : sample.points)
        m_pending.push_back(
            { sim::toSeconds(sample.time), p.key.empty() ? p.metric : p.metric + "/" + p.key, p.value });
    if (m_pending.size() >= m_batchPoints)
        flush();
}

void RunStoreRecorder::onPodEvent(const sim::PodEvent& event)
{
    if (m_runId == 0)
        return;
    m_pendingEvents.push_back(event);
    if (m_pendingEvents.size() >= m_batchPoints)
        flush();
}

void RunStoreRecorder::onRunFinished(const sim::RunSummary& summary)
{
    if (m_runId == 0)
        return;
    flush();
    m_store.finishRun(m_runId, summary.cancelled ? "cancelled" : "finished", toJson(sim::toData(summary), 0));
}

void RunStoreRecorder::abandon(const std::string& status)
{
    if (m_runId == 0)
        return;
    flush();
    m_store.finishRun(m_runId, status, "");
}

void RunStoreRecorder::flush()
{
    if (!m_pending.empty())
        m_store.appendSamples(m_runId, m_pending);
    m_pending.clear();
    if (!m_pendingEvents.empty())
        m_store.appendPodEvents(m_runId, m_pendingEvents);
    m_pendingEvents.clear();
}

} // namespace drasim::storage
