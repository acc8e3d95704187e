// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/sim/run_recorder.h"

namespace drasim::storage {

class Database;

struct RunInfo
{
    int64_t id = 0;
    std::string scenario;
    /// SHA-256 of the scenario's canonical text; "" when unknown (runs stored before schema 2).
    std::string scenarioHash;
    /// Which content of this scenario name the run used: 1 for the first content the store saw,
    /// 2 for the next different one, ... (a content seen before keeps its number); 0 = unknown.
    int64_t scenarioRevision = 0;
    uint64_t seed = 0;
    std::string label;
    std::string status; ///< running (or interrupted after a crash), finished, failed, cancelled
    std::string summaryJson;
    std::string createdAt; ///< UTC, ISO 8601; metadata only, never part of simulation output
};

struct SeriesPoint
{
    double time = 0; ///< simulated seconds
    std::string metric; ///< e.g. "pending_pods", "utilization.gpu.nvidia.com"
    double value = 0;
};

/// Saved scenarios and run history in one SQLite file. Every write is one transaction, so a crash or
/// an exception in the middle leaves the previous state intact; a run that never finished keeps the
/// status "running" and is reported as "interrupted" when the store is opened again.
class RunStore
{
public:
    /// Opens or creates the store and migrates its schema. Throws StorageError with the path.
    explicit RunStore(const std::string& path);
    ~RunStore();

    static constexpr int kSchemaVersion = 3;
    /// The file, as given.
    const std::string& path() const;

    void saveScenario(const std::string& name, const std::string& content);
    std::optional<std::string> scenario(const std::string& name);
    std::vector<std::string> scenarioNames();
    bool deleteScenario(const std::string& name);

    /// Starts a run. A non-empty scenarioHash gets the scenario's revision for that content (a new
    /// revision when the name has not been run with it before).
    int64_t beginRun(const std::string& scenario, uint64_t seed, const std::string& label,
        const std::string& scenarioHash = {});
    void appendSamples(int64_t runId, const std::vector<SeriesPoint>& points);
    /// Pod life-cycle events with the devices and placement of each binding, after those
    /// already stored for the run.
    void appendPodEvents(int64_t runId, const std::vector<sim::PodEvent>& events);
    void finishRun(int64_t runId, const std::string& status, const std::string& summaryJson);
    bool deleteRun(int64_t runId);

    std::vector<RunInfo> runs(); ///< newest first
    std::optional<RunInfo> run(int64_t runId);
    std::vector<SeriesPoint> series(int64_t runId, const std::string& metric = {});
    std::vector<std::string> metrics(int64_t runId);
    /// A run's pod events in recording order; only one pod's ("namespace/name") when given.
    std::vector<sim::PodEvent> podEvents(int64_t runId, const std::string& pod = {});
    /// The content hashes a scenario name was run with, by revision (index 0 = revision 1).
    std::vector<std::string> scenarioRevisions(const std::string& scenario);

private:
    void migrate();
    int64_t revisionFor(const std::string& scenario, const std::string& hash);
    std::unique_ptr<Database> m_db;
};

} // namespace drasim::storage
