// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/simulation_job.h"

#include <chrono>

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include "core/common/progress.h"
#include "core/scenario/scenario_bundle.h"
#include "core/sim/run_prepared.h"
#include "core/storage/database.h"
#include "core/storage/run_store.h"
#include "core/storage/run_store_recorder.h"
#include "ui/jobs/background_priority.h"
#include "ui/jobs/outcome_delivery.h"

namespace drasim::ui {

/// State shared between the UI-side job and one worker run.
struct SimulationJob::Shared
{
    CancelToken cancel;
};

namespace {

using Clock = std::chrono::steady_clock;

/// Forwards progress and samples to the job's thread, throttled to ~10 deliveries a second.
class Forwarder : public sim::RunRecorder, public ProgressSink
{
public:
    Forwarder(QPointer<SimulationJob> job, std::function<bool()> current,
        std::shared_ptr<const sim::NodeConditions> conditions)
        : m_job(std::move(job))
        , m_current(std::move(current))
        , m_conditions(std::move(conditions))
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
    std::vector<sim::PodEvent> takeEvents() { return std::move(m_events); }
    void progress(double fraction, std::string_view) override
    {
        m_fraction = fraction;
        maybeFlush(false);
    }
    void finish() { maybeFlush(true); }

private:
    void maybeFlush(bool force)
    {
        const auto now = Clock::now();
        if (!force && now - m_last < std::chrono::milliseconds(100))
            return;
        m_last = now;
        auto batch = std::make_shared<const SampleBatch>(std::move(m_batch));
        m_batch = {};
        const double fraction = m_fraction;
        postIfCurrent(m_job, m_current, [batch, fraction](SimulationJob* job) {
            Q_EMIT job->progressChanged(fraction);
            if (!batch->empty())
                Q_EMIT job->samplesAvailable(batch);
        });
    }

    QPointer<SimulationJob> m_job;
    std::function<bool()> m_current;
    std::shared_ptr<const sim::NodeConditions> m_conditions;
    SampleBatch m_batch;
    std::vector<sim::PodEvent> m_events;
    double m_fraction = 0;
    Clock::time_point m_last {};
};

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

} // namespace

SimulationJob::SimulationJob(QObject* parent)
    : QObject(parent)
{ }

SimulationJob::~SimulationJob()
{
    // Workers use only their shared state and queued calls, but wait for all of them (older runs
    // were cancelled when a newer one started and may still be winding down), so no thread
    // outlives the job and every run store is closed.
    if (m_shared)
        m_shared->cancel.cancel();
    for (auto& future : m_inFlight)
        future.waitForFinished();
}

int SimulationJob::runsInFlight()
{
    m_inFlight.removeIf([](const QFuture<void>& f) { return f.isFinished(); });
    return int(m_inFlight.size());
}

void SimulationJob::start(std::shared_ptr<const sim::PreparedScenario> prepared, const QString& storePath,
    std::optional<quint64> seed, const QString& scenarioPath)
{
    if (m_shared)
        m_shared->cancel.cancel();
    const quint64 generation = ++m_generation;
    m_shared = std::make_shared<Shared>();
    m_running = true;
    const QString name = prepared ? QString::fromStdString(prepared->name) : QString();
    Q_EMIT started(name);

    QPointer<SimulationJob> self(this);
    auto shared = m_shared;
    // Read only on the job's thread (inside queued calls), so no synchronisation is needed.
    auto isCurrent = [self, generation]() { return self && self->m_generation == generation; };
    const std::string store = storePath.toStdString();
    const std::string source = scenarioPath.toStdString();

    runsInFlight(); // forget runs that have returned
    m_inFlight << QtConcurrent::run(&m_pool, [self, shared, isCurrent, prepared, store, seed, source]() {
        lowerCurrentThreadPriority(); // the window keeps its core while this works
        auto outcome = std::make_shared<SimulationOutcome>();
        Diagnostics diags;
        std::shared_ptr<const sim::NodeConditions> conditions;
        // Cancelled before it began (a newer run, the window closing): nothing to build or record.
        if (prepared && !shared->cancel.cancelled()) {
            conditions = std::make_shared<const sim::NodeConditions>(
                prepared->pools, prepared->events, prepared->duration);
            postIfCurrent(self, isCurrent,
                [conditions](SimulationJob* job) { Q_EMIT job->conditionsReady(conditions); });
        }
        Forwarder forwarder(self, isCurrent, conditions);
        if (prepared && !shared->cancel.cancelled()) {
            sim::RunOptions options;
            if (seed)
                options.overrides.seed = *seed;
            options.recorders.push_back(&forwarder);
            options.progress = &forwarder;
            options.cancel = &shared->cancel;
            std::unique_ptr<storage::RunStore> runStore;
            std::unique_ptr<storage::RunStoreRecorder> recorder;
            if (!store.empty() && !shared->cancel.cancelled()) {
                try {
                    runStore = std::make_unique<storage::RunStore>(store);
                    recorder = std::make_unique<storage::RunStoreRecorder>(*runStore);
                    options.recorders.push_back(recorder.get());
                    recordScenarioRevision(*runStore, *recorder, source);
                } catch (const storage::StorageError& e) {
                    outcome->storeError = QString::fromStdString(e.what());
                }
            }
            try {
                outcome->summary = sim::runPrepared(*prepared, options, diags);
                if (recorder && !outcome->summary)
                    recorder->abandon(shared->cancel.cancelled() ? "cancelled" : "failed");
            } catch (const storage::StorageError& e) {
                outcome->storeError = QString::fromStdString(e.what());
            }
            if (recorder)
                outcome->runId = recorder->runId();
        }
        forwarder.finish();
        outcome->podEvents = std::make_shared<const std::vector<sim::PodEvent>>(forwarder.takeEvents());
        outcome->conditions = conditions;
        outcome->cancelled = shared->cancel.cancelled();
        outcome->diagnostics = diags.all();
        postIfCurrent(self, isCurrent, [outcome](SimulationJob* job) {
            job->m_running = false;
            Q_EMIT job->finished(outcome);
        });
    });
}

void SimulationJob::cancel()
{
    if (m_shared)
        m_shared->cancel.cancel();
}

} // namespace drasim::ui
