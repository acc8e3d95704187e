// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where the search gets its answers: simulations (SimulationOracle) or results computed earlier,
// e.g. by the shards of a distributed study (CacheOracle). The search is a pure function of the
// answers, so both give the same report.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/common/progress.h"
#include "core/planner/evaluation.h"
#include "core/scenario/prepare.h"
#include "core/scenario/scenario.h"
#include "core/sim/prepared_scenario.h"

namespace drasim::sim {
class WorkloadObjectsCache;
}

namespace drasim::planner {

class Oracle
{
public:
    virtual ~Oracle() = default;
    /// Evaluates every probe on the study's seeds, up to the first that misses a level
    /// (Evaluation::seeds); out[i] answers probes[i]. False when cancelled or when an evaluation
    /// failed (diagnostics say why).
    virtual bool evaluate(const std::vector<Probe>& probes, std::vector<Evaluation>& out, Diagnostics& diags)
        = 0;
};

struct SimulationSettings
{
    unsigned threads = 0; ///< 0 = every core
    const CancelToken* cancel = nullptr;
    /// A scoring policy that replaces the scenario's scheduler profile in every run (a policy of
    /// the study's spec.policies); nullopt = the scenario's own.
    std::optional<scheduler::ScoringPolicy> scoring;
    bool growthAddsJobs = false; ///< a load above 1 adds jobs rather than compressing time
    /// Called after each simulation finishes with the count so far (from a worker thread,
    /// one call at a time).
    std::function<void(int64_t simulations)> onSimulation;
    /// Called on the caller's thread for each new evaluation, in probe order (stores write here).
    std::function<void(const Evaluation&)> onEvaluated;
    /// The scenario's catalog read already (scenario::loadScenarioCatalog); null: the oracle reads it.
    std::shared_ptr<const scenario::LoadedCatalog> catalog;
};

/// Simulates probes: each mix is prepared once (node pools replaced), then each probe's seeds run
/// one after another (Probe::firstSeed first), the probes side by side on a pool of threads, until
/// a seed misses a level. Answers are cached by probe.
class SimulationOracle : public Oracle
{
public:
    SimulationOracle(scenario::Scenario base, std::vector<PricedCandidate> candidates,
        std::vector<ServiceLevel> levels, std::vector<uint64_t> seeds, SimulationSettings settings);
    ~SimulationOracle() override;

    bool evaluate(
        const std::vector<Probe>& probes, std::vector<Evaluation>& out, Diagnostics& diags) override;

    int64_t simulations() const { return m_simulations; } ///< runs actually simulated
    int64_t stoppedEarly() const { return m_stoppedEarly; }

private:
    /// One simulation of a prepared mix; nullopt on an input error, when the user cancelled, or when
    /// `abandon` (may be null) was raised while it ran.
    std::optional<SeedOutcome> runSeed(const sim::PreparedScenario& prepared, const Probe& probe,
        uint64_t seed, Diagnostics& diags, const CancelToken* abandon = nullptr);
    void noteSkippedEvents(const std::vector<Mix>& mixes,
        const std::vector<std::shared_ptr<const sim::PreparedScenario>>& prepared, Diagnostics& diags);

    scenario::Scenario m_base;
    std::vector<PricedCandidate> m_candidates;
    std::vector<ServiceLevel> m_levels;
    std::vector<uint64_t> m_seeds;
    SimulationSettings m_settings;
    std::map<std::string, Evaluation> m_cache; ///< by probeKey
    /// Every mix is built from the same hardware catalog: it is read once.
    std::shared_ptr<const scenario::LoadedCatalog> m_catalog;
    /// Every mix streams the same workloads: each (seed, load) stream is scanned once.
    std::unique_ptr<sim::WorkloadObjectsCache> m_workloadObjects;
    int64_t m_simulations = 0;
    int64_t m_stoppedEarly = 0;
    std::set<std::string> m_skippedEventsNoted; ///< each said once per study
};

/// Answers from evaluations given up front; a probe without one is an error naming it and
/// `whyMissing` (what the evaluations came from and what may be wrong with them).
class CacheOracle : public Oracle
{
public:
    explicit CacheOracle(const std::vector<Evaluation>& known,
        std::string whyMissing = "a shard is missing or ran another study");
    bool evaluate(
        const std::vector<Probe>& probes, std::vector<Evaluation>& out, Diagnostics& diags) override;

private:
    std::map<std::string, Evaluation> m_known;
    std::string m_whyMissing;
};

} // namespace drasim::planner
