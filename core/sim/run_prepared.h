// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/common/progress.h"
#include "core/scheduler/diagnosis.h"
#include "core/sim/prepared_scenario.h"
#include "core/sim/run_overrides.h"
#include "core/sim/run_recorder.h"
#include "core/sim/run_summary.h"

namespace drasim::sim {

class WorkloadObjectsCache;

struct RunOptions
{
    RunOverrides overrides;
    std::vector<RunRecorder*> recorders;
    ProgressSink* progress = nullptr;
    const CancelToken* cancel = nullptr;
    bool podEvents = true; ///< emit pod events to the recorders (a store wants them; benchmarks may not)
    /// Sample the FGD paper's GPU fragmentation against the typical pods of the trace workloads
    /// (a study, which does not report it, turns it off).
    bool gpuShareFragmentation = true;
    /// Shared by runs of one scenario's workloads that differ in node pools only (a study's
    /// mixes): a reseeded or rescaled stream is scanned for its templates once, not every run.
    WorkloadObjectsCache* workloadObjects = nullptr;
};

/// Runs a prepared scenario: builds the kube-scheduler model from a copy of its objects, feeds
/// the simulator its pools, events and workload stream, and returns the summary. Reads the
/// prepared value only, so runs of one PreparedScenario may proceed concurrently on several
/// threads (each with its own recorders and Diagnostics). nullopt with diagnostics when the
/// cluster or a workload stream reports an error; nullopt without when `cancel` stopped it before
/// the simulation began (the recorders have heard nothing then).
std::optional<RunSummary> runPrepared(
    const PreparedScenario& prepared, const RunOptions& options, Diagnostics& diags);
/// The same for a prepared value used once: when nothing else shares its objects, the scheduler
/// model takes them over instead of copying them (one run of a large cluster, e.g. the CLI).
std::optional<RunSummary> runPrepared(
    PreparedScenario&& prepared, const RunOptions& options, Diagnostics& diags);

/// Why one pod of a run is pending at time `at`: either the diagnosis (the one `drasim explain`
/// gives for manifests), or, when the pod is not pending then, a sentence that says so.
struct PodExplanationAt
{
    std::shared_ptr<const scheduler::PodDiagnosis> diagnosis;
    std::string problem; ///< set when there is no diagnosis
};

/// Re-runs the prepared scenario with the same options (so the same seed gives the same run) up
/// to `at` inclusive, then gives the pending pod `podKey` (namespace/name) one scheduling cycle
/// with an account on that cluster. Recorders in `options` see the partial run. nullopt with
/// diagnostics when the run cannot be built (as runPrepared).
std::optional<PodExplanationAt> explainPodAt(const PreparedScenario& prepared, const RunOptions& options,
    SimTime at, const std::string& podKey, Diagnostics& diags);

} // namespace drasim::sim
