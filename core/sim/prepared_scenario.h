// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the simulator runs: a scenario with its files read, its cluster built and checked, as one
// immutable value. core/scenario prepares it from a Scenario document; run_prepared.h runs it.
// Everything large sits behind shared_ptr<const ...>, so copying a PreparedScenario is cheap and
// any number of runs (on any threads) can share one: a run copies only what it mutates (the
// object set its scheduler model is built from) and takes its variations as RunOverrides.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/api/feature_gates.h"
#include "core/api/object_set.h"
#include "core/gpushare/claim_fragmentation.h"
#include "core/scheduler/cluster.h"
#include "core/sim/simulator.h"
#include "core/topology/placement_quality.h"
#include "core/workload/workload_spec.h"

namespace drasim::sim {

struct PreparedScenario
{
    std::string name; ///< metadata.name
    std::string file; ///< the scenario file as given
    /// SHA-256 of the scenario's canonical text (pool overrides applied): tells versions of one
    /// scenario apart in the run store. The files it names are not part of it.
    std::string contentHash;
    uint64_t seed = 1; ///< the seed the workload scan ran with (runs may override it)
    SimTime duration = kDay;
    SimTime metricInterval = 5 * kMinute;
    SimTime podInitialBackoff = kSecond;
    SimTime podMaxBackoff = 10 * kSecond;
    bool popFromBackoffQ = true; ///< feature gate SchedulerPopFromBackoffQ (SimOptions)
    bool queueingHints = true; ///< spec.scheduler.queueingHints (SimOptions)
    /// The scenario's Kubernetes version and feature gates (spec.scheduler).
    api::FeatureGates featureGates;
    scheduler::ScoringPolicy scoring = scheduler::ScoringPolicy::Default;
    scheduler::TieBreak tieBreak = scheduler::TieBreak::NodeName;
    /// spec.scheduler.percentageOfNodesToScore (0: kube-scheduler's adaptive default).
    int32_t percentageOfNodesToScore = 0;
    /// The profiles of the scenario's KubeSchedulerConfiguration (null: the `scoring` preset) and
    /// its DynamicResources filterTimeout (scheduler::SchedulerOptions).
    std::shared_ptr<const std::vector<scheduler::SchedulerProfile>> profiles;
    std::optional<double> filterTimeoutSeconds;
    /// spec.scheduler.whatIf.draPreemption: NOT UPSTREAM, preemption may free DRA devices (KEP-5690).
    bool whatIfDraPreemption = false;

    /// The cluster at time 0 as the scheduler model is built from it: DeviceClasses, claims and
    /// templates (including those the workloads bring), bound pods, and every node and slice of
    /// the initial pools. Allocated non-const, so that a run that owns the last reference may
    /// take it over (runPrepared with an rvalue).
    std::shared_ptr<const api::ObjectSet> objects;
    /// The initial node pools (their nodes are already in `objects`: `preloaded` is set).
    std::vector<std::shared_ptr<const NodePool>> pools;
    /// Topology of the catalog-built nodes (initial and added by events); may be null.
    std::shared_ptr<const topology::PlacementIndex> placement;
    /// Injected events in time order; AddNodePool events carry their pool.
    std::vector<InjectedEvent> events;
    /// Events left out because their node or pool is not in the cluster (a planner's mix:
    /// scenario::PrepareOptions::skipEventsWithoutTarget), each as "spec.events[i]: ...".
    std::vector<std::string> skippedEvents;
    /// The workload specs, paths resolved and files checked.
    std::shared_ptr<const std::vector<workload::WorkloadSpec>> workloads;
    /// The typical claims of the workload stream of `seed` on whole DRA devices (claim_scoring.h);
    /// null when no pod of it asks for a device.
    std::shared_ptr<const gpushare::ClaimTarget> claimTarget;
};

} // namespace drasim::sim
