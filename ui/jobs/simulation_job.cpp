// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/simulation_job.h"

#include <chrono>

#include "core/common/progress.h"
#include "core/scenario/scenario_bundle.h"
#include "core/sim/run_prepared.h"
#include "core/storage/database.h"
#include "core/storage/run_store.h"
#include "core/storage/run_store_recorder.h"

namespace drasim::ui {

namespace {

// Saves the scenario's folder as a revision (nothing new when it was saved before) and makes the
// run refer to it, as `drasim simulate --save` does, so a run from the window and one from the
// command line of the same files land under the same revision. A folder that cannot be read as a
// bundle keeps the recorder's own hash of the prepared scenario: the run is still recorded.
void recordScenarioRevision(
    storage::RunStore& store, storage::RunStoreRecorder& recorder, const std::string& path)
{
    if (path.empty())
        return;
    Diagnostics ignored;
    auto bundle = scenario::readBundle(path, ignored);
    if (!bundle)
        return;
    std::vector<storage::StoredFile> files;
    files.reserve(bundle->files.size());
    for (const auto& f : bundle->files)
        files.push_back({ f.path, f.content });
    store.saveScenarioRevision(bundle->name, bundle->hash, bundle->mainFile, files);
    recorder.setScenarioHash(bundle->hash);
}

using Runs = JobThreads<SimulationJob>;

/// The run itself, recorded in the store at `storePath` unless that is empty.
void runScenario(const sim::PreparedScenario& prepared, const std::string& storePath,
    std::optional<quint64> seed, const std::string& source, const CancelToken& cancel,
    QueuedSamples<SimulationJob>& samples, SimulationOutcome& out, Diagnostics& diags)
{
    sim::RunOptions options;
    if (seed)
        options.overrides.seed = *seed;
    options.recorders.push_back(&samples);
    options.progress = &samples;
    options.cancel = &cancel;
    std::unique_ptr<storage::RunStore> runStore;
    std::unique_ptr<storage::RunStoreRecorder> recorder;
    if (!storePath.empty() && !cancel.cancelled()) {
        try {
            runStore = std::make_unique<storage::RunStore>(storePath);
            recorder = std::make_unique<storage::RunStoreRecorder>(*runStore);
            options.recorders.push_back(recorder.get());
            recordScenarioRevision(*runStore, *recorder, source);
        } catch (const storage::StorageError& e) {
            out.storeError = QString::fromStdString(e.what());
        }
    }
    try {
        out.summary = sim::runPrepared(prepared, options, diags);
        if (recorder && !out.summary)
            recorder->abandon(cancel.cancelled() ? "cancelled" : "failed");
    } catch (const storage::StorageError& e) {
        out.storeError = QString::fromStdString(e.what());
    }
    if (recorder)
        out.runId = recorder->runId();
}

/// Everything a worker does: the node conditions first, then the run, then the outcome.
std::shared_ptr<const SimulationOutcome> simulate(
    const std::shared_ptr<const sim::PreparedScenario>& prepared, const std::string& storePath,
    std::optional<quint64> seed, const std::string& source, const Runs::Run& run)
{
    auto outcome = std::make_shared<SimulationOutcome>();
    Diagnostics diags;
    std::shared_ptr<const sim::NodeConditions> conditions;
    // Cancelled before it began (a newer run, the window closing): nothing to build or record.
    if (prepared && !run.cancel().cancelled()) {
        conditions = std::make_shared<const sim::NodeConditions>(
            prepared->pools, prepared->events, prepared->duration);
        run.post([conditions](SimulationJob* job) { Q_EMIT job->conditionsReady(conditions); });
    }
    QueuedSamples<SimulationJob> samples(run, conditions, std::chrono::milliseconds(100));
    if (prepared && !run.cancel().cancelled())
        runScenario(*prepared, storePath, seed, source, run.cancel(), samples, *outcome, diags);
    samples.finish();
    outcome->podEvents = std::make_shared<const std::vector<sim::PodEvent>>(samples.takeEvents());
    outcome->conditions = conditions;
    outcome->cancelled = run.cancel().cancelled();
    outcome->diagnostics = diags.all();
    return outcome;
}

} // namespace

SimulationJob::SimulationJob(QObject* parent)
    : QObject(parent)
{ }

SimulationJob::~SimulationJob() = default;

void SimulationJob::start(std::shared_ptr<const sim::PreparedScenario> prepared, const QString& storePath,
    std::optional<quint64> seed, const QString& scenarioPath)
{
    const QString name = prepared ? QString::fromStdString(prepared->name) : QString();
    m_runs.start(QStringLiteral("drasim-simulation"),
        [prepared, store = storePath.toStdString(), seed, source = scenarioPath.toStdString()](
            const Runs::Run& run) { return simulate(prepared, store, seed, source, run); });
    Q_EMIT started(name);
}

} // namespace drasim::ui
