// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
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

/// One file of a saved scenario revision: its path inside the scenario's folder, its bytes.
struct StoredFile
{
    std::string path; ///< relative, '/'-separated
    std::string content;
    bool operator==(const StoredFile&) const = default;
};

/// A variant's origin: the revision it was derived from and the overrides that derive it.
struct VariantOrigin
{
    std::string base;
    int64_t baseRevision = 0;
    std::string overrides; ///< the overrides document (YAML), as given
};

/// A revision of a scenario name: a content the store saved, or one a run was recorded with.
struct ScenarioRevision
{
    std::string scenario;
    int64_t revision = 0;
    std::string hash; ///< content hash (what tells revisions apart)
    /// The scenario document among the files; "" when only runs saw this content (not saved).
    std::string mainFile;
    int64_t files = 0;
    int64_t runs = 0; ///< runs recorded with this revision
    std::optional<VariantOrigin> variantOf;
    std::string createdAt; ///< UTC, ISO 8601; metadata only
};

struct SavedRevision
{
    int64_t revision = 0;
    bool created = false; ///< false: this content was saved before under that revision
};

/// Saved scenarios and run history in one SQLite file. Every write is one transaction, so a crash or
/// an exception in the middle leaves the previous state intact. A run keeps the status "running"
/// while its writer lives: opening the store marks it "interrupted" once the process that began it
/// (on this host) is gone, and a store closed with runs it began unfinished marks them so itself.
/// Runs begun on another host are left as they are (nothing here can tell whether they live).
class RunStore
{
public:
    /// Opens or creates the store and migrates its schema. Throws StorageError with the path.
    explicit RunStore(const std::string& path);
    ~RunStore();

    static constexpr int kSchemaVersion = 7; ///< storage::kSchemaVersion (schema.h)
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
    /// Every point of the run in the order it was recorded (samples in time order, each in the
    /// engine's metric and key order): what `drasim simulate --series` wrote.
    std::vector<SeriesPoint> recordedSeries(int64_t runId);
    std::vector<std::string> metrics(int64_t runId);
    /// A run's pod events in recording order; only one pod's ("namespace/name") when given.
    std::vector<sim::PodEvent> podEvents(int64_t runId, const std::string& pod = {});
    /// The content hashes a scenario name was run with, by revision (index 0 = revision 1).
    std::vector<std::string> scenarioRevisions(const std::string& scenario);

    /// Saves a scenario's files as the revision of its content hash, in one transaction: a new
    /// revision number for a content never seen, else the number it has (runs may have seen it
    /// first). Saving the same content again changes nothing. `variantOf` records a variant's origin.
    SavedRevision saveScenarioRevision(const std::string& scenario, const std::string& hash,
        const std::string& mainFile, const std::vector<StoredFile>& files,
        const std::optional<VariantOrigin>& variantOf = std::nullopt);
    /// Names with at least one revision (saved or run), by name.
    std::vector<std::string> revisedScenarioNames();
    /// Every revision of the name, oldest first.
    std::vector<ScenarioRevision> revisionsOf(const std::string& scenario);
    /// The files of a saved revision, by path; empty when it was not saved.
    std::vector<StoredFile> scenarioFiles(const std::string& scenario, int64_t revision);

private:
    void migrate();
    void markAbandonedRuns();
    int64_t revisionFor(const std::string& scenario, const std::string& hash);
    std::unique_ptr<Database> m_db;
    std::set<int64_t> m_unfinished; ///< runs this store began and has not finished
};

} // namespace drasim::storage
