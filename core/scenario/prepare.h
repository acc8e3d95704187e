// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "core/common/diagnostic.h"
#include "core/common/progress.h"
#include "core/scenario/scenario.h"
#include "core/sim/prepared_scenario.h"
#include "core/sim/workload_objects.h"
#include "core/topology/catalog.h"

namespace drasim::scenario {

/// A structural change to one of the scenario's initial node pools (spec.cluster.nodePools).
struct PoolOverride
{
    std::optional<int> count;
    std::optional<std::string> shape;
};

/// The hardware catalog a scenario reads its node pools' shapes from, read once: a caller that
/// prepares one scenario many times with other node pools (the planner, once per mix) passes it
/// to each preparation instead of reading every shape file again.
struct LoadedCatalog
{
    std::string directory; ///< empty when no catalog directory was found
    topology::Catalog catalog;
    /// Problems reading it, reported only for the shapes a scenario asks for (a broken shape the
    /// scenario does not use must not stop it).
    Diagnostics problems { 1000 };
};

/// Reads the catalog `scenario` names (its `catalog` folder, else the default directory).
std::shared_ptr<const LoadedCatalog> loadScenarioCatalog(const Scenario& scenario);

/// Reports, as errors of `kind` `name`, each entry whose device model neither the built-in table
/// nor a shape of the scenario's catalog or shape files defines (device_model_failures.h): a
/// study's own entries are checked before any simulation. True when every model is known.
bool checkDeviceModelFailures(const Scenario& scenario, const std::vector<DeviceModelFailures>& entries,
    const std::string& kind, const std::string& name, Diagnostics& diags);

struct PrepareOptions
{
    std::optional<uint64_t> seed; ///< overrides spec.seed
    /// By pool name; an unknown name is an error. Runs that differ only by seed, scoring, load
    /// scaling or injected events share one preparation instead (sim::RunOverrides).
    std::map<std::string, PoolOverride> pools;
    const CancelToken* cancel = nullptr;
    /// Threads for building and copying a large cluster's nodes (0: every core). The result is
    /// the same for any count; callers that already prepare in parallel keep 1.
    unsigned threads = 1;
    /// The scenario's catalog read already (loadScenarioCatalog of this scenario); null: read it.
    std::shared_ptr<const LoadedCatalog> catalog;
    /// Scans of the workload streams kept across preparations and runs of this scenario with other
    /// node pools (sim::WorkloadObjectsCache); null: scan the stream.
    sim::WorkloadObjectsCache* workloadObjects = nullptr;
    /// A planner's candidate mixes: an event naming a node or pool the mix lacks is left out (and
    /// listed in PreparedScenario::skippedEvents) instead of refused, so a named failure on a node
    /// of a pool the mix has none of cannot stop a study.
    bool skipEventsWithoutTarget = false;
};

/// Builds what a scenario runs on: catalog node pools (initial and added by events), manifests,
/// trace nodes, classes and templates, the claims and templates the workloads bring, the events
/// with their targets checked. Input problems (unknown shape, unknown node in an event, bad
/// manifests, workload files) are diagnostics located in the scenario or the offending file;
/// nullopt then (also when cancelled).
std::optional<sim::PreparedScenario> prepareScenario(
    const Scenario& scenario, const PrepareOptions& options, Diagnostics& diags);

} // namespace drasim::scenario
