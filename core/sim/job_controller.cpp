// SPDX-License-Identifier: Apache-2.0
#include "core/sim/job_controller.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "core/api/object_key.h"
#include "core/sim/device_ledger.h"
#include "core/sim/scheduling_loop.h"
#include "core/sim/scheduling_loop_permit.h"
#include "core/sim/scheduling_loop_trees.h"

namespace drasim::sim {

uint32_t JobController::allocJob()
{
    if (!m_ctx.freeJobs.empty()) {
        uint32_t id = m_ctx.freeJobs.back();
        m_ctx.freeJobs.pop_back();
        return id;
    }
    m_ctx.jobs.emplace_back();
    return uint32_t(m_ctx.jobs.size() - 1);
}

void JobController::startJob(workload::JobSpec&& spec)
{
    uint32_t id = allocJob();
    JobState& job = m_ctx.jobs[id]; // as new: a fresh slot, or one drained() has reset
    job.serial = m_ctx.nextJobSerial++;
    job.live = true;
    job.arrival = m_ctx.now;
    job.workload = m_ctx.metrics.workloadIndex(spec.workload);
    job.spec = std::move(spec);
    job.kind = jobKindOf(job.spec);
    job.spec.claimTemplates.clear(); // already known to the cluster; do not keep a copy per job
    job.spec.claimTemplates.shrink_to_fit();
    if (job.spec.owner)
        m_ctx.cluster.addPodOwner(*job.spec.owner);
    if (job.spec.services && job.spec.services != m_servicesAdded) {
        // The manifests' Services exist from their first job on (a later job of the same
        // manifests shares the list: registering it again would change nothing).
        for (const api::Service& s : *job.spec.services)
            m_ctx.cluster.addService(s);
        m_servicesAdded = job.spec.services;
    }
    m_ctx.metrics.jobArrived(job.workload);
    if (const auto changed = m_minCounts.find(job.spec.workload);
        changed != m_minCounts.end() && job.spec.group && job.spec.group->gang)
        job.spec.group->minCount = changed->second;
    if (job.spec.group && job.kind != JobKind::PipelineRun) {
        const workload::GroupSpec& g = *job.spec.group;
        if (m_ctx.options.podGroups) {
            startGroup(id);
        } else if (m_ctx.options.permitGangs && g.gang) {
            // 1.35: the Workload's gang podGroup, one instance per job (its replica key); a basic
            // podGroup is plain pod-by-pod scheduling.
            PermitGang gang;
            gang.key = job.spec.namespace_ + "/" + job.spec.name;
            gang.minCount = g.minCount > 0 ? g.minCount : std::max(1, job.spec.parallelism);
            auto facts = std::make_shared<PodEventGroup>();
            facts->key = gang.key;
            facts->minCount = gang.minCount;
            gang.facts = std::move(facts);
            job.permitGang = std::move(gang);
        }
        if (g.gang)
            m_gangs.jobArrived(id, m_ctx.now, g.minCount > 0 ? g.minCount : job.spec.parallelism);
    }
    if (job.spec.tasks.empty()) {
        finishJob(id, true);
        return;
    }
    job.tasks.resize(job.spec.tasks.size());
    for (size_t i = 0; i < job.tasks.size(); ++i) {
        const workload::TaskSpec& t = job.spec.tasks[i];
        job.tasks[i].priorityClass
            = m_ctx.preemption.classIndex(t.pod ? t.pod->spec.priorityClassName : std::string(), t.priority);
    }
    if (job.kind == JobKind::PipelineRun) {
        linkPipeline(id);
        for (uint32_t i = 0; i < job.spec.tasks.size(); ++i)
            if (m_ctx.jobs[id].tasks[i].pendingDeps == 0)
                createPod(id, i);
        return;
    }
    const int32_t n = initialReplicas(job);
    if (n == 0) {
        finishJob(id, true);
        return;
    }
    for (int32_t i = 0; i < n; ++i)
        createPod(id, 0);
}

/// The job's Workload and PodGroup, as the 1.37 Job controller makes them (gate WorkloadWithJob)
/// from spec.scheduling: the group is the scheduling queue's entity from now on.
void JobController::startGroup(uint32_t jobId)
{
    JobState& job = m_ctx.jobs[jobId];
    const workload::GroupSpec& spec = *job.spec.group;
    GroupState g;
    g.policy.key = job.spec.namespace_ + "/" + job.spec.name;
    g.policy.gang = spec.gang;
    // minCount omitted: the Job controller uses parallelism, clamped to at least 1
    // (pkg/controller/job/job_scheduling_manager.go).
    g.policy.minCount = spec.minCount > 0 ? spec.minCount : std::max(1, job.spec.parallelism);
    g.policy.topologyKey = spec.topologyKey;
    g.policy.topologyAware = m_ctx.options.topologyAwareGroups;
    g.priority = job.spec.tasks.empty() ? 0 : job.spec.tasks[0].priority;
    // The Job controller's PodGroup takes the pod template's priority and preemptionPolicy
    // (both resolved from its priorityClassName at admission).
    g.policy.workloadAwarePreemption = m_ctx.options.workloadAwarePreemption;
    g.policy.priority = g.priority;
    g.policy.disruptAll = spec.disruptAll;
    g.policy.resourceClaims = spec.resourceClaims;
    const auto& tmpl = job.spec.tasks.empty() ? nullptr : job.spec.tasks[0].pod;
    g.policy.preemptionNever = tmpl && tmpl->spec.preemptionPolicy == api::PreemptionPolicy::Never;
    g.order = m_ctx.nextPodSerial;
    auto facts = std::make_shared<PodEventGroup>();
    facts->key = g.policy.key;
    facts->minCount = g.policy.gang ? g.policy.minCount : 0;
    if (g.policy.topologyAware)
        facts->topologyKey = g.policy.topologyKey;
    g.facts = std::move(facts);
    job.group = std::move(g);
}

/// Kubernetes 1.37 makes gang.minCount the one mutable field of a Job's spec.scheduling; the Job
/// controller patches the Workload's template and the PodGroup (KEP-5547; workload-scheduling.md
/// §6.2). The scheduler sees a PodGroup update: a smaller minCount may let a gated group in or a
/// parked one back, and may complete a gang whose members wait for their peers. A larger one
/// holds replacements back until enough fit (the group cycle counts the bound members).
void JobController::setMinCount(const std::string& workloadName, int32_t minCount)
{
    m_minCounts[workloadName] = minCount;
    for (uint32_t id = 0; id < m_ctx.jobs.size(); ++id) {
        JobState& job = m_ctx.jobs[id];
        if (!job.live || job.spec.workload != workloadName || !job.spec.group || !job.spec.group->gang
            || job.kind == JobKind::PipelineRun)
            continue;
        job.spec.group->minCount = minCount;
        startWork(m_gangs.setMinCount(id, minCount, m_ctx.now));
        if (!job.group)
            continue;
        GroupState& g = *job.group;
        const bool lowered = minCount < g.policy.minCount;
        g.policy.minCount = minCount;
        auto facts = std::make_shared<PodEventGroup>(*g.facts);
        facts->minCount = minCount;
        g.facts = std::move(facts);
        m_loop.podGroupUpdated(id, lowered);
    }
}

/// A pipeline's tasks wait for the tasks they depend on.
void JobController::linkPipeline(uint32_t jobId)
{
    JobState& job = m_ctx.jobs[jobId];
    std::map<std::string, uint32_t> byName;
    for (uint32_t i = 0; i < job.spec.tasks.size(); ++i)
        byName[job.spec.tasks[i].name] = i;
    for (uint32_t i = 0; i < job.spec.tasks.size(); ++i) {
        for (const auto& dep : job.spec.tasks[i].dependsOn) {
            auto it = byName.find(dep);
            if (it == byName.end())
                continue; // the workload parser validated names; ignore defensively
            job.tasks[i].pendingDeps++;
            job.tasks[it->second].dependents.push_back(i);
        }
    }
}

/// Pods created when a (non-pipeline) job arrives: a Job's first wave, all replicas of a
/// service, or only the first of an OrderedReady StatefulSet.
int32_t JobController::initialReplicas(const JobState& job) const
{
    if (job.kind == JobKind::Service)
        return std::max(0, job.spec.orderedStart ? std::min(job.spec.parallelism, 1) : job.spec.parallelism);
    return std::max(0, std::min(job.spec.parallelism, job.spec.completions));
}

/// Appends the pod's name ("<job>-<index>", or "<job>-<task>[-<index>]" in a pipeline run) to `out`.
void JobController::appendPodName(
    std::string& out, const JobState& job, uint32_t taskIndex, int32_t index) const
{
    out += job.spec.name;
    out += '-';
    if (job.kind != JobKind::PipelineRun) {
        appendDecimal(out, uint64_t(index));
        return;
    }
    out += job.spec.tasks[taskIndex].name;
    if (index > 0) {
        out += '-';
        appendDecimal(out, uint64_t(index));
    }
}

void JobController::createPod(uint32_t jobId, uint32_t taskIndex)
{
    uint32_t id = m_ctx.allocPod(); // may move the pod table, not the job table
    JobState& job = m_ctx.jobs[jobId];
    TaskState& ts = job.tasks[taskIndex];
    SimPod& p = m_ctx.pods[id];
    // namespace/name, written in place (a fresh slot's key is empty).
    p.key = job.spec.namespace_;
    p.key += '/';
    appendPodName(p.key, job, taskIndex, ts.created++);
    p.serial = m_ctx.nextPodSerial++;
    p.evictAt = -1;
    p.nodeEvictAt = -1;
    p.job = jobId;
    p.task = taskIndex;
    p.priority = job.spec.tasks[taskIndex].priority;
    p.created = m_ctx.now;
    m_ctx.creationOrder.emplace_back(id, p.serial);
    m_ctx.podByKey[p.key] = id;
    job.pods.push_back(id);
    ++ts.active;
    m_ctx.metrics.podCreated(job.workload);
    m_ctx.emit(PodEventType::Created, p);
    m_loop.add(id, job.spec.tasks[taskIndex].pod);
    if (const uint32_t tree = SchedulingLoop::Trees::treeOf(m_loop, id); tree != kNone)
        if (auto quorum = SchedulingLoop::Trees::quorumOf(m_loop, tree))
            m_gangs.treeMemberAdded(kTreeEntry | tree, m_ctx.now, std::move(quorum));
}

/// What the gang figures count the pod under: its hierarchy (kTreeEntry and its index, with the
/// key of its PodGroup in `group`), or else its job.
uint32_t JobController::gangUnitOf(uint32_t id, std::string& group) const
{
    const uint32_t tree = SchedulingLoop::Trees::treeOf(m_loop, id);
    if (tree == kNone)
        return m_ctx.pods[id].job;
    group = api::podGroupKeyOf(m_ctx.buildPod(m_ctx.pods[id]));
    return kTreeEntry | tree;
}

void JobController::podCreateDue(const Event& e)
{
    JobState& job = m_ctx.jobs[e.a];
    if (!job.live || job.serial != e.b)
        return;
    if (job.kind != JobKind::Job) {
        createPod(e.a, e.c);
    } else if (job.syncAt == m_ctx.now) {
        job.syncAt = -1;
        syncJob(e.a);
    }
}

void JobController::podCompleteDue(const Event& e)
{
    SimPod& p = m_ctx.pods[e.a];
    // A preemption victim stopped working when it was deleted (it got SIGTERM).
    if (p.state != PodState::Running || p.serial != e.b || p.terminatingUntil >= 0
        || !m_pace.current(e.a, e.c))
        return;
    m_pace.stop(e.a, true);
    m_ctx.cluster.podFinished(p.key);
    endPod(e.a, PodEventType::Succeeded, {}, true);
}

void JobController::podBound(uint32_t id, int32_t devices)
{
    m_ctx.pods[id].devices = devices;
    const SimPod& p = m_ctx.pods[id];
    const JobState& job = m_ctx.jobs[p.job];
    // A member of a gang that has not started works only once minCount members run (a
    // hierarchy's, once its quorum is bound).
    std::string group;
    const uint32_t unit = gangUnitOf(id, group);
    startWork(m_gangs.memberBound(unit, id, m_ctx.now, devices, group));
    // OrderedReady: the next replica is created once this one runs.
    if (job.spec.orderedStart && job.tasks[p.task].active < job.spec.parallelism)
        createPod(p.job, p.task);
}

/// The pods do their work from now on, each at its pace (work_pace.h).
void JobController::startWork(const std::vector<uint32_t>& ids)
{
    std::vector<uint32_t> working;
    working.reserve(ids.size());
    for (uint32_t id : ids)
        if (resumeWork(id))
            working.push_back(id);
    m_pace.start(working);
}

/// The pod starts working: it completes after its duration, less the work a failed pod of its
/// task had saved at its last checkpoint (the most saved, when several wait). False for a pod
/// that never completes.
bool JobController::resumeWork(uint32_t id)
{
    SimPod& p = m_ctx.pods[id];
    TaskState& ts = m_ctx.jobs[p.job].tasks[p.task];
    const double duration = m_ctx.jobs[p.job].spec.tasks[p.task].durationSeconds;
    if (!std::isfinite(duration))
        return false;
    p.workStart = m_ctx.now;
    p.workBase = 0;
    if (!ts.saved.empty()) {
        auto most = std::max_element(ts.saved.begin(), ts.saved.end());
        p.workBase = *most;
        ts.saved.erase(most);
    }
    return true;
}

/// The pod stops working before its end (failed, evicted, deleted): its task keeps the work it
/// had saved at its last checkpoint for a replacement; the work since then is lost. Work is
/// counted in seconds of the pod's duration (checkpointInterval too). Returns the run time lost.
double JobController::stopWork(uint32_t id, bool repacePeers)
{
    SimPod& p = m_ctx.pods[id];
    if (p.workStart < 0)
        return 0;
    const double interval = m_ctx.jobs[p.job].spec.checkpointSeconds;
    const double pace = m_pace.paceOf(id);
    const double progress = m_pace.stop(id, repacePeers);
    const double kept = interval > 0 ? std::floor(progress / interval) * interval : 0;
    if (kept > 0)
        m_ctx.jobs[p.job].tasks[p.task].saved.push_back(kept);
    return (progress - kept) / pace;
}

void JobController::finishJob(uint32_t id, bool succeeded)
{
    JobState& job = m_ctx.jobs[id];
    // Kubernetes deletes the remaining pods of a failed job; a succeeded one has none left but
    // the victims still terminating. A pod already deleted keeps its grace period.
    std::vector<uint32_t> remaining = job.pods;
    for (uint32_t pid : remaining) {
        const SimPod& p = m_ctx.pods[pid];
        if (p.state == PodState::Running && p.terminatingUntil >= 0)
            continue;
        if (p.state == PodState::Running)
            m_ctx.cluster.podFinished(p.key); // queued pods are released by dropQueued
        endPod(pid, PodEventType::Failed, "job " + job.spec.name + " ended", false);
    }
    m_ctx.metrics.jobFinished(
        job.workload, succeeded, m_ctx.now - job.arrival, job.kind == JobKind::PipelineRun);
    m_gangs.jobEnded(id, m_ctx.now);
    // The Job controller deletes the PodGroup with the Job; the claims reserved for it are
    // released then, not when a member ends (KEP-5729).
    if (job.group && !job.group->policy.resourceClaims.empty())
        m_ctx.cluster.podGroupDeleted(job.group->policy.key);
    job.live = false;
    job.group.reset();
    job.draining = true;
    if (job.pods.empty())
        drained(id);
}

/// The job has ended and none of its pods is left: its slot is free.
void JobController::drained(uint32_t jobId)
{
    m_ctx.jobs.reset(jobId);
    m_ctx.freeJobs.push_back(jobId);
}

/// The devices a pod holds for the work-lost figure: its DRA devices, or else its device-plugin
/// ones (extended resources such as nvidia.com/gpu in its containers' requests).
int64_t JobController::devicesOf(uint32_t id) const
{
    const SimPod& p = m_ctx.pods[id];
    if (p.devices > 0)
        return p.devices;
    const auto& tmpl = m_ctx.jobs[p.job].spec.tasks[p.task].pod;
    int64_t n = 0;
    if (!tmpl)
        return n;
    for (const auto& c : tmpl->spec.containers)
        for (const auto& [name, q] : c.resources.requests)
            if (name.find('/') != std::string::npos && name.rfind("kubernetes.io/", 0) != 0)
                n += q.value();
    return n;
}

void JobController::podDeleted(uint32_t id)
{
    m_ctx.preemption.workLost(stopWork(id, true) * double(devicesOf(id)));
    SimPod& p = m_ctx.pods[id];
    JobState& job = m_ctx.jobs[p.job];
    // isPodFailed (pkg/controller/job/job_controller.go): unless onlyReplaceFailedPods, a pod
    // with a deletionTimestamp is failed already, so the controller counts it and creates its
    // replacement while it still terminates; it is no longer active.
    // A ReplicaSet does the same (IsPodActive, pkg/controller/controller_utils.go).
    if (!job.live || job.kind == JobKind::PipelineRun || job.spec.replaceFailedOnly || p.failureCounted)
        return;
    p.failureCounted = true;
    job.tasks[p.task].active--;
    podFailed(p.job, p.task);
}

/// Ends a pod that is queued or running. notifyJob=false when the job itself is ending. Returns
/// the work it lost (devices x seconds since its last checkpoint; 0 for a pod not running).
double JobController::endPod(uint32_t pid, PodEventType type, const std::string& message, bool notifyJob)
{
    SimPod& p = m_ctx.pods[pid];
    const uint32_t jobId = p.job;
    const uint32_t task = p.task;
    double lost = 0;
    if (p.state == PodState::Running) {
        if (type != PodEventType::Succeeded)
            lost = stopWork(pid, notifyJob) * double(devicesOf(pid));
        std::string group;
        const uint32_t unit = gangUnitOf(pid, group);
        m_gangs.memberEnded(unit, pid, m_ctx.now, group);
        m_ledger.unbind(p);
        m_ctx.metrics.podRunning(-1);
        if (type == PodEventType::Succeeded)
            m_ctx.metrics.podSucceeded(m_ctx.jobs[jobId].workload);
        else
            m_ctx.metrics.podFailed(m_ctx.jobs[jobId].workload, type == PodEventType::Evicted);
    } else {
        m_loop.dropQueued(pid);
    }
    m_ctx.emit(type, p, message);
    const bool counted = p.failureCounted;
    JobState& job = m_ctx.jobs[jobId];
    auto it = std::find(job.pods.begin(), job.pods.end(), pid);
    if (it != job.pods.end())
        job.pods.erase(it);
    if (job.group)
        std::erase(job.group->members, pid);
    if (const uint32_t tree = SchedulingLoop::Trees::treeOf(m_loop, pid); tree != kNone)
        m_gangs.treeMemberGone(kTreeEntry | tree, m_ctx.now);
    SchedulingLoop::Trees::memberGone(m_loop, pid);
    if (!counted)
        job.tasks[task].active--;
    m_ctx.releasePodSlot(pid);
    if (job.draining) {
        if (job.pods.empty())
            drained(jobId);
        return lost;
    }
    if (!notifyJob || counted)
        return lost;
    if (type == PodEventType::Succeeded)
        podSucceeded(jobId, task);
    else
        podFailed(jobId, task);
    return lost;
}

void JobController::podSucceeded(uint32_t jobId, uint32_t task)
{
    JobState& job = m_ctx.jobs[jobId];
    TaskState& ts = job.tasks[task];
    ts.succeeded++;
    if (job.kind == JobKind::PipelineRun) {
        if (ts.succeeded == 1) {
            job.tasksDone++;
            for (uint32_t d : ts.dependents)
                if (--job.tasks[d].pendingDeps == 0)
                    createPod(jobId, d);
        }
        if (job.tasksDone == int32_t(job.tasks.size()))
            finishJob(jobId, true);
        return;
    }
    if (ts.succeeded >= job.spec.completions) {
        finishJob(jobId, true);
        return;
    }
    if (job.kind == JobKind::Job) {
        job.failuresAfterLastSuccess = 0;
        syncJob(jobId);
    }
}

/// manageJob of the Job controller for a kind "job": tops the active pods up to
/// min(parallelism, completions - succeeded), all at once, unless the pod-failure backoff of
/// the failures since the last success is still running; then it syncs again when it ends.
void JobController::syncJob(uint32_t jobId)
{
    JobState& job = m_ctx.jobs[jobId];
    TaskState& ts = job.tasks[0];
    const int32_t want = std::min(job.spec.parallelism, job.spec.completions - ts.succeeded);
    if (ts.active >= want)
        return;
    const SimOptions& o = m_ctx.options;
    const SimTime ready
        = job.lastFailure + backoffFor(job.failuresAfterLastSuccess, o.jobBackoffBase, o.jobBackoffMax);
    if (ready > m_ctx.now) {
        if (job.syncAt != ready) {
            job.syncAt = ready;
            m_ctx.events.push(ready, EventKind::PodCreate, jobId, job.serial, 0);
        }
        return;
    }
    for (int32_t i = ts.active; i < want; ++i)
        createPod(jobId, 0);
}

void JobController::podFailed(uint32_t jobId, uint32_t task)
{
    JobState& job = m_ctx.jobs[jobId];
    if (job.kind == JobKind::Job) {
        jobPodFailed(jobId);
        return;
    }
    job.failures++;
    if (job.kind == JobKind::Service) {
        // A ReplicaSet replaces lost replicas at once and never gives up.
        createPod(jobId, task);
        return;
    }
    if (job.failures > job.spec.backoffLimit) {
        finishJob(jobId, false);
        return;
    }
    const SimOptions& o = m_ctx.options;
    SimTime delay = backoffFor(job.failures, o.jobBackoffBase, o.jobBackoffMax);
    m_ctx.events.push(m_ctx.now + delay, EventKind::PodCreate, jobId, job.serial, task);
}

/// A Job's pod failed (every simulated failure carries DisruptionTarget): its podFailurePolicy
/// decides (matchPodFailurePolicy, pkg/controller/job/pod_failure_policy.go). FailJob fails the
/// Job whatever its backoffLimit (getFailJobMessage); Ignore does not count the pod against
/// backoffLimit, yet it is a failed pod for the pod-failure backoff all the same
/// (newBackoffRecord takes every new failed pod, backoff_utils.go); Count and no rule count it.
void JobController::jobPodFailed(uint32_t jobId)
{
    JobState& job = m_ctx.jobs[jobId];
    const api::DisruptionAction action = job.spec.onDisruption;
    if (action == api::DisruptionAction::FailJob) {
        finishJob(jobId, false);
        return;
    }
    if (action == api::DisruptionAction::Count && ++job.failures > job.spec.backoffLimit) {
        finishJob(jobId, false);
        return;
    }
    job.failuresAfterLastSuccess++;
    job.lastFailure = m_ctx.now;
    syncJob(jobId);
}

double JobController::failRunning(
    const std::vector<std::string>& keys, PodEventType type, const std::string& message, bool alreadyReleased)
{
    double lost = 0;
    for (const auto& key : keys) {
        const uint32_t pid = m_ctx.runningPod(key);
        if (pid == kNone && alreadyReleased)
            SchedulingLoop::Permit::rejectWaiting(m_loop, key, message, true); // a 1.35 gang's member
        if (pid == kNone)
            continue;
        if (!alreadyReleased)
            m_ctx.cluster.podFinished(key);
        lost += endPod(pid, type, message, true);
    }
    return lost;
}

} // namespace drasim::sim
