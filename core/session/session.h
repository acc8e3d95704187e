// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a user opened, in one Qt-free place that the CLI commands and the GUI's document share:
// the inputs and their kind, the objects loaded (or the cluster a scenario builds), the scenario
// and its prepared form, every diagnostic, and the run store. See README.md in this folder.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/api/object_set.h"
#include "core/common/diagnostic.h"
#include "core/common/progress.h"
#include "core/scenario/scenario.h"
#include "core/scheduler/cluster.h"
#include "core/session/input_kind.h"
#include "core/sim/prepared_scenario.h"
#include "core/storage/run_store.h"

namespace drasim::session {

/// Where the last open() spent its time (wall clock, milliseconds): reading and parsing the
/// manifests or the scenario document, then preparing a scenario (the files it names, its
/// cluster, its workload objects).
struct OpenTimes
{
    double readMs = 0;
    double prepareMs = 0;
};

struct Input
{
    std::string path; ///< as given
    InputKind kind = InputKind::Manifests;
};

class Session
{
public:
    Session();
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    /// Replaces what is open with `paths`: one Scenario file (read and prepared), or manifest
    /// files, folders and "-" (loaded together). Returns false when there are errors; they are in
    /// diagnostics(), and whatever loaded without errors stays available. Cancelling stops the
    /// loader and returns false; `progress` hears how far the manifest loader got.
    bool open(const std::vector<std::string>& paths, const CancelToken* cancel = nullptr,
        ProgressSink* progress = nullptr);
    /// Like open(), but every path is read as manifests whatever it holds (what `drasim allocate`
    /// and `drasim explain` promise: a Scenario document there is an unknown kind, skipped).
    bool openManifests(const std::vector<std::string>& paths);
    /// The Kubernetes version and feature gates manifests are loaded with (1.37 defaults until
    /// set); a scenario brings its own.
    void setFeatureGates(const api::FeatureGates& gates) { m_gates = gates; }
    const api::FeatureGates& featureGates() const { return m_gates; }

    const std::vector<Input>& inputs() const { return m_inputs; }
    /// Scenario when a scenario is open, else Manifests.
    InputKind kind() const;
    /// The loaded objects; for a scenario, the cluster it builds at time 0 (nodes, slices,
    /// classes, claims, templates, bound pods). Empty before open().
    const api::ObjectSet& objects() const;
    /// The scenario document, when one is open.
    const scenario::Scenario* scenario() const { return m_scenario ? &*m_scenario : nullptr; }
    /// The prepared scenario, shared (runs read it concurrently); null unless a scenario is open
    /// and prepared without errors.
    std::shared_ptr<const sim::PreparedScenario> prepared() const { return m_prepared; }
    /// Everything reported while opening and building clusters, in order.
    const Diagnostics& diagnostics() const { return m_diags; }
    const OpenTimes& openTimes() const { return m_times; }

    /// A kube-scheduler model of objects() (pods with spec.nodeName count as bound; the others
    /// are for the caller to schedule). Its own diagnostics are appended to diagnostics(); null
    /// when they hold errors or when nothing was opened without errors.
    std::unique_ptr<scheduler::Cluster> buildCluster(const scheduler::SchedulerOptions& options);

    /// Opens (or creates) the SQLite run store; throws storage::StorageError with the path.
    storage::RunStore& openRunStore(const std::string& path);
    /// The open run store, or null.
    storage::RunStore* runStore() const { return m_runStore.get(); }

private:
    void reset(const std::vector<std::string>& paths, bool detect);
    bool loadManifests(
        const std::vector<std::string>& paths, const CancelToken* cancel, ProgressSink* progress);
    bool openScenario(const std::string& path, const CancelToken* cancel);

    std::vector<Input> m_inputs;
    std::shared_ptr<const api::ObjectSet> m_objects;
    std::optional<scenario::Scenario> m_scenario;
    std::shared_ptr<const sim::PreparedScenario> m_prepared;
    Diagnostics m_diags;
    bool m_openedCleanly = false;
    api::FeatureGates m_gates;
    OpenTimes m_times;
    std::unique_ptr<storage::RunStore> m_runStore;
};

} // namespace drasim::session
