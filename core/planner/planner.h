// SPDX-License-Identifier: Apache-2.0
#pragma once

// The capacity planner's entry point, shared by `drasim plan` and the GUI:
//
//   Diagnostics diags;
//   auto study = planner::loadStudy("study.yaml", diags);
//   auto plan = study ? planner::preparePlan(*study, diags) : std::nullopt;   // fast, checks inputs
//   planner::PlanOptions options;          // threads, progress, cancel, shard, store hook
//   auto result = plan ? planner::runPlan(*plan, options, diags) : std::nullopt;
//
// runPlan blocks; a GUI calls it from a worker thread with a ProgressSink that posts to the UI
// thread and a CancelToken its Cancel button raises (a cancelled run returns nullopt with no
// error). The result is a plain value (study_result.h). Same study, same output, whatever the
// thread count or shard split.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/common/progress.h"
#include "core/planner/evaluation.h"
#include "core/planner/search.h"
#include "core/planner/study.h"
#include "core/planner/study_result.h"
#include "core/scenario/scenario.h"

namespace drasim::scenario {
struct LoadedCatalog;
}

namespace drasim::planner {

/// A study with its scenario read and its candidates priced: everything but the simulations.
struct Plan
{
    Study study;
    scenario::Scenario scenario;
    std::vector<PricedCandidate> candidates;
    /// The scenario's hardware catalog, read once for the pricing and every mix's preparation
    /// (a scenario naming another catalog folder needs a new plan).
    std::shared_ptr<const scenario::LoadedCatalog> catalog;
    std::vector<uint64_t> seeds; ///< the study's, else the scenario's seed
    std::vector<double> loads; ///< 1, then 1 + each growth, ascending
    /// Identifies the inputs (study and scenario text): shards of different studies never merge.
    std::string fingerprint;

    SearchSpace space() const;
    StudyResult header() const;
};

/// Reads the scenario, prices the candidates from its catalog and checks that the workloads the
/// service levels name exist. Errors point into the study or the scenario.
std::optional<Plan> preparePlan(const Study& study, Diagnostics& diags);

/// Runs the study's scenario with other feature gates (and Kubernetes version) than its
/// spec.scheduler says: `drasim plan --kubernetes-version/--feature-gates`. `given` (the flags as
/// written) joins the fingerprint, so results under other gates never merge with these.
void overrideFeatureGates(Plan& plan, const api::FeatureGates& gates, const std::string& given);

/// Runs the study's scenario with another scoring policy and tie-break than its spec.scheduler
/// says (`drasim plan --scoring/--tie-break`): the same hardware question under another scheduler
/// profile, e.g. whether the fgd policy saves what 10 % more GPUs would cost. `given` joins the
/// fingerprint, so results under other policies never merge with these.
void overrideScoring(
    Plan& plan, const std::string& scoring, scheduler::TieBreak tieBreak, const std::string& given);

struct PlanOptions
{
    unsigned threads = 0; ///< 0 = every core
    ProgressSink* progress = nullptr; ///< called from worker threads, one call at a time
    const CancelToken* cancel = nullptr;
    Shard shard; ///< {0, 1} = the whole study
    /// The shared bisection stage's evaluations (a run with shard.bisectionsOnly): a shard reads
    /// the bisections from them instead of simulating them, and hands them to onEvaluated first,
    /// so that its store holds every evaluation its search used. Null: the shard bisects itself.
    const std::vector<Evaluation>* bisections = nullptr;
    /// Replaces the scenario's scheduler profile in every run (one of the study's spec.policies,
    /// as runPolicyPlans passes them); nullopt = the scenario's own.
    std::optional<scheduler::ScoringPolicy> scoring;
    /// Every new evaluation, on the calling thread (a store records them).
    std::function<void(const Evaluation&)> onEvaluated;
};

struct PlanStats
{
    int64_t simulationsRun = 0; ///< simulations this process ran
    int64_t stoppedEarly = 0; ///< of which ended early (a `pending` level already missed)
    bool cancelled = false;
};

/// Runs the search with simulations. For a shard (count > 1) or the bisection stage alone the
/// result covers only what this process evaluated and is not a recommendation: merge the shards'
/// evaluations with replayPlan.
std::optional<StudyResult> runPlan(
    const Plan& plan, const PlanOptions& options, Diagnostics& diags, PlanStats* stats = nullptr);

/// Runs the search against evaluations made earlier (the shards of one study): the same report
/// as runPlan, or an error naming the first evaluation missing.
std::optional<StudyResult> replayPlan(
    const Plan& plan, const std::vector<Evaluation>& known, Diagnostics& diags);

} // namespace drasim::planner
