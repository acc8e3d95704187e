// SPDX-License-Identifier: Apache-2.0
#include "core/planner/oracle.h"

#include <algorithm>
#include <exception>
#include <numeric>
#include <set>

#include "core/common/parallel_chains_ahead.h"
#include "core/common/parallel_items.h"
#include "core/planner/service_level_recorder.h"
#include "core/scenario/prepare.h"
#include "core/sim/run_prepared.h"
#include "core/sim/workload_objects.h"

namespace drasim::planner {

namespace {

/// The order to start the probes in: the likely long ones first. A run's work grows with the nodes
/// it schedules on (the owned ones too) and with the pods its load level brings; a run that meets
/// the levels simulates to the end (and its mix's next seed follows) while one that misses them
/// usually stops early, and a mix with more nodes meets them more often. Started first, the long
/// runs leave the short ones to fill both threads at the end of a batch. Results land by index,
/// so the order changes nothing else.
std::vector<size_t> longestFirst(
    const std::vector<Probe>& probes, const std::vector<PricedCandidate>& candidates)
{
    std::vector<double> work;
    for (const auto& p : probes) {
        int64_t n = 0;
        for (size_t c = 0; c < p.mix.size() && c < candidates.size(); ++c)
            n += candidates[c].totalNodes(p.mix[c]);
        work.push_back(double(n) * p.load);
    }
    std::vector<size_t> order(probes.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return work[a] > work[b]; });
    return order;
}

/// The positions in `seeds` in the order to simulate them: `first` (when it is one of them),
/// then the others in the study's order.
std::vector<size_t> seedOrder(const std::vector<uint64_t>& seeds, const std::optional<uint64_t>& first)
{
    std::vector<size_t> order;
    for (size_t s = 0; s < seeds.size(); ++s)
        if (first && seeds[s] == *first)
            order.push_back(s);
    for (size_t s = 0; s < seeds.size(); ++s)
        if (!first || seeds[s] != *first)
            order.push_back(s);
    return order;
}

} // namespace

SimulationOracle::SimulationOracle(scenario::Scenario base, std::vector<PricedCandidate> candidates,
    std::vector<ServiceLevel> levels, std::vector<uint64_t> seeds, SimulationSettings settings)
    : m_base(std::move(base))
    , m_candidates(std::move(candidates))
    , m_levels(std::move(levels))
    , m_seeds(std::move(seeds))
    , m_settings(std::move(settings))
    , m_catalog(m_settings.catalog ? m_settings.catalog : scenario::loadScenarioCatalog(m_base))
    , m_workloadObjects(std::make_unique<sim::WorkloadObjectsCache>())
{ }

SimulationOracle::~SimulationOracle() = default;

/// Events a mix left out (their node or pool is not in it), each said once per study with the
/// first mix that lacked its target: a note, not an error.
void SimulationOracle::noteSkippedEvents(const std::vector<Mix>& mixes,
    const std::vector<std::shared_ptr<const sim::PreparedScenario>>& prepared, Diagnostics& diags)
{
    for (size_t i = 0; i < mixes.size() && i < prepared.size(); ++i)
        for (const std::string& note : prepared[i]->skippedEvents)
            if (m_skippedEventsNoted.insert(note).second)
                diags.warning({}, "Study", "", "",
                    note + " (in mixes without it, the first " + formatMix(mixes[i], m_candidates) + ")");
}

std::optional<SeedOutcome> SimulationOracle::runSeed(const sim::PreparedScenario& prepared,
    const Probe& probe, uint64_t seed, Diagnostics& diags, const CancelToken* abandon)
{
    try {
        CancelToken stop;
        ServiceLevelRecorder recorder(m_levels, &stop, m_settings.cancel, abandon);
        sim::RunOptions options;
        options.overrides.seed = seed;
        options.overrides.scoring = m_settings.scoring;
        options.overrides.arrivalScale = probe.load;
        options.overrides.growthAddsJobs = m_settings.growthAddsJobs;
        options.recorders.push_back(&recorder);
        options.cancel = &stop;
        options.workloadObjects = m_workloadObjects.get();
        options.gpuShareFragmentation = false; // a study does not report it
        auto summary = sim::runPrepared(prepared, options, diags);
        if (!summary || (summary->cancelled && !recorder.stoppedEarly()))
            return std::nullopt; // an input error, or the user cancelled
        SeedOutcome out;
        out.seed = seed;
        out.values = recorder.values();
        out.stoppedEarly = recorder.stoppedEarly();
        if (recorder.stoppedEarly())
            out.stoppedAtSeconds = sim::toSeconds(recorder.stoppedAt());
        return out;
    } catch (const std::exception& e) {
        diags.error({}, "Study", "", "", std::string("a simulation failed: ") + e.what());
        return std::nullopt;
    }
}

bool SimulationOracle::evaluate(
    const std::vector<Probe>& probes, std::vector<Evaluation>& out, Diagnostics& diags)
{
    // The probes not answered yet, each once, in order of first appearance.
    std::vector<Probe> fresh;
    std::set<std::string> seen;
    for (const auto& p : probes) {
        const std::string key = probeKey(p.mix, p.load);
        if (!m_cache.count(key) && seen.insert(key).second)
            fresh.push_back(p);
    }

    if (!fresh.empty()) {
        const unsigned threads = m_settings.threads; // 0: every core (forEachItem)
        // Each mix is prepared once for all its loads and seeds (a structural change).
        std::vector<Mix> mixes;
        std::map<std::string, size_t> mixIndex;
        for (const auto& p : fresh)
            if (mixIndex.emplace(mixKey(p.mix), mixes.size()).second)
                mixes.push_back(p.mix);
        std::vector<std::shared_ptr<const sim::PreparedScenario>> prepared(mixes.size());
        std::vector<Diagnostics> prepDiags(mixes.size());
        forEachItem(
            mixes.size(), threads,
            [&](size_t i) {
                try {
                    scenario::Scenario sc = scenarioForMix(m_base, mixes[i], m_candidates);
                    scenario::PrepareOptions options;
                    options.cancel = m_settings.cancel;
                    options.catalog = m_catalog;
                    options.workloadObjects = m_workloadObjects.get();
                    options.skipEventsWithoutTarget = true; // a named failure never stops a study
                    if (auto p = scenario::prepareScenario(sc, options, prepDiags[i]))
                        prepared[i] = std::make_shared<const sim::PreparedScenario>(std::move(*p));
                } catch (const std::exception& e) {
                    prepDiags[i].error(
                        {}, "Study", "", "", std::string("preparing a mix failed: ") + e.what());
                }
            },
            m_settings.cancel);
        if (m_settings.cancel && m_settings.cancel->cancelled())
            return false;
        bool failed = false;
        for (size_t i = 0; i < mixes.size(); ++i) {
            diags.append(prepDiags[i]);
            if (!prepared[i]) {
                failed = true;
                diags.error({}, "Study", "", "",
                    "the scenario cannot be prepared with " + formatMix(mixes[i], m_candidates));
            }
        }
        if (failed)
            return false;
        noteSkippedEvents(mixes, prepared, diags);

        // One chain per probe: its seeds one after another, until one misses a level (the mix is
        // then decided) or every seed met them. A thread with nothing else to do runs a probe's
        // next seed before the last has answered; if that one missed, the seed run ahead does not
        // count and is stopped. What counts depends only on each run's own answer, so neither the
        // thread count nor the timing changes the evaluations, their diagnostics or the tallies.
        const size_t seeds = m_seeds.size();
        std::vector<std::vector<std::optional<SeedOutcome>>> outcomes(
            fresh.size(), std::vector<std::optional<SeedOutcome>>(seeds));
        std::vector<std::vector<Diagnostics>> runDiags(fresh.size(), std::vector<Diagnostics>(seeds));
        const std::vector<size_t> order = longestFirst(fresh, m_candidates);
        std::vector<std::vector<size_t>> seedsInOrder; // per probe: positions in m_seeds, first to last
        for (const Probe& p : fresh)
            seedsInOrder.push_back(seedOrder(m_seeds, p.firstSeed));
        auto counted = forEachChainAhead(
            std::vector<size_t>(fresh.size(), seeds), threads,
            [&](size_t c, size_t k, const CancelToken& abandon) {
                const size_t j = order[c];
                const Probe& probe = fresh[j];
                const size_t s = seedsInOrder[j][k];
                const auto& prep = prepared[mixIndex.at(mixKey(probe.mix))];
                auto outcome = runSeed(*prep, probe, m_seeds[s], runDiags[j][k], &abandon);
                const bool next = outcome && outcome->met(m_levels);
                outcomes[j][s] = std::move(outcome);
                return next;
            },
            [&](size_t c, size_t k) {
                const size_t j = order[c];
                const auto& outcome = outcomes[j][seedsInOrder[j][k]];
                if (!outcome)
                    return; // a failed run: reported below
                ++m_simulations;
                if (outcome->stoppedEarly)
                    ++m_stoppedEarly;
                if (m_settings.onSimulation)
                    m_settings.onSimulation(m_simulations);
            },
            m_settings.cancel);
        if (!counted || (m_settings.cancel && m_settings.cancel->cancelled()))
            return false;
        std::vector<size_t> countedOf(fresh.size()); // per probe, in the order the probes came
        for (size_t c = 0; c < fresh.size(); ++c)
            countedOf[order[c]] = (*counted)[c];
        for (size_t j = 0; j < fresh.size(); ++j) {
            for (size_t k = 0; k < countedOf[j]; ++k) {
                diags.append(runDiags[j][k]);
                if (!outcomes[j][seedsInOrder[j][k]])
                    failed = true;
            }
            // Seeds run ahead of a miss are not part of the evaluation.
            for (size_t k = countedOf[j]; k < seeds; ++k)
                outcomes[j][seedsInOrder[j][k]].reset();
        }
        if (failed)
            return false;
        for (size_t i = 0; i < fresh.size(); ++i) {
            Evaluation e;
            e.mix = fresh[i].mix;
            e.load = fresh[i].load;
            for (auto& o : outcomes[i])
                if (o)
                    e.seeds.push_back(std::move(*o));
            if (m_settings.onEvaluated)
                m_settings.onEvaluated(e);
            m_cache.emplace(probeKey(e.mix, e.load), std::move(e));
        }
    }

    out.clear();
    for (const auto& p : probes)
        out.push_back(m_cache.at(probeKey(p.mix, p.load)));
    return true;
}

CacheOracle::CacheOracle(const std::vector<Evaluation>& known, std::string whyMissing)
    : m_whyMissing(std::move(whyMissing))
{
    for (const auto& e : known)
        m_known.emplace(probeKey(e.mix, e.load), e);
}

bool CacheOracle::evaluate(const std::vector<Probe>& probes, std::vector<Evaluation>& out, Diagnostics& diags)
{
    out.clear();
    for (const auto& p : probes) {
        auto it = m_known.find(probeKey(p.mix, p.load));
        if (it == m_known.end()) {
            diags.error({}, "Study", "", "",
                "no result for mix " + mixKey(p.mix) + " at load " + exactNumber(p.load) + ": "
                    + m_whyMissing);
            return false;
        }
        out.push_back(it->second);
    }
    return true;
}

} // namespace drasim::planner
