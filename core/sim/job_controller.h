// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/sim/gang_tracker.h"
#include "core/sim/sim_context.h"
#include "core/sim/work_pace.h"

namespace drasim::sim {

class DeviceLedger;
class SchedulingLoop;

/// The controllers that own pods: Job (parallelism, completions, pod-failure backoff and
/// backoffLimit), pipeline runs (tasks started as their dependencies succeed), StatefulSets and
/// services (replicas replaced at once, OrderedReady). It creates pods and hands them to the
/// scheduling loop, runs them once bound, and ends them (success, failure, eviction, job end).
/// A job whose spec has a PodGroup (a workload's `scheduling:`) gets the group the 1.37 Job
/// controller makes (SimOptions::podGroups), and a gang's members work only once minCount run.
class JobController
{
public:
    JobController(SimContext& ctx, DeviceLedger& ledger, SchedulingLoop& loop)
        : m_ctx(ctx)
        , m_ledger(ledger)
        , m_loop(loop)
        , m_pace(ctx, ledger)
    { }

    /// A job of the arrival stream arrives now.
    void startJob(workload::JobSpec&& spec);
    /// A PodCreate event: a delayed replacement (pipeline, StatefulSet) or a delayed Job sync.
    void podCreateDue(const Event& e);
    /// A PodComplete event: the pod ran to its end (stale events of ended pods are ignored).
    void podCompleteDue(const Event& e);
    /// The scheduler bound the pod, allocating `devices` devices: it runs until its duration is
    /// over (a gang member from the moment minCount members run); OrderedReady creates the next
    /// replica.
    void podBound(uint32_t id, int32_t devices);
    /// Ends the running pods among `keys` with `type` (Failed, Evicted) and `message`; their jobs
    /// react. alreadyReleased: the cluster already dropped them (their node was removed). Returns
    /// the work they lost (devices x seconds since their last checkpoint).
    double failRunning(const std::vector<std::string>& keys, PodEventType type, const std::string& message,
        bool alreadyReleased);
    /// A preemption victim was deleted and terminates through its grace period: a Job that
    /// replaces terminating pods, or a ReplicaSet, counts it failed and replaces it now.
    void podDeleted(uint32_t id);
    /// PodGroupMinCount: the gang minCount of the workload's Jobs, those that exist now and those
    /// it creates later.
    void setMinCount(const std::string& workloadName, int32_t minCount);
    /// The distributed jobs of the run so far; closes the idle time of members waiting at `end`.
    GangSummary gangSummary(SimTime end) { return m_gangs.finish(end); }
    /// The distributed jobs as they stand now (for the sampler).
    const GangTracker& gangs() const { return m_gangs; }
    /// A 1.35 gang's member stops waiting at Permit now (bound, rejected or deleted): the devices
    /// it held since `since` count as held idle by a partly started gang.
    void permitWaitEnded(uint32_t job, SimTime since, int32_t devices)
    {
        m_gangs.heldAtPermit(job, since, m_ctx.now, devices);
    }
    /// What the speed tables did to the run so far; counts the run time of pods still working.
    std::vector<SpeedSummary> speedSummary()
    {
        m_pace.finish();
        return m_pace.summary();
    }
    const WorkPace& pace() const { return m_pace; }

private:
    uint32_t allocJob();
    void startGroup(uint32_t jobId);
    uint32_t gangUnitOf(uint32_t id, std::string& group) const;
    void startWork(const std::vector<uint32_t>& ids);
    bool resumeWork(uint32_t id);
    double stopWork(uint32_t id, bool repacePeers);
    int64_t devicesOf(uint32_t id) const;
    void linkPipeline(uint32_t jobId);
    int32_t initialReplicas(const JobState& job) const;
    void createPod(uint32_t jobId, uint32_t taskIndex);
    void appendPodName(std::string& out, const JobState& job, uint32_t taskIndex, int32_t index) const;
    void finishJob(uint32_t id, bool succeeded);
    double endPod(uint32_t pid, PodEventType type, const std::string& message, bool notifyJob);
    void podSucceeded(uint32_t jobId, uint32_t task);
    void podFailed(uint32_t jobId, uint32_t task);
    void jobPodFailed(uint32_t jobId);
    void drained(uint32_t jobId);
    void syncJob(uint32_t jobId);

    SimContext& m_ctx;
    DeviceLedger& m_ledger;
    SchedulingLoop& m_loop;
    GangTracker m_gangs;
    WorkPace m_pace;
    std::map<std::string, int32_t> m_minCounts; ///< by workload, as PodGroupMinCount events set them
    /// The Services the cluster last learnt from a job's manifests (registered once per list).
    std::shared_ptr<const std::vector<api::Service>> m_servicesAdded;
};

} // namespace drasim::sim
