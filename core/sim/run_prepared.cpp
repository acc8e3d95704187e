// SPDX-License-Identifier: Apache-2.0
#include "core/sim/run_prepared.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "core/api/feature_gates.h"
#include "core/scheduler/cluster.h"
#include "core/sim/failure_draws.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "core/sim/workload_claims.h"
#include "core/sim/workload_objects.h"
#include "core/workload/trace_share_pods.h"

namespace drasim::sim {

namespace {

/// What one run streams: the prepared workloads, or a scaled copy.
struct RunWorkloads
{
    std::vector<workload::WorkloadSpec> scaled;
    const std::vector<workload::WorkloadSpec>* specs = nullptr;
};

RunWorkloads workloadsFor(const PreparedScenario& p, const RunOverrides& o)
{
    static const std::vector<workload::WorkloadSpec> kNone;
    RunWorkloads w;
    const auto& base = p.workloads ? *p.workloads : kNone;
    if (o.arrivalScale == 1.0 && o.durationScale == 1.0) {
        w.specs = &base;
    } else {
        w.scaled = scaledWorkloads(base, o.arrivalScale, o.durationScale, o.growthAddsJobs);
        w.specs = &w.scaled;
    }
    return w;
}

SimOptions simOptionsFor(const PreparedScenario& p, uint64_t seed, const RunOptions& options)
{
    SimOptions s;
    s.scenarioName = p.name;
    s.scenarioFile = p.file;
    s.scenarioHash = p.contentHash;
    s.seed = seed;
    s.duration = p.duration;
    s.metricInterval = p.metricInterval;
    s.podInitialBackoff = p.podInitialBackoff;
    s.podMaxBackoff = p.podMaxBackoff;
    s.popFromBackoffQ = p.popFromBackoffQ;
    s.queueingHints = p.queueingHints;
    s.podEvents = options.podEvents;
    s.gpuShareFragmentation = options.gpuShareFragmentation;
    // A workload's `scheduling:` is a Job's spec.scheduling: the Job controller makes its Workload
    // and PodGroup only with WorkloadWithJob, and the scheduler queues the group only with
    // GenericWorkload (1.35 has no WorkloadWithJob: its pods stay plain pods).
    s.podGroups = p.featureGates.enabled("GenericWorkload") && p.featureGates.enabled("WorkloadWithJob");
    // 1.35's gangs: a Workload (v1alpha1) the pods name in spec.workloadRef, held at Permit by
    // GangScheduling; 1.36 and 1.37 run the group cycle instead.
    s.permitGangs = p.featureGates.version() == api::KubernetesVersion::V1_35
        && p.featureGates.enabled("GenericWorkload") && p.featureGates.enabled("GangScheduling");
    s.topologyAwareGroups = p.featureGates.enabled("TopologyAwareWorkloadScheduling");
    s.workloadAwarePreemption = s.podGroups && api::workloadAwarePreemptionEnabled(p.featureGates);
    return s;
}

/// The scenario's events followed by the run's own and the failures the pools' processes draw
/// for this run's seed, in time order (stable: in that order at equal times).
std::vector<InjectedEvent> eventsFor(const PreparedScenario& p, const RunOverrides& o, uint64_t seed)
{
    std::vector<InjectedEvent> events = p.events;
    std::vector<InjectedEvent> drawn = drawFailureEvents(p.pools, seed, p.duration);
    if (o.extraEvents.empty() && drawn.empty())
        return events;
    events.insert(events.end(), o.extraEvents.begin(), o.extraEvents.end());
    events.insert(events.end(), std::make_move_iterator(drawn.begin()), std::make_move_iterator(drawn.end()));
    std::stable_sort(events.begin(), events.end(),
        [](const InjectedEvent& a, const InjectedEvent& b) { return a.at < b.at; });
    return events;
}

/// One run with `objects` as the scheduler model's starting state, up to `drive`, which runs the
/// simulator (to the end, or to a time) and may then look at it. nullopt when the cluster or a
/// workload stream reported an error.
template <typename Drive>
auto simulateWith(const PreparedScenario& prepared, api::ObjectSet objects, const RunOptions& options,
    Diagnostics& diags, Drive&& drive)
    -> std::optional<decltype(drive(std::declval<Simulator&>(), std::declval<SchedulerClusterPort&>()))>
{
    // Building a large cluster's scheduler model takes seconds: a run cancelled meanwhile (a
    // window closing) stops between the steps instead of finishing them to no end.
    const auto cancelled = [&options]() { return options.cancel && options.cancel->cancelled(); };
    const size_t errorsBefore = diags.errorCount();
    const RunOverrides& o = options.overrides;
    const uint64_t seed = o.seed.value_or(prepared.seed);
    RunWorkloads workloads = workloadsFor(prepared, o);

    std::shared_ptr<const gpushare::ClaimTarget> claimTarget = prepared.claimTarget;
    if (o.changesStream(prepared.seed)) {
        PodClaimRefs podClaims;
        const bool added = options.workloadObjects
            ? options.workloadObjects->addTo(
                { seed, o.arrivalScale, o.durationScale, prepared.duration, o.growthAddsJobs },
                *workloads.specs, prepared.featureGates, objects, diags, options.cancel, &podClaims)
            : addWorkloadObjects(*workloads.specs, seed, prepared.duration, prepared.featureGates, objects,
                diags, options.cancel, &podClaims);
        if (!added)
            return std::nullopt;
        claimTarget = workloadClaimTarget(podClaims, objects);
    }
    if (cancelled())
        return std::nullopt;

    // The workloads' pods resolve their priorityClassName against the cluster's classes.
    const std::vector<api::PriorityClass> priorityClasses = objects.priorityClasses;
    scheduler::SchedulerOptions schedOptions;
    schedOptions.scoring = o.scoring.value_or(prepared.scoring);
    schedOptions.seed = seed;
    schedOptions.tieBreak = prepared.tieBreak;
    schedOptions.percentageOfNodesToScore = prepared.percentageOfNodesToScore;
    // A run's named policy (a planner's override) replaces the scenario's configuration.
    if (!o.scoring)
        schedOptions.profiles = prepared.profiles;
    if (prepared.filterTimeoutSeconds)
        schedOptions.filterTimeoutSeconds = *prepared.filterTimeoutSeconds;
    // The fgd policy, and the fragmentation samples, measure against the typical pods of the trace
    // workloads.
    if (options.gpuShareFragmentation
        || scheduler::sharePolicyOf(scheduler::scoringProfile(schedOptions.scoring))
            == gpushare::SharePolicy::Fgd) {
        schedOptions.shareTarget = workload::traceShareTarget(*workloads.specs, diags);
        // And against the typical claims of the stream on DRA devices; consumable capacity is
        // the paper's own measure's where a GPU-sharing trace runs.
        schedOptions.claimTarget = schedOptions.shareTarget && claimTarget && claimTarget->asksCapacity
            ? claimTarget->withoutCapacity
            : claimTarget;
    }
    schedOptions.whatIfDraPreemption = prepared.whatIfDraPreemption;
    schedOptions.podGroupUnitsInPreemption = api::defaultPreemptionRespectsPodGroups(prepared.featureGates);
    schedOptions.kubernetesVersion = prepared.featureGates.version();
    schedOptions.draExtendedResources = prepared.featureGates.enabled("DRAExtendedResource");
    schedOptions.draDeviceCompatibilityGroups = prepared.featureGates.enabled("DRADeviceCompatibilityGroups");
    schedOptions.draConsumableCapacity = prepared.featureGates.enabled("DRAConsumableCapacity");
    schedOptions.draFractionalCapacityRange = prepared.featureGates.enabled("DRAFractionalCapacityRange");
    schedOptions.draListTypeAttributes = prepared.featureGates.enabled("DRAListTypeAttributes");
    schedOptions.draWorkloadResourceClaims = prepared.featureGates.enabled("DRAWorkloadResourceClaims");
    schedOptions.draNodeAllocatableResources = prepared.featureGates.enabled("DRANodeAllocatableResources");
    scheduler::Cluster cluster(std::move(objects), schedOptions);
    if (cluster.diagnostics().hasErrors()) {
        diags.append(cluster.diagnostics());
        return std::nullopt;
    }
    if (cancelled())
        return std::nullopt;
    SchedulerClusterPort port(cluster, prepared.placement);

    Simulator sim(port, simOptionsFor(prepared, seed, options));
    for (const auto& pool : prepared.pools) {
        if (cancelled())
            return std::nullopt;
        sim.addNodePool(pool);
    }
    for (auto& e : eventsFor(prepared, o, seed))
        sim.addEvent(std::move(e));
    // The stream was scanned for its objects before (here or when the scenario was prepared),
    // which reported its warnings; read again for the run, it reports only what fails it.
    Diagnostics streamed;
    auto source = workload::makeScenarioSource(
        *workloads.specs, seed, prepared.featureGates, streamed, priorityClasses);
    if (!source || streamed.hasErrors()) {
        diags.append(streamed);
        return std::nullopt;
    }
    sim.setArrivals(std::move(source));
    for (auto* r : options.recorders)
        sim.addRecorder(r);
    auto result = drive(sim, port);
    if (streamed.hasErrors())
        diags.append(streamed); // a workload stream reported a bad row while running
    if (diags.errorCount() > errorsBefore)
        return std::nullopt;
    return result;
}

std::optional<RunSummary> runWith(
    const PreparedScenario& prepared, api::ObjectSet objects, const RunOptions& options, Diagnostics& diags)
{
    return simulateWith(prepared, std::move(objects), options, diags,
        [&](Simulator& sim, SchedulerClusterPort&) { return sim.run(options.progress, options.cancel); });
}

/// A running pod under a speed table whose pace is not 1: how fast it works and what its duration
/// takes at that pace (empty otherwise).
std::string paceNote(const Simulator::PodAt& pod)
{
    if (pod.pace == 1)
        return {};
    char factor[32];
    std::snprintf(factor, sizeof factor, "%.2f", pod.pace);
    return ", at " + std::string(factor) + "x the pace of " + pod.reference + " ("
        + (pod.paceModel.empty() ? std::string("no listed model") : pod.paceModel) + " sets it): its "
        + formatDuration(fromSeconds(pod.workSeconds)) + " of work take "
        + formatDuration(fromSeconds(pod.workSeconds / pod.pace));
}

} // namespace

std::optional<RunSummary> runPrepared(
    const PreparedScenario& prepared, const RunOptions& options, Diagnostics& diags)
{
    // The scheduler model owns (and mutates) its objects: each run builds it from a copy.
    if (options.cancel && options.cancel->cancelled())
        return std::nullopt;
    return runWith(prepared, prepared.objects ? *prepared.objects : api::ObjectSet {}, options, diags);
}

std::optional<RunSummary> runPrepared(
    PreparedScenario&& prepared, const RunOptions& options, Diagnostics& diags)
{
    if (!prepared.objects || prepared.objects.use_count() > 1)
        return runPrepared(static_cast<const PreparedScenario&>(prepared), options, diags);
    // Sole owner: prepareScenario allocates the set non-const (see prepared_scenario.h), so it
    // may be moved from once nothing else can see it.
    api::ObjectSet objects = std::move(const_cast<api::ObjectSet&>(*prepared.objects));
    prepared.objects.reset();
    return runWith(prepared, std::move(objects), options, diags);
}

std::optional<PodExplanationAt> explainPodAt(const PreparedScenario& prepared, const RunOptions& options,
    SimTime at, const std::string& podKey, Diagnostics& diags)
{
    const std::string when = formatDuration(at);
    return simulateWith(prepared, prepared.objects ? *prepared.objects : api::ObjectSet {}, options, diags,
        [&](Simulator& sim, SchedulerClusterPort& port) {
            PodExplanationAt out;
            sim.runUntil(at, options.cancel);
            Simulator::PodAt pod = sim.podAt(podKey);
            if (pod.state == Simulator::PodAt::State::Absent) {
                out.problem = "pod " + podKey + " does not exist at " + when
                    + " (not created yet, already finished, or not a pod of this scenario)";
            } else if (pod.state == Simulator::PodAt::State::Running) {
                out.problem = "pod " + podKey + " is not pending at " + when + ": it runs on node " + pod.node
                    + paceNote(pod);
            } else if (!pod.node.empty()) {
                // A 1.35 gang's member assumed on a node, waiting at Permit: no cycle to run.
                auto waiting = std::make_shared<scheduler::PodDiagnosis>();
                waiting->pod = podKey;
                waiting->scheduled = true;
                waiting->nodeName = pod.node;
                waiting->group = pod.group + "; this member waits at Permit, assumed on node " + pod.node;
                out.diagnosis = std::move(waiting);
            } else {
                // The pod's next scheduling cycle, on the cluster as it is at `at`, with the
                // account of every node, claim and request (the cluster is discarded after).
                port.cluster().setTime(toSeconds(at));
                auto diagnosis = port.cluster().schedule(pod.pod, true).diagnosis;
                if (diagnosis && !pod.group.empty()) {
                    // A member of a PodGroup: its group decides first; its own fit follows.
                    auto withGroup = std::make_shared<scheduler::PodDiagnosis>(*diagnosis);
                    withGroup->group = pod.group;
                    diagnosis = std::move(withGroup);
                }
                out.diagnosis = std::move(diagnosis);
                if (!out.diagnosis)
                    out.problem = "pod " + podKey + " could not be explained at " + when;
            }
            return out;
        });
}

} // namespace drasim::sim
