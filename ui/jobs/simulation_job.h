// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QObject>
#include <QString>

#include "core/common/diagnostic.h"
#include "core/sim/node_conditions.h"
#include "core/sim/prepared_scenario.h"
#include "core/sim/run_recorder.h"
#include "core/sim/run_summary.h"
#include "ui/jobs/job_threads.h"
#include "ui/jobs/queued_samples.h"

namespace drasim::ui {

/// What a finished simulation hands to the UI: the summary (absent when the scenario was invalid),
/// the problems found, and the id of the run in the run store (0 when it was not recorded).
struct SimulationOutcome
{
    std::optional<sim::RunSummary> summary;
    std::vector<Diagnostic> diagnostics;
    bool cancelled = false;
    qint64 runId = 0;
    QString storeError; ///< the run store could not be written (the simulation itself still ran)
    /// Every pod event of the run in recorded order, for replaying it (the timeline).
    std::shared_ptr<const std::vector<sim::PodEvent>> podEvents;
    /// What the scenario's injected events did to the nodes over the run.
    std::shared_ptr<const sim::NodeConditions> conditions;
};

/// Runs a scenario on a thread of its own (JobThreads) at a lower priority than the UI. Samples arrive in
/// batches while it runs (at most ~10 per second, so charts grow live without flooding the event loop), then
/// one outcome. Each sample also carries the devices up by model at its time ("devices.up/<model>", from the
/// scenario's node conditions: the run's own samples count nodes up, not devices). Cancel stops the engine at
/// its next event; a newer start() cancels older runs and drops their signals. The destructor cancels and
/// waits for every run still in flight, not only the newest.
class SimulationJob : public QObject
{
    Q_OBJECT
public:
    explicit SimulationJob(QObject* parent = nullptr);
    ~SimulationJob() override;

    /// Runs the prepared scenario (shared, read-only: several runs may read it at once).
    /// storePath: SQLite run store to record into; empty = do not record. seed replaces the scenario's.
    /// scenarioPath: the scenario file or folder the run came from; when recording, its folder is
    /// saved as a revision and the run refers to it, as `drasim simulate --save` does.
    void start(std::shared_ptr<const sim::PreparedScenario> prepared, const QString& storePath,
        std::optional<quint64> seed = {}, const QString& scenarioPath = {});
    void cancel() { m_runs.cancel(); }
    bool isRunning() const { return m_runs.isRunning(); }
    /// Runs whose worker has not returned yet (a cancelled run may still be winding down).
    int runsInFlight() const { return m_runs.runsInFlight(); }

Q_SIGNALS:
    void started(const QString& scenarioName);
    void progressChanged(double fraction);
    /// The run's node conditions, known before its first sample (the injected events to mark).
    void conditionsReady(std::shared_ptr<const drasim::sim::NodeConditions> conditions);
    void samplesAvailable(std::shared_ptr<const drasim::ui::SampleBatch> batch);
    void finished(std::shared_ptr<const drasim::ui::SimulationOutcome> outcome);

private:
    JobThreads<SimulationJob> m_runs { this };
};

} // namespace drasim::ui
