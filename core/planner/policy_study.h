// SPDX-License-Identifier: Apache-2.0
#pragma once

// The scoring policy as a dimension of a study (spec.policies): the whole search once per policy,
// each policy replacing the scenario's scheduler profile in every run, so that the report can say
// side by side what each policy needs to buy at each load: whether changing the scheduler's
// scoring saves what more hardware would cost. A study without policies is one plain runPlan.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/common/data_value.h"
#include "core/planner/planner.h"

namespace drasim::planner {

struct PolicyResult
{
    scheduler::ScoringPolicy policy = scheduler::ScoringPolicy::Default;
    StudyResult result; ///< the study as if the scenario had named this policy
};

struct PolicyStudyResult
{
    std::vector<PolicyResult> policies; ///< in the study's order; the first is the baseline
};

/// What a caller adds to each policy's search, on the calling thread: a store opens a row per
/// policy and points onEvaluated at it; a shard points bisections at that policy's shared stage.
struct PolicyHooks
{
    /// Before policy `index`'s search, with the options it runs with (scoring already set).
    std::function<void(size_t index, PlanOptions& options)> before;
    /// After policy `index`'s search succeeded (for a shard, its part only).
    std::function<void(size_t index, const StudyResult& result)> after;
};

/// Runs the search of `plan` under each of its study's policies, one after the other (each on
/// options.threads), and reports progress across all of them. nullopt when cancelled or when a
/// search failed (diagnostics say why). Each policy's result equals runPlan with that policy
/// alone: the searches share nothing. options.scoring is ignored (each policy sets it), and
/// options.onEvaluated hears every policy's evaluations in turn, which do not say their policy
/// (hooks.before can give each policy its own). options.shard applies to every policy: shard K of
/// N runs slice K of N of each policy's search, and the bisection stage bisects under each.
std::optional<PolicyStudyResult> runPolicyPlans(const Plan& plan, const PlanOptions& options,
    Diagnostics& diags, PlanStats* stats = nullptr, const PolicyHooks& hooks = {});

/// The comparison from evaluations made earlier (the shards of a split), one list per policy in
/// the study's order: what runPolicyPlans reports, or an error naming the policy and the first
/// evaluation missing.
std::optional<PolicyStudyResult> replayPolicyPlans(
    const Plan& plan, const std::vector<std::vector<Evaluation>>& known, Diagnostics& diags);

/// The name a store keeps for part `index` of the study's runs: its policy's, or "" for a study
/// of the scenario's own scoring (no spec.policies), whose one part is index 0.
std::string storedPolicyName(const Plan& plan, size_t index);

/// One policy's row of the comparison at one load level: its cheapest mix meeting every service
/// level and how that differs from the first policy's at today's load, in the words
/// formatPolicyText prints (a table shows the same figures).
struct PolicyComparison
{
    scheduler::ScoringPolicy policy = scheduler::ScoringPolicy::Default;
    bool recommended = false; ///< a mix meets every level within the constraints
    std::string mix; ///< formatMix ("a100=6"), or why there is none
    std::string cost; ///< formatMoney of its cost ("$900,000"); empty without a mix
    double costUsd = 0; ///< the same in USD; 0 without a mix
    int64_t nodes = 0; ///< servers the mix buys; 0 without one
    /// versusText against the first policy's mix at today's load ("-11 a100, -$1,650,000");
    /// empty for that mix itself, without a mix, or when the first policy has none today.
    std::string versus;
};

/// Every policy's row at load level `level` (an index into each result's loads), in the study's
/// order.
std::vector<PolicyComparison> policyComparison(const PolicyStudyResult& result, size_t level);

/// For people: per load the cheapest mix under each policy and how it differs from the first
/// policy's at today's load ("fgd at load +10%: the same mix, +$0"), then each policy's report.
std::string formatPolicyText(const PolicyStudyResult& result);
/// The frontier of every load level under every policy as CSV: frontierCsv with a leading
/// `policy` column.
std::string policyFrontierCsv(const PolicyStudyResult& result);
/// {"policies": [{"policy": NAME, "result": toData(StudyResult)}, ...]}.
DataValue toData(const PolicyStudyResult& result);

} // namespace drasim::planner
