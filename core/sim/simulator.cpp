// SPDX-License-Identifier: Apache-2.0
#include "core/sim/simulator.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "core/api/pod_defaults.h"
#include "core/scheduler/node_taint_eviction.h"
#include "core/sim/event_queue.h"
#include "core/sim/scheduling_queue.h"
#include "core/sim/scheduling_signature.h"
#include "core/sim/sim_metrics.h"

namespace drasim::sim {

namespace {

constexpr uint32_t kNone = UINT32_MAX;

enum class PodState : uint8_t { Free, Active, Backoff, Parked, Running };

struct SimPod
{
    uint64_t serial = 0; ///< unique per pod ever created; also its queue order
    PodState state = PodState::Free;
    bool representative = false;
    uint32_t job = kNone;
    uint32_t task = 0;
    uint32_t group = 0;
    int32_t priority = 0;
    int32_t attempts = 0;
    uint32_t reason = kNone; ///< last unschedulable reason id
    SimTime created = 0;
    SimTime lastAttempt = 0;
    SimTime backoffUntil = -1; ///< expiry of its current stay in backoffQ (stale-event check)
    SimTime bound = 0;
    SimTime evictAt = -1; ///< pending TaintEviction event, -1 when none
    SimTime nodeEvictAt = -1; ///< pending NodeTaintEviction event, -1 when none
    std::string key; ///< namespace/name
    std::string node;
    std::vector<std::string> claims; ///< claims reserved for it (device accounting)
};

struct TaskState
{
    int32_t active = 0;
    int32_t succeeded = 0;
    int32_t created = 0; ///< pods created so far (names)
    int32_t pendingDeps = 0; ///< pipeline: upstream tasks not yet succeeded
    std::vector<uint32_t> dependents;
};

struct JobState
{
    uint64_t serial = 0;
    bool live = false;
    workload::JobSpec spec;
    uint32_t workload = 0;
    SimTime arrival = 0;
    int32_t failures = 0;
    /// The Job controller's backoff record: failed pods since the last success and when the
    /// latest of them failed; replacements wait backoff(failuresAfterLastSuccess) after it.
    int32_t failuresAfterLastSuccess = 0;
    SimTime lastFailure = 0;
    SimTime syncAt = -1; ///< pending delayed sync (PodCreate event) of a kind "job", -1 when none
    int32_t tasksDone = 0;
    std::vector<TaskState> tasks;
    std::vector<uint32_t> pods; ///< live pod slots
};

/// Device accounting mirror (for metrics): which devices each claim holds and how many bound pods
/// use the claim. Mirrors §6.7: devices are free when the last user of the claim ended.
struct ClaimRecord
{
    std::vector<uint32_t> devices;
    std::vector<uint32_t> classes;
    int32_t users = 0;
};

SimTime backoffFor(int32_t attempts, SimTime initial, SimTime max)
{
    if (attempts <= 0)
        return 0;
    SimTime d = initial;
    for (int32_t i = 1; i < attempts && d < max; ++i)
        d *= 2;
    return std::min(d, max);
}

/// With SchedulerPopFromBackoffQ, kube-scheduler truncates a pod's backoff expiry to its 1 s
/// ordering window and counts the pod as backing off while that window is not over; the queue is
/// flushed on whole seconds. So the pod completes backoff at the end of its window. The run
/// starts on a window boundary.
SimTime windowedExpiry(SimTime expiry)
{
    return (expiry / kSecond + 1) * kSecond;
}

/// backoffQ order with SchedulerPopFromBackoffQ: expiry window first, then activeQ order.
struct BackoffKey
{
    SimTime expiry = 0;
    QueueKey key;
    bool operator<(const BackoffKey& o) const
    {
        if (expiry != o.expiry)
            return expiry < o.expiry;
        return key < o.key;
    }
};

} // namespace

struct Simulator::Impl
{
    ClusterPort& cluster;
    SimOptions options;
    std::vector<RunRecorder*> recorders;
    std::unique_ptr<workload::ArrivalSource> arrivals;
    std::optional<workload::JobSpec> nextArrival;
    std::vector<InjectedEvent> injected;

    EventQueue events;
    SchedulingQueue queue;
    SimMetrics metrics;
    SimTime now = 0;
    uint64_t seenGeneration = 0;
    uint64_t attempts = 0;
    uint64_t processed = 0;

    std::vector<SimPod> pods;
    std::vector<uint32_t> freePods;
    std::unordered_map<std::string, uint32_t> podByKey;
    /// Node taints changed by NodeTaint/NodeUntaint events (others keep their NodeSpec's taints).
    std::unordered_map<std::string, std::vector<api::Taint>> changedNodeTaints;
    uint64_t nextPodSerial = 1;

    std::vector<JobState> jobs;
    std::vector<uint32_t> freeJobs;
    uint64_t nextJobSerial = 1;

    std::unordered_map<std::string, ClaimRecord> claims;
    std::vector<std::string> reasonTexts; ///< full message per reason id (last one seen)
    std::map<std::string, uint32_t> reasonIds;
    std::set<uint32_t> backoffPods; ///< pods in backoffQ (sampling counts them as pending)
    /// backoffQ in pop order; kept only with SchedulerPopFromBackoffQ (the only reader).
    std::set<BackoffKey> backoffOrder;
    std::map<std::string, NodeSpec> downNodes; ///< failed nodes, to bring them back
    std::map<std::string, std::vector<std::string>> poolNodes;

    std::shared_ptr<const api::PodTemplateSpec> lastTemplate;
    std::string lastNamespace;
    uint32_t lastGroup = 0;
    /// runUntil(): the last simulated time whose events are processed; -1 runs to the end.
    SimTime stopAfter = -1;

    Impl(ClusterPort& c, SimOptions o)
        : cluster(c)
        , options(std::move(o))
    { }

    // ---- helpers -------------------------------------------------------------------------
    void emit(PodEventType type, const SimPod& pod, const std::string& message = {},
        const BindOutcome* bound = nullptr)
    {
        if (!options.podEvents || recorders.empty())
            return;
        PodEvent e;
        e.time = now;
        e.type = type;
        e.pod = pod.key;
        if (pod.job != kNone) {
            e.job = jobs[pod.job].spec.name;
            e.workload = jobs[pod.job].spec.workload;
        }
        e.node = pod.node;
        e.message = message;
        if (bound) {
            e.devices = bound->allocated;
            e.placements = bound->placements;
        }
        for (auto* r : recorders)
            r->onPodEvent(e);
    }

    uint32_t reasonFor(const std::string& message)
    {
        std::string primary = primaryReason(message);
        auto [it, inserted] = reasonIds.emplace(primary, uint32_t(reasonTexts.size()));
        if (inserted)
            reasonTexts.push_back(primary);
        return it->second;
    }

    void addNode(const NodeSpec& spec, const std::string& pool)
    {
        cluster.addNode(spec.node, spec.slices);
        metrics.addNode(spec, pool);
    }

    // ---- pods ----------------------------------------------------------------------------
    uint32_t allocPod()
    {
        if (!freePods.empty()) {
            uint32_t id = freePods.back();
            freePods.pop_back();
            return id;
        }
        pods.emplace_back();
        return uint32_t(pods.size() - 1);
    }

    void releasePodSlot(uint32_t id)
    {
        SimPod& p = pods[id];
        podByKey.erase(p.key);
        p = SimPod {};
        freePods.push_back(id);
    }

    uint32_t groupOf(const api::Pod& pod, const std::shared_ptr<const api::PodTemplateSpec>& tmpl)
    {
        uint32_t g = queue.groupFor(schedulingSignature(pod));
        // Holding the template keeps its address from being reused by another one while cached.
        lastTemplate = tmpl;
        lastNamespace = pod.meta.namespace_;
        lastGroup = g;
        return g;
    }

    api::Pod buildPod(const SimPod& p) const
    {
        const JobState& job = jobs[p.job];
        const workload::TaskSpec& task = job.spec.tasks[p.task];
        api::Pod pod;
        if (task.pod) {
            pod.meta.labels = task.pod->meta.labels;
            pod.meta.annotations = task.pod->meta.annotations;
            pod.spec = task.pod->spec;
            // Created from a template: admission defaults the new Pod (pod_defaults.h).
            api::defaultRequestsFromLimits(pod.spec);
        }
        pod.meta.name = p.key.substr(job.spec.namespace_.size() + 1);
        pod.meta.namespace_ = job.spec.namespace_;
        pod.meta.uid = "sim-" + std::to_string(p.serial);
        for (const auto& [k, v] : job.spec.labels)
            pod.meta.labels[k] = v;
        pod.meta.labels["drasim.dev/job"] = job.spec.name;
        pod.meta.labels["drasim.dev/workload"] = job.spec.workload;
        pod.spec.priority = task.priority;
        pod.phase = "Pending";
        return pod;
    }

    QueueKey keyOf(uint32_t id) const { return QueueKey { pods[id].priority, pods[id].serial, id }; }

    void createPod(uint32_t jobId, uint32_t taskIndex)
    {
        JobState& job = jobs[jobId];
        const workload::TaskSpec& task = job.spec.tasks[taskIndex];
        TaskState& ts = job.tasks[taskIndex];
        int32_t index = ts.created++;
        std::string name;
        if (job.spec.kind == workload::kKindPipelineRun)
            name = job.spec.name + "-" + task.name + (index > 0 ? "-" + std::to_string(index) : "");
        else
            name = job.spec.name + "-" + std::to_string(index);

        uint32_t id = allocPod();
        SimPod& p = pods[id];
        p.serial = nextPodSerial++;
        p.evictAt = -1;
        p.nodeEvictAt = -1;
        p.job = jobId;
        p.task = taskIndex;
        p.priority = task.priority;
        p.created = now;
        p.key = job.spec.namespace_ + "/" + name;
        // The api::Pod is built only when the scheduler needs it: a million queued pods would
        // otherwise each hold a copy of their template.
        // Most pods of a run come from a handful of shared templates: skip re-serialising them.
        if (task.pod && task.pod == lastTemplate && job.spec.namespace_ == lastNamespace)
            p.group = lastGroup;
        else
            p.group = groupOf(buildPod(p), task.pod);
        podByKey[p.key] = id;
        job.pods.push_back(id);
        ++ts.active;
        metrics.podCreated(job.workload);
        emit(PodEventType::Created, p);

        if (queue.blockedAt(p.group, seenGeneration)) {
            // An equivalent pod failed and nothing was freed since: this attempt would fail the
            // same way, so record it as failed without running the scheduler.
            p.attempts = 1;
            p.lastAttempt = now;
            p.reason = queue.groupReason(p.group);
            p.state = PodState::Parked;
            queue.park(p.group, keyOf(id));
            metrics.podPending(+1);
            emit(PodEventType::Unschedulable, p, reasonTexts[p.reason]);
            return;
        }
        p.state = PodState::Active;
        metrics.podPending(+1);
        queue.pushActive(keyOf(id));
    }

    /// Puts a pod that left the unschedulable set back: activeQ, or backoffQ until its backoff ends.
    void requeue(uint32_t id)
    {
        SimPod& p = pods[id];
        SimTime expiry
            = p.lastAttempt + backoffFor(p.attempts, options.podInitialBackoff, options.podMaxBackoff);
        if (options.popFromBackoffQ && p.attempts > 0)
            expiry = windowedExpiry(expiry);
        if (expiry > now) {
            p.state = PodState::Backoff;
            p.backoffUntil = expiry;
            backoffPods.insert(id);
            if (options.popFromBackoffQ) {
                // Every requeue happens during an event, and afterEvent() pops backoffQ empty
                // before the next one (scheduling takes no time, so the scheduler is idle then):
                // the expiry event could never find the pod still backing off.
                backoffOrder.insert(BackoffKey { expiry, keyOf(id) });
            } else {
                events.push(expiry, EventKind::BackoffExpired, id, p.serial);
            }
        } else {
            p.state = PodState::Active;
            queue.pushActive(keyOf(id));
        }
    }

    /// Takes a pod out of backoffQ (its backoff ended, it was popped early, or it was deleted).
    void leaveBackoff(uint32_t id)
    {
        backoffPods.erase(id);
        if (options.popFromBackoffQ)
            backoffOrder.erase(BackoffKey { pods[id].backoffUntil, keyOf(id) });
        pods[id].backoffUntil = -1;
    }

    void attempt(uint32_t id)
    {
        SimPod& p = pods[id];
        ++attempts;
        BindOutcome out = cluster.schedule(buildPod(p));
        p.attempts++;
        p.lastAttempt = now;
        bool wasRepresentative = p.representative;
        p.representative = false;
        uint32_t group = p.group;
        if (out.scheduled) {
            p.state = PodState::Running;
            p.node = out.nodeName;
            p.bound = now;
            p.claims = out.claims;
            bindDevices(out);
            JobState& job = jobs[p.job];
            metrics.podScheduled(job.workload, now - p.created);
            metrics.podPending(-1);
            metrics.podRunning(+1);
            for (const auto& placement : out.placements)
                metrics.placement(placement);
            emit(PodEventType::Scheduled, p, {}, &out);
            // A NoExecute device taint the pod's claims tolerate only for a while (or, with an
            // effect-less toleration, not at all for the eviction controller) evicts it later.
            if (auto at = cluster.deviceTaintEvictionTime(p.key))
                scheduleTaintEviction(id, *at);
            checkNodeTaints(id);
            double duration = job.spec.tasks[p.task].durationSeconds;
            if (std::isfinite(duration)) {
                SimTime end = now + std::max<SimTime>(0, fromSeconds(duration));
                if (end <= options.duration)
                    events.push(end, EventKind::PodComplete, id, p.serial);
            }
            // OrderedReady: the next replica is created once this one runs (last: createPod may
            // move the pod table, `p` is not used after it).
            if (job.spec.orderedStart && job.tasks[p.task].active < job.spec.parallelism)
                createPod(p.job, p.task);
        } else {
            p.reason = reasonFor(out.message);
            reasonTexts[p.reason] = primaryReason(out.message);
            queue.markBlocked(group, seenGeneration, p.reason);
            p.state = PodState::Parked;
            queue.park(group, keyOf(id));
            emit(PodEventType::Unschedulable, p, out.message);
        }
        if (wasRepresentative) {
            QueueKey next;
            if (queue.representativeDone(group, out.scheduled, seenGeneration, &next)) {
                pods[next.pod].representative = true;
                requeue(next.pod);
            }
        }
    }

    void bindDevices(const BindOutcome& out)
    {
        // Newly allocated claims get their devices; every claim of the pod gains a user.
        for (const auto& d : out.allocated) {
            ClaimRecord& c = claims[d.claim];
            uint32_t dev = metrics.deviceIndex(d.driver, d.pool, d.device);
            if (dev == kNone)
                continue;
            uint32_t cls = metrics.classIndex(d.deviceClass);
            c.devices.push_back(dev);
            c.classes.push_back(cls);
            metrics.deviceAllocated(dev, cls, +1);
        }
        for (const auto& key : out.claims)
            ++claims[key].users;
    }

    void unbindDevices(SimPod& p)
    {
        for (const auto& key : p.claims) {
            auto it = claims.find(key);
            if (it == claims.end())
                continue;
            if (--it->second.users > 0)
                continue;
            for (size_t i = 0; i < it->second.devices.size(); ++i)
                metrics.deviceAllocated(it->second.devices[i], it->second.classes[i], -1);
            claims.erase(it);
        }
        p.claims.clear();
    }

    /// Removes a pod that is still queued (its job ended or failed).
    void dropQueued(uint32_t id)
    {
        SimPod& p = pods[id];
        if (p.state == PodState::Parked)
            queue.unpark(p.group, keyOf(id));
        if (p.state == PodState::Backoff)
            leaveBackoff(id);
        if (p.representative) {
            p.representative = false;
            QueueKey next;
            if (queue.representativeDone(p.group, true, seenGeneration, &next)) {
                pods[next.pod].representative = true;
                requeue(next.pod);
            }
        }
        metrics.podPending(-1);
        metrics.podFailed(jobs[p.job].workload, false);
        cluster.podFinished(p.key);
    }

    // ---- job controller --------------------------------------------------------------------
    uint32_t allocJob()
    {
        if (!freeJobs.empty()) {
            uint32_t id = freeJobs.back();
            freeJobs.pop_back();
            return id;
        }
        jobs.emplace_back();
        return uint32_t(jobs.size() - 1);
    }

    void startJob(workload::JobSpec spec)
    {
        uint32_t id = allocJob();
        JobState& job = jobs[id];
        job = JobState {};
        job.serial = nextJobSerial++;
        job.live = true;
        job.arrival = now;
        job.workload = metrics.workloadIndex(spec.workload);
        job.spec = std::move(spec);
        job.spec.claimTemplates.clear(); // already known to the cluster; do not keep a copy per job
        job.spec.claimTemplates.shrink_to_fit();
        metrics.jobArrived(job.workload);
        if (job.spec.tasks.empty()) {
            finishJob(id, true);
            return;
        }
        job.tasks.resize(job.spec.tasks.size());
        if (job.spec.kind == workload::kKindPipelineRun) {
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
            for (uint32_t i = 0; i < job.spec.tasks.size(); ++i)
                if (job.tasks[i].pendingDeps == 0)
                    createPod(id, i);
        } else {
            int32_t n = std::max(0, std::min(job.spec.parallelism, job.spec.completions));
            if (job.spec.kind == workload::kKindService)
                n = std::max(
                    0, job.spec.orderedStart ? std::min(job.spec.parallelism, 1) : job.spec.parallelism);
            if (n == 0) {
                finishJob(id, true);
                return;
            }
            for (int32_t i = 0; i < n; ++i)
                createPod(id, 0);
        }
    }

    void finishJob(uint32_t id, bool succeeded)
    {
        JobState& job = jobs[id];
        // Kubernetes deletes the remaining pods of a failed job; a succeeded one has none left.
        std::vector<uint32_t> remaining = job.pods;
        for (uint32_t pid : remaining) {
            if (pods[pid].state == PodState::Running)
                cluster.podFinished(pods[pid].key); // queued pods are released by dropQueued
            endPod(pid, PodEventType::Failed, "job " + job.spec.name + " ended", false);
        }
        metrics.jobFinished(
            job.workload, succeeded, now - job.arrival, job.spec.kind == workload::kKindPipelineRun);
        job = JobState {};
        freeJobs.push_back(id);
    }

    void removeFromJob(JobState& job, uint32_t pid)
    {
        auto it = std::find(job.pods.begin(), job.pods.end(), pid);
        if (it != job.pods.end())
            job.pods.erase(it);
    }

    /// Ends a pod that is queued or running. notifyJob=false when the job itself is ending.
    void endPod(uint32_t pid, PodEventType type, const std::string& message, bool notifyJob)
    {
        SimPod& p = pods[pid];
        uint32_t jobId = p.job;
        uint32_t task = p.task;
        bool wasRunning = p.state == PodState::Running;
        if (wasRunning) {
            unbindDevices(p);
            metrics.podRunning(-1);
            if (type == PodEventType::Succeeded)
                metrics.podSucceeded(jobs[jobId].workload);
            else
                metrics.podFailed(jobs[jobId].workload, type == PodEventType::Evicted);
        } else {
            dropQueued(pid);
        }
        emit(type, p, message);
        JobState& job = jobs[jobId];
        removeFromJob(job, pid);
        job.tasks[task].active--;
        releasePodSlot(pid);
        if (!notifyJob)
            return;
        if (type == PodEventType::Succeeded)
            podSucceeded(jobId, task);
        else
            podFailed(jobId, task);
    }

    void podSucceeded(uint32_t jobId, uint32_t task)
    {
        JobState& job = jobs[jobId];
        TaskState& ts = job.tasks[task];
        ts.succeeded++;
        if (job.spec.kind == workload::kKindPipelineRun) {
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
        if (job.spec.kind == workload::kKindJob) {
            job.failuresAfterLastSuccess = 0;
            syncJob(jobId);
        }
    }

    /// manageJob of the Job controller for a kind "job": tops the active pods up to
    /// min(parallelism, completions - succeeded), all at once, unless the pod-failure backoff of
    /// the failures since the last success is still running; then it syncs again when it ends.
    void syncJob(uint32_t jobId)
    {
        JobState& job = jobs[jobId];
        TaskState& ts = job.tasks[0];
        const int32_t want = std::min(job.spec.parallelism, job.spec.completions - ts.succeeded);
        if (ts.active >= want)
            return;
        const SimTime ready = job.lastFailure
            + backoffFor(job.failuresAfterLastSuccess, options.jobBackoffBase, options.jobBackoffMax);
        if (ready > now) {
            if (job.syncAt != ready) {
                job.syncAt = ready;
                events.push(ready, EventKind::PodCreate, jobId, job.serial, 0);
            }
            return;
        }
        for (int32_t i = ts.active; i < want; ++i)
            createPod(jobId, 0);
    }

    void podFailed(uint32_t jobId, uint32_t task)
    {
        JobState& job = jobs[jobId];
        job.failures++;
        if (job.spec.kind == workload::kKindService) {
            // A ReplicaSet replaces lost replicas at once and never gives up.
            createPod(jobId, task);
            return;
        }
        if (job.failures > job.spec.backoffLimit) {
            finishJob(jobId, false);
            return;
        }
        if (job.spec.kind == workload::kKindJob) {
            job.failuresAfterLastSuccess++;
            job.lastFailure = now;
            syncJob(jobId);
            return;
        }
        SimTime delay = backoffFor(job.failures, options.jobBackoffBase, options.jobBackoffMax);
        events.push(now + delay, EventKind::PodCreate, jobId, job.serial, task);
    }

    // ---- injected events -------------------------------------------------------------------
    void failPods(const std::vector<std::string>& keys, PodEventType type, const std::string& message,
        bool alreadyReleased)
    {
        for (const auto& key : keys) {
            auto it = podByKey.find(key);
            if (it == podByKey.end())
                continue;
            uint32_t pid = it->second;
            if (pods[pid].state != PodState::Running)
                continue;
            if (!alreadyReleased)
                cluster.podFinished(key);
            endPod(pid, type, message, true);
        }
    }

    void removeNodeNow(const std::string& name, const std::string& why, bool keepForReturn)
    {
        const NodeSpec* spec = metrics.nodeSpec(name);
        if (!spec)
            return;
        if (keepForReturn)
            downNodes[name] = *spec;
        metrics.removeNode(name, now);
        changedNodeTaints.erase(name);
        std::vector<std::string> victims = cluster.removeNode(name);
        std::sort(victims.begin(), victims.end());
        failPods(victims, PodEventType::Failed, why, true);
    }

    void taintDevices(const InjectedEvent& e, bool add)
    {
        std::vector<std::string> victims;
        for (const auto& d : metrics.devicesOf(e.node)) {
            if (!e.driver.empty() && d.driver != e.driver)
                continue;
            if (!e.device.empty() && d.device != e.device)
                continue;
            if (add) {
                auto v = cluster.setDeviceTaint(d.driver, d.pool, d.device, e.taint);
                victims.insert(victims.end(), v.begin(), v.end());
            } else {
                cluster.removeDeviceTaint(d.driver, d.pool, d.device, e.taint.key);
            }
        }
        std::sort(victims.begin(), victims.end());
        victims.erase(std::unique(victims.begin(), victims.end()), victims.end());
        failPods(victims, PodEventType::Evicted, "device taint " + e.taint.key + ":" + e.taint.effect, false);
        scheduleTaintEvictions();
    }

    /// A DeviceTaintRule event: the rule object is created (or replaced) or deleted, and the
    /// cluster merges its taint into every device it selects, as the scheduler's slice tracker does.
    void applyTaintRule(const InjectedEvent& e, bool add)
    {
        if (!add) {
            cluster.removeDeviceTaintRule(e.pool);
            return;
        }
        api::DeviceTaintRule rule;
        rule.meta.name = e.pool;
        rule.deviceSelector = e.selector;
        rule.taint = e.taint;
        std::vector<std::string> victims = cluster.addDeviceTaintRule(rule);
        failPods(victims, PodEventType::Evicted,
            "DeviceTaintRule " + e.pool + ": device taint " + e.taint.key + ":" + e.taint.effect, false);
        scheduleTaintEvictions();
    }

    /// Asks for a TaintEviction check of the pod at `at` (simulated seconds, not before now).
    void scheduleTaintEviction(uint32_t id, double at)
    {
        SimPod& p = pods[id];
        const SimTime t = std::max(now, fromSeconds(at));
        if (p.evictAt == t || t > options.duration)
            return;
        p.evictAt = t;
        events.push(t, EventKind::TaintEviction, id, p.serial);
    }

    /// After device taints changed: the eviction controller's new deadline for every pod holding a
    /// NoExecute-tainted device.
    void scheduleTaintEvictions()
    {
        for (const auto& [key, at] : cluster.deviceTaintEvictions()) {
            auto it = podByKey.find(key);
            if (it != podByKey.end() && pods[it->second].state == PodState::Running)
                scheduleTaintEviction(it->second, at);
        }
    }

    /// The deadline of a tolerated NoExecute taint arrived: evict unless the taint went away (or a
    /// later deadline replaced this one).
    void taintEvictionDue(uint32_t id, uint64_t serial)
    {
        SimPod& p = pods[id];
        if (p.state != PodState::Running || p.serial != serial || p.evictAt != now)
            return;
        p.evictAt = -1;
        auto at = cluster.deviceTaintEvictionTime(p.key);
        if (!at)
            return;
        if (fromSeconds(*at) > now) {
            scheduleTaintEviction(id, *at);
            return;
        }
        failPods(
            { p.key }, PodEventType::Evicted, "NoExecute device taint: tolerationSeconds elapsed", false);
    }

    // ---- NoExecute node taints (the taint eviction controller, node_taint_eviction.h) --------
    const std::vector<api::Taint>& nodeTaints(const std::string& node) const
    {
        static const std::vector<api::Taint> kNone;
        auto it = changedNodeTaints.find(node);
        if (it != changedNodeTaints.end())
            return it->second;
        const NodeSpec* spec = metrics.nodeSpec(node);
        return spec ? spec->node.taints : kNone;
    }

    const std::vector<api::Toleration>& tolerationsOf(const SimPod& p) const
    {
        static const std::vector<api::Toleration> kNone;
        const auto& task = jobs[p.job].spec.tasks[p.task];
        return task.pod ? task.pod->spec.tolerations : kNone;
    }

    /// The controller (re)processes a pod on its node: an eviction already scheduled stays as it
    /// is (processPodOnNode keeps the earlier one); none is scheduled when nothing evicts the pod.
    void checkNodeTaints(uint32_t id)
    {
        SimPod& p = pods[id];
        auto delay = scheduler::noExecuteEvictionDelay(nodeTaints(p.node), tolerationsOf(p));
        if (!delay) {
            p.nodeEvictAt = -1;
            return;
        }
        if (p.nodeEvictAt >= 0)
            return;
        const SimTime t = now + fromSeconds(*delay);
        if (t > options.duration)
            return;
        p.nodeEvictAt = t;
        events.push(t, EventKind::NodeTaintEviction, id, p.serial);
    }

    /// A node update: its taints change, the scheduler sees the new node, and the controller
    /// processes every pod on it.
    void taintNode(const InjectedEvent& e, bool add)
    {
        const NodeSpec* spec = metrics.nodeSpec(e.node);
        if (!spec)
            return;
        std::vector<api::Taint> taints = nodeTaints(e.node);
        auto same = [&](const api::Taint& t) {
            return t.key == e.taint.key && (!add || t.effect == e.taint.effect);
        };
        taints.erase(std::remove_if(taints.begin(), taints.end(), same), taints.end());
        if (add)
            taints.push_back(api::Taint { e.taint.key, e.taint.value, e.taint.effect, "" });
        api::Node node = spec->node;
        node.taints = taints;
        changedNodeTaints[e.node] = std::move(taints);
        cluster.addNode(node, {});
        for (uint32_t id = 0; id < pods.size(); ++id)
            if (pods[id].state == PodState::Running && pods[id].node == e.node)
                checkNodeTaints(id);
    }

    void nodeTaintEvictionDue(uint32_t id, uint64_t serial)
    {
        SimPod& p = pods[id];
        if (p.state != PodState::Running || p.serial != serial || p.nodeEvictAt != now)
            return;
        p.nodeEvictAt = -1;
        if (!scheduler::noExecuteEvictionDelay(nodeTaints(p.node), tolerationsOf(p)))
            return;
        failPods({ p.key }, PodEventType::Evicted, "NoExecute taint of node " + p.node, false);
    }

    void handleInjected(const InjectedEvent& e)
    {
        if (!recorders.empty()) {
            const ClusterEvent announced = clusterEventOf(e, now);
            for (auto* r : recorders)
                r->onClusterEvent(announced);
        }
        switch (e.type) {
        case InjectedEvent::Type::NodeFailure:
            removeNodeNow(e.node, "node " + e.node + " failed", true);
            break;
        case InjectedEvent::Type::NodeReturn: {
            auto it = downNodes.find(e.node);
            if (it == downNodes.end())
                break;
            metrics.accrue(now);
            addNode(it->second, metrics.poolOfDownNode(e.node));
            downNodes.erase(it);
            break;
        }
        case InjectedEvent::Type::DeviceTaint:
            taintDevices(e, true);
            break;
        case InjectedEvent::Type::DeviceUntaint:
            taintDevices(e, false);
            break;
        case InjectedEvent::Type::DeviceTaintRule:
            applyTaintRule(e, true);
            break;
        case InjectedEvent::Type::DeviceTaintRuleDelete:
            applyTaintRule(e, false);
            break;
        case InjectedEvent::Type::NodeTaint:
            taintNode(e, true);
            break;
        case InjectedEvent::Type::NodeUntaint:
            taintNode(e, false);
            break;
        case InjectedEvent::Type::AddNodePool:
            if (e.newPool) {
                metrics.accrue(now);
                metrics.addPool(e.newPool->name, e.newPool->pricePerHour);
                for (const auto& n : e.newPool->nodes)
                    addNode(n, e.newPool->name);
            }
            break;
        case InjectedEvent::Type::RemoveNodePool:
            metrics.accrue(now);
            for (const auto& name : metrics.nodesOfPool(e.pool))
                removeNodeNow(name, "node pool " + e.pool + " removed", false);
            for (const auto& name : metrics.downNodesOfPool(e.pool))
                downNodes.erase(name);
            metrics.forgetDownNodes(e.pool);
            break;
        }
    }

    // ---- main loop -------------------------------------------------------------------------
    void pullArrival()
    {
        nextArrival.reset();
        if (!arrivals)
            return;
        nextArrival = arrivals->next();
        if (!nextArrival)
            return;
        SimTime t = std::max(now, fromSeconds(nextArrival->arrivalSeconds));
        if (t > options.duration) {
            nextArrival.reset();
            return;
        }
        events.push(t, EventKind::Arrival);
    }

    void afterEvent()
    {
        uint64_t gen = cluster.capacityGeneration();
        if (gen != seenGeneration) {
            seenGeneration = gen;
            for (const auto& [group, key] : queue.releaseRepresentatives(gen)) {
                (void)group;
                pods[key.pod].representative = true;
                requeue(key.pod);
            }
        }
        for (;;) {
            uint32_t id;
            if (!queue.activeEmpty()) {
                QueueKey key = queue.popActive();
                SimPod& p = pods[key.pod];
                if (p.state != PodState::Active || p.serial != key.order)
                    continue; // stale entry of a pod that was deleted
                id = key.pod;
            } else if (!backoffOrder.empty()) {
                // SchedulerPopFromBackoffQ: the scheduler would be idle, so it takes the first pod
                // of backoffQ now instead of waiting for its backoff to end. The attempt counts as
                // any other (the next backoff doubles). Every failure in this model is a plugin
                // rejection, so upstream's separate error backoff queue, which is never popped
                // early, has no members here.
                id = backoffOrder.begin()->key.pod;
                leaveBackoff(id);
                pods[id].state = PodState::Active;
            } else {
                break;
            }
            attempt(id);
            // Binding changes nothing that could help others, but freeing can happen inside
            // attempt() only through the cluster; re-check the generation between pods.
            uint64_t g2 = cluster.capacityGeneration();
            if (g2 != seenGeneration) {
                seenGeneration = g2;
                for (const auto& [group, k] : queue.releaseRepresentatives(g2)) {
                    (void)group;
                    pods[k.pod].representative = true;
                    requeue(k.pod);
                }
            }
        }
    }

    /// Free devices the first pending pod (queue order) cannot use, by reason. Only a pod whose
    /// group failed at the current capacity generation is probed: it cannot fit, so the probe
    /// cannot bind it. One probe per sample keeps the cost at O(nodes) per sample.
    std::map<std::string, int64_t> probeFragmentation()
    {
        std::optional<QueueKey> head;
        for (uint32_t g : queue.parkedGroups()) {
            if (!queue.blockedAt(g, seenGeneration))
                continue;
            QueueKey k = queue.firstParked(g);
            if (!head || k < *head)
                head = k;
        }
        if (!head)
            return {};
        return cluster.strandedDevices(buildPod(pods[head->pod]));
    }

    void sample()
    {
        metrics.accrue(now);
        std::map<std::string, int64_t> pending;
        for (uint32_t g : queue.parkedGroups())
            pending[reasonTexts[queue.groupReason(g)]] += int64_t(queue.parkedInGroup(g));
        // Representatives in backoffQ are pending as well (at most one per group); activeQ is
        // always drained when a sample is taken.
        for (uint32_t id : backoffPods)
            pending[pods[id].reason == kNone ? std::string("queued") : reasonTexts[pods[id].reason]]++;
        std::map<std::string, int64_t> fragmentation;
        if (options.fragmentation)
            fragmentation = probeFragmentation();
        MetricSample s = metrics.sample(now, pending, fragmentation);
        for (auto* r : recorders)
            r->onSample(s);
    }

    RunSummary run(ProgressSink* progress, const CancelToken* cancel)
    {
        RunInfo info;
        info.scenario = options.scenarioName;
        info.scenarioFile = options.scenarioFile;
        info.scenarioHash = options.scenarioHash;
        info.seed = options.seed;
        info.duration = options.duration;
        info.metricInterval = options.metricInterval;
        info.nodes = metrics.nodeCount();
        info.devices = metrics.deviceCount();
        for (auto* r : recorders)
            r->onRunStarted(info);

        seenGeneration = cluster.capacityGeneration();
        for (uint32_t i = 0; i < injected.size(); ++i)
            if (injected[i].at <= options.duration)
                events.push(injected[i].at, EventKind::Injected, i);
        if (options.metricInterval > 0)
            events.push(0, EventKind::Sample);
        events.push(options.duration, EventKind::End);
        pullArrival();

        bool cancelled = false;
        SimTime lastSample = -1;
        double lastProgress = -1;
        bool stopped = false;
        while (!events.empty()) {
            if (stopAfter >= 0 && events.top().time > stopAfter) {
                stopped = true; // the state at stopAfter: every event up to it, none after
                break;
            }
            Event e = events.pop();
            now = e.time;
            ++processed;
            if ((processed & 1023) == 0) {
                if (cancel && cancel->cancelled()) {
                    cancelled = true;
                    break;
                }
                if (progress && options.duration > 0) {
                    double f = double(now) / double(options.duration);
                    if (f - lastProgress >= 0.01) {
                        progress->progress(f, "simulating");
                        lastProgress = f;
                    }
                }
            }
            cluster.setTime(toSeconds(now));
            if (e.kind == EventKind::End)
                break;
            switch (e.kind) {
            case EventKind::Arrival:
                if (nextArrival) {
                    workload::JobSpec spec = std::move(*nextArrival);
                    startJob(std::move(spec));
                }
                pullArrival();
                break;
            case EventKind::PodCreate: {
                JobState& job = jobs[e.a];
                if (!job.live || job.serial != e.b)
                    break;
                if (job.spec.kind != workload::kKindJob) {
                    createPod(e.a, e.c);
                } else if (job.syncAt == now) {
                    job.syncAt = -1;
                    syncJob(e.a);
                }
                break;
            }
            case EventKind::PodComplete: {
                SimPod& p = pods[e.a];
                if (p.state == PodState::Running && p.serial == e.b) {
                    cluster.podFinished(p.key);
                    endPod(e.a, PodEventType::Succeeded, {}, true);
                }
                break;
            }
            case EventKind::BackoffExpired: {
                SimPod& p = pods[e.a];
                if (p.state == PodState::Backoff && p.serial == e.b && p.backoffUntil == e.time) {
                    leaveBackoff(e.a);
                    p.state = PodState::Active;
                    queue.pushActive(keyOf(e.a));
                }
                break;
            }
            case EventKind::Injected:
                handleInjected(injected[e.a]);
                break;
            case EventKind::TaintEviction:
                taintEvictionDue(e.a, e.b);
                break;
            case EventKind::NodeTaintEviction:
                nodeTaintEvictionDue(e.a, e.b);
                break;
            case EventKind::Sample:
                afterEvent();
                sample();
                lastSample = now;
                if (now + options.metricInterval <= options.duration)
                    events.push(now + options.metricInterval, EventKind::Sample);
                continue;
            case EventKind::End:
                break;
            }
            afterEvent();
        }
        if (!cancelled && !stopped) {
            now = options.duration;
            if (lastSample != now && options.metricInterval > 0)
                sample();
        }
        metrics.accrue(now);

        std::map<uint32_t, std::pair<int64_t, int64_t>> atEnd; // workload → (pending pods, live jobs)
        for (const auto& p : pods)
            if (p.state != PodState::Free && p.state != PodState::Running)
                atEnd[jobs[p.job].workload].first++;
        for (const auto& j : jobs)
            if (j.live)
                atEnd[j.workload].second++;
        for (const auto& [w, counts] : atEnd)
            metrics.setAtEnd(w, counts.first, counts.second);
        RunSummary summary = metrics.summary(now);
        summary.info = info;
        summary.cancelled = cancelled;
        summary.simulatedTime = now;
        summary.events = processed;
        summary.schedulingAttempts = attempts;
        for (const auto& p : pods) {
            if (p.state == PodState::Free)
                continue;
            if (p.state == PodState::Running)
                summary.podsRunningAtEnd++;
            else
                summary.podsPendingAtEnd++;
        }
        for (auto* r : recorders)
            r->onRunFinished(summary);
        return summary;
    }
};

Simulator::Simulator(ClusterPort& cluster, SimOptions options)
    : m_impl(std::make_unique<Impl>(cluster, std::move(options)))
{ }

Simulator::~Simulator() = default;

void Simulator::addNodePool(const NodePool& pool)
{
    m_impl->metrics.addPool(pool.name, pool.pricePerHour);
    for (const auto& n : pool.nodes) {
        if (pool.preloaded)
            m_impl->metrics.addNode(n, pool.name);
        else
            m_impl->addNode(n, pool.name);
    }
}

void Simulator::setArrivals(std::unique_ptr<workload::ArrivalSource> arrivals)
{
    m_impl->arrivals = std::move(arrivals);
}

void Simulator::addEvent(InjectedEvent event)
{
    m_impl->injected.push_back(std::move(event));
}

void Simulator::addRecorder(RunRecorder* recorder)
{
    m_impl->recorders.push_back(recorder);
}

RunSummary Simulator::run(ProgressSink* progress, const CancelToken* cancel)
{
    return m_impl->run(progress, cancel);
}

void Simulator::runUntil(SimTime t, const CancelToken* cancel)
{
    m_impl->stopAfter = std::max<SimTime>(0, t);
    m_impl->run(nullptr, cancel);
}

Simulator::PodAt Simulator::podAt(const std::string& key) const
{
    PodAt at;
    auto it = m_impl->podByKey.find(key);
    if (it == m_impl->podByKey.end())
        return at;
    const SimPod& p = m_impl->pods[it->second];
    if (p.state == PodState::Free)
        return at;
    at.state = p.state == PodState::Running ? PodAt::State::Running : PodAt::State::Pending;
    at.node = p.node;
    at.pod = m_impl->buildPod(p);
    return at;
}

} // namespace drasim::sim
