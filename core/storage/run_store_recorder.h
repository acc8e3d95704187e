// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/sim/run_recorder.h"
#include "core/storage/run_store.h"

namespace drasim::storage {

/// Subscribes a RunStore to a simulation: the run is created when it starts, samples and pod events
/// (when the run emits them) are written in batches (one transaction each), and the summary is
/// stored when it finishes. A run that dies
/// half-way stays "running" and is reported as "interrupted" when the store is next opened.
class RunStoreRecorder : public sim::RunRecorder
{
public:
    RunStoreRecorder(RunStore& store, std::string label = {}, size_t batchPoints = 4096);
    ~RunStoreRecorder() override;

    void onRunStarted(const sim::RunInfo& info) override;
    void onSample(const sim::MetricSample& sample) override;
    void onPodEvent(const sim::PodEvent& event) override;
    void onRunFinished(const sim::RunSummary& summary) override;

    /// Marks the run failed or cancelled when the simulation stopped without a summary.
    void abandon(const std::string& status);
    int64_t runId() const { return m_runId; }
    /// Records the run under this content hash instead of the one the run announces (a caller
    /// that saved the scenario's whole folder as a revision hashes that folder).
    void setScenarioHash(std::string hash) { m_scenarioHash = std::move(hash); }

private:
    void flush();

    RunStore& m_store;
    std::string m_label;
    std::string m_scenarioHash;
    size_t m_batchPoints;
    int64_t m_runId = 0;
    std::vector<SeriesPoint> m_pending;
    std::vector<sim::PodEvent> m_pendingEvents;
};

} // namespace drasim::storage
