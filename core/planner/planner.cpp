// SPDX-License-Identifier: Apache-2.0
#include "core/planner/planner.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <set>

#include "core/planner/oracle.h"
#include "core/scenario/named_files_check.h"
#include "core/scenario/prepare.h"
#include "core/yamlio/loader.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::planner {

namespace {

/// FNV-1a, 64 bits: enough to tell two studies apart in shard files (not a security measure).
uint64_t fnv1a(const std::string& text, uint64_t h = 1469598103934665603ull)
{
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

/// The PriorityClasses the scenario's manifests and resources define, by name.
std::set<std::string> scenarioPriorityClasses(const scenario::Scenario& sc)
{
    std::vector<std::string> paths;
    for (const auto& p : sc.manifests)
        paths.push_back(sc.resolvedPath(p));
    for (const auto& p : sc.resources)
        paths.push_back(sc.resolvedPath(p));
    std::set<std::string> names;
    if (paths.empty())
        return names;
    yamlio::LoadOptions options;
    options.gates = sc.featureGates;
    for (const auto& c : yamlio::loadPaths(paths, options).objects.priorityClasses)
        names.insert(c.meta.name);
    return names;
}

/// A service level's priorityClass must be one the scenario defines.
void checkPriorityClasses(const Study& study, const scenario::Scenario& sc, Diagnostics& diags)
{
    const bool named = std::any_of(study.serviceLevels.begin(), study.serviceLevels.end(),
        [](const ServiceLevel& l) { return !l.priorityClass.empty(); });
    if (!named)
        return;
    const std::set<std::string> classes = scenarioPriorityClasses(sc);
    std::string known;
    for (const auto& c : classes)
        known += (known.empty() ? "" : ", ") + c;
    for (size_t i = 0; i < study.serviceLevels.size(); ++i) {
        const ServiceLevel& l = study.serviceLevels[i];
        if (l.priorityClass.empty() || classes.count(l.priorityClass))
            continue;
        diags.error(l.pos, "Study", study.name, "spec.serviceLevels[" + std::to_string(i) + "].priorityClass",
            "Not found: \"" + l.priorityClass + "\": the scenario has no such PriorityClass"
                + (known.empty() ? std::string() : " (classes: " + known + ")"));
    }
}

} // namespace

SearchSpace Plan::space() const
{
    SearchSpace s;
    for (const auto& c : candidates)
        s.maxNodes.push_back(c.maxNodes / c.nodesPerUnit - c.ownedUnits); // counts bought, in whole racks
    s.loads = loads;
    s.levels = study.serviceLevels;
    s.owned = anyOwned(candidates);
    const auto cands = candidates;
    const CostBasis basis = study.cost;
    const double hours = sim::toSeconds(scenario.duration) / 3600.0;
    const Constraints limits = study.constraints;
    const TcoTerms tco = study.tco;
    s.cost
        = [cands, basis, hours, tco](const Mix& m) { return footprint(m, cands, basis, hours, tco).costUsd; };
    s.withinConstraints = [cands, basis, hours, tco, limits](const Mix& m) {
        return planner::withinConstraints(footprint(m, cands, basis, hours, tco), limits);
    };
    return s;
}

StudyResult Plan::header() const
{
    StudyResult r;
    r.study = study.name;
    r.scenario = scenario.name;
    r.cost = study.cost;
    r.tco = study.tco;
    r.growth = study.growth;
    r.durationHours = sim::toSeconds(scenario.duration) / 3600.0;
    r.candidates = candidates;
    r.levels = study.serviceLevels;
    r.seeds = seeds;
    return r;
}

std::optional<Plan> preparePlan(const Study& study, Diagnostics& diags)
{
    const size_t errorsBefore = diags.errorCount();
    Plan plan;
    plan.study = study;
    // The study's scenario and every file it names are looked at first: each missing one is
    // reported at the field that names it, all at once, before any simulation.
    if (const std::string why = scenario::whyUnreadable(study.scenarioPath()); !why.empty()) {
        diags.error(study.scenarioPos, "Study", study.name, "spec.scenario",
            "cannot read " + study.scenarioPath() + ": " + why);
        return std::nullopt;
    }
    auto sc = scenario::loadScenario(study.scenarioPath(), diags);
    if (!sc || !scenario::checkNamedFiles(*sc, diags))
        return std::nullopt;
    plan.scenario = std::move(*sc);
    plan.catalog = scenario::loadScenarioCatalog(plan.scenario);
    plan.candidates = priceCandidates(study, plan.scenario, diags, plan.catalog.get());

    std::set<std::string> workloads;
    for (const auto& w : plan.scenario.workloads)
        workloads.insert(w.name);
    for (size_t i = 0; i < study.serviceLevels.size(); ++i) {
        const ServiceLevel& l = study.serviceLevels[i];
        if (!l.workload.empty() && !workloads.count(l.workload)) {
            std::string known;
            for (const auto& w : workloads)
                known += (known.empty() ? "" : ", ") + w;
            diags.error(l.pos, "Study", study.name, "spec.serviceLevels[" + std::to_string(i) + "].workload",
                "Not found: \"" + l.workload + "\": the scenario has no such workload"
                    + (known.empty() ? std::string() : " (workloads: " + known + ")"));
        }
    }
    checkPriorityClasses(study, plan.scenario, diags);
    // Failures by device model: the scenario's and the study's, the study's first for a model.
    scenario::checkDeviceModelFailures(
        plan.scenario, plan.scenario.failuresByDeviceModel, "Scenario", plan.scenario.name, diags);
    scenario::checkDeviceModelFailures(
        plan.scenario, study.failuresByDeviceModel, "Study", study.name, diags);
    plan.scenario.failuresByDeviceModel
        = scenario::withDeviceModelFailures(plan.scenario.failuresByDeviceModel, study.failuresByDeviceModel);
    if (diags.errorCount() > errorsBefore)
        return std::nullopt;

    plan.seeds = study.seeds.empty() ? std::vector<uint64_t> { plan.scenario.seed } : study.seeds;
    plan.loads = { 1.0 };
    std::vector<double> growth = study.loadGrowth;
    std::sort(growth.begin(), growth.end());
    for (double g : growth)
        plan.loads.push_back(1.0 + g);

    std::string studyText, scenarioText;
    yamlio::readFile(study.file, studyText);
    yamlio::readFile(study.scenarioPath(), scenarioText);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)fnv1a(scenarioText, fnv1a(studyText)));
    plan.fingerprint = buf;
    return plan;
}

void overrideFeatureGates(Plan& plan, const api::FeatureGates& gates, const std::string& given)
{
    plan.scenario.featureGates = gates;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)fnv1a(given, fnv1a(plan.fingerprint)));
    plan.fingerprint = buf;
}

void overrideScoring(
    Plan& plan, const std::string& scoring, scheduler::TieBreak tieBreak, const std::string& given)
{
    plan.scenario.scoring = scoring;
    plan.scenario.tieBreak = tieBreak;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)fnv1a(given, fnv1a(plan.fingerprint)));
    plan.fingerprint = buf;
}

std::optional<StudyResult> runPlan(
    const Plan& plan, const PlanOptions& options, Diagnostics& diags, PlanStats* stats)
{
    // A caller that runs the plan itself (the desktop's Plan view) searches one policy only.
    if (!plan.study.policies.empty() && !options.scoring)
        diags.warning(plan.study.policiesPos, "Study", plan.study.name, "spec.policies",
            "searched under the scenario's own scoring only; drasim plan compares the policies");
    // Progress: simulations done against the search's running estimate of what is left.
    std::mutex mutex;
    SearchProgress latest;
    const int64_t seeds = int64_t(plan.seeds.size());
    SimulationSettings settings;
    settings.threads = options.threads;
    settings.cancel = options.cancel;
    settings.scoring = options.scoring;
    settings.growthAddsJobs = plan.study.growth == Growth::Jobs;
    settings.onEvaluated = options.onEvaluated;
    settings.catalog = plan.catalog;
    if (options.progress)
        settings.onSimulation = [&](int64_t done) {
            std::lock_guard<std::mutex> lock(mutex);
            const double total = double(std::max<int64_t>(latest.probesEstimated * seeds, done + 1));
            options.progress->progress(std::min(0.99, double(done) / total),
                latest.phase == 1 ? "bisecting each shape" : "searching mixes");
        };
    SimulationOracle oracle(plan.scenario, plan.candidates, plan.study.serviceLevels, plan.seeds, settings);
    std::optional<CacheOracle> bisected;
    if (options.bisections) {
        bisected.emplace(*options.bisections,
            "the bisections given lack it (were they written by drasim plan --bisect-only from the same "
            "study and scenario files?)");
        if (options.onEvaluated)
            for (const Evaluation& e : *options.bisections)
                options.onEvaluated(e);
    }
    SearchResult search;
    const bool ok = runSearch(
        plan.space(), oracle, options.shard, diags, search,
        [&](const SearchProgress& p) {
            std::lock_guard<std::mutex> lock(mutex);
            latest = p;
        },
        bisected ? &*bisected : nullptr);
    if (stats) {
        stats->simulationsRun = oracle.simulations();
        stats->stoppedEarly = oracle.stoppedEarly();
        stats->cancelled = options.cancel && options.cancel->cancelled();
    }
    if (!ok)
        return std::nullopt;
    if (options.progress)
        options.progress->progress(1.0, "done");
    return summarize(search, plan.loads, plan.study.constraints, plan.header());
}

std::optional<StudyResult> replayPlan(
    const Plan& plan, const std::vector<Evaluation>& known, Diagnostics& diags)
{
    CacheOracle oracle(known);
    SearchResult search;
    if (!runSearch(plan.space(), oracle, Shard {}, diags, search))
        return std::nullopt;
    return summarize(search, plan.loads, plan.study.constraints, plan.header());
}

} // namespace drasim::planner
