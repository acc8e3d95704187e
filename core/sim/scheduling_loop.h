// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/scheduler/preemptor_kind.h"
#include "core/sim/group_failure_memo.h"
#include "core/sim/group_trees.h"
#include "core/sim/sim_context.h"
#include "core/sim/template_groups.h"

namespace drasim::sim {

class DeviceLedger;
class EvictionController;
class JobController;

/// With SchedulerPopFromBackoffQ, kube-scheduler truncates a backoff expiry to its 1 s ordering
/// window and counts the entry as backing off while that window is not over; the queue is flushed
/// on whole seconds. So a pod (or PodGroup) completes backoff at the end of its window. The run
/// starts on a window boundary.
SimTime windowedExpiry(SimTime expiry);

/// kube-scheduler's queue and scheduling cycle as the simulation runs them: activeQ, backoffQ
/// and the unschedulable pods (parked per scheduling group, one representative retried per
/// group when capacity changes). After each event run() drains the queue: a pod is popped
/// (popNext), attempted against the cluster (attempt), and then either bound (bind) or parked
/// as unschedulable (park); parked pods come back through requeue(), to backoffQ or activeQ.
///
/// With SimOptions::podGroups a job's PodGroup is the queue entity instead of its pods, as in
/// Kubernetes 1.37 (scheduling_loop_groups.cpp): its members wait as Grouped pods, the group
/// enters activeQ once the gang plugin's PreEnqueue lets it (minCount members exist), and one
/// group cycle (ClusterPort::scheduleGroup) places its pending members together.
class SchedulingLoop
{
public:
    SchedulingLoop(SimContext& ctx, DeviceLedger& ledger, JobController& jobs, EvictionController& evictions)
        : m_ctx(ctx)
        , m_ledger(ledger)
        , m_jobs(jobs)
        , m_evictions(evictions)
    { }

    /// The capacity generation the loop has seen (set once before the first event).
    void start()
    {
        m_seenGeneration = m_ctx.cluster.capacityGeneration();
        // The first call starts the record: the hints see what follows.
        m_hints = m_ctx.options.queueingHints && m_ctx.cluster.takeChanges(m_changes);
    }
    /// A new pod enters the queue; `tmpl` is its template, which identifies its scheduling group.
    /// A member of a PodGroup joins its group instead.
    void add(uint32_t id, const std::shared_ptr<const api::PodTemplateSpec>& tmpl);
    /// Removes a pod that is still queued (its job ended or failed).
    void dropQueued(uint32_t id);
    /// A BackoffExpired event: the pod moves from backoffQ to activeQ (stale events are ignored).
    void backoffExpired(const Event& e);
    /// A VictimGone event: a preemption victim's grace period is over and it is deleted.
    void victimGone(const Event& e);
    /// A GroupBackoffExpired event: the PodGroup moves from backoffQ to activeQ.
    void groupBackoffExpired(const Event& e);
    /// The job's PodGroup changed: a member was created, or the Job controller patched its
    /// minCount. A gated group passes the gang plugin's PreEnqueue once minCount members exist; a
    /// group parked as unschedulable goes back when the change may help it (`mayHelp`: a new
    /// member, a smaller minCount), as the plugin's queueing hints for pods and PodGroups say.
    void podGroupUpdated(uint32_t jobId, bool mayHelp);
    /// The queueing hints and the unschedulable flush (scheduling_loop_hints.h).
    struct Hints;
    /// Cycles that end in an error: the error backoff queue (scheduling_loop_errors.h).
    struct Errors;
    /// Kubernetes 1.35's gangs, whose members wait at Permit (scheduling_loop_permit.h).
    struct Permit;
    /// CompositePodGroup hierarchies, whose root is the queue entity (scheduling_loop_trees.h).
    struct Trees;
    /// Schedules until the queue is empty (scheduling takes no simulated time), then tells the
    /// metrics the pending count has settled (the exact peak pending is taken there).
    void run();
    /// What holds a PodGroup's pending members back, in the scheduler's words (for `explain`).
    std::string groupStatus(uint32_t jobId) const;
    /// Pending members of PodGroups, by the reason their group waits (for the sampler).
    void addGroupPending(std::map<std::string, int64_t>& pending) const;

    // For the sampler: the unschedulable pods and their reasons.
    const SchedulingQueue& queue() const { return m_queue; }
    const std::string& reasonText(uint32_t reason) const { return m_reasonTexts[reason]; }
    const std::set<uint32_t>& backoffPods() const { return m_backoffPods; }
    uint64_t seenGeneration() const { return m_seenGeneration; }
    uint64_t attempts() const { return m_attempts; }
    uint64_t groupCycles() const { return m_groupCycles; }

private:
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

    uint32_t groupOf(const api::Pod& pod, const std::shared_ptr<const api::PodTemplateSpec>& tmpl);
    uint32_t reasonFor(const std::string& message);
    void releaseRepresentativesIfCapacityChanged();
    bool popNext(uint32_t& id);
    bool popBackoff(uint32_t& id);
    void attempt(uint32_t id);
    void bind(uint32_t id, const BindOutcome& out);
    /// blockGroup: equivalent pods are parked without a cycle until capacity is freed.
    void park(
        uint32_t id, const std::string& message, scheduler::PluginSet rejectedBy, bool blockGroup = true);
    /// The pod's cycle preempted: each new victim is Preempted now and ends after its grace period.
    void preempted(uint32_t id, const BindOutcome& out);
    /// The group's cycle preempted (workload-aware preemption): its victims, the same way.
    void groupPreempted(const GroupState& g, const GroupOutcome& out);
    void deleteVictims(const std::string& preemptor, int32_t priority,
        const std::vector<std::string>& victims, scheduler::PreemptorKind kind);
    void representativeDone(uint32_t group, bool scheduled);
    void requeue(uint32_t id);
    void leaveBackoff(uint32_t id);

    // PodGroups (scheduling_loop_groups.cpp). `id` with kGroupEntry set names a job's group, or
    // with kTreeEntry too a hierarchy's root; the functions below take the entry without
    // kGroupEntry (a job slot, or kTreeEntry and the hierarchy's index).
    QueueKey groupKey(uint32_t entry);
    void requeueGroup(uint32_t entry);
    void releaseParkedGroups();
    bool groupEntryCurrent(const QueueKey& key, GroupState::State state);
    void attemptGroup(uint32_t jobId);
    GroupOutcome runGroupCycle(
        const GroupState& g, const std::vector<api::Pod>& pods, const std::vector<std::string>& boundKeys);
    void bindMembers(const std::vector<uint32_t>& pending, const GroupOutcome& out, const std::string& key);
    void afterGroupCycle(uint32_t jobId, const GroupOutcome& out);

    SimContext& m_ctx;
    DeviceLedger& m_ledger;
    JobController& m_jobs;
    EvictionController& m_evictions;
    SchedulingQueue m_queue;
    uint64_t m_seenGeneration = 0;
    uint64_t m_attempts = 0;
    uint64_t m_groupCycles = 0;
    /// Group entries (job slots, kTreeEntry and a hierarchy) that wait for freed capacity.
    std::vector<uint32_t> m_parkedGroups;
    GroupTrees m_trees;
    /// The jobs of 1.35 gangs that had a member queued, for the pending table (Permit::addPending
    /// drops those no longer live as it reads them).
    mutable std::vector<uint32_t> m_permitJobs;
    GroupFailureMemo m_groupFailures;
    std::vector<std::string> m_reasonTexts; ///< the primary reason (primaryReason) per reason id
    std::map<std::string, uint32_t> m_reasonIds;
    /// Whole messages already reduced to their reason (messages carry counts, so their number is
    /// bounded only by the run: the first kRememberedMessages are kept).
    static constexpr size_t kRememberedMessages = 4096;
    std::unordered_map<std::string, uint32_t> m_messageReasons;
    std::set<uint32_t> m_backoffPods; ///< pods in backoffQ (sampling counts them as pending)
    std::set<SimTime> m_flushes; ///< the UnschedulableFlush events pending
    /// Queueing hints on, and the cluster reports its changes (ClusterPort::takeChanges).
    bool m_hints = false;
    std::vector<scheduler::ClusterChange> m_changes; ///< the last ones taken (buffer kept)
    /// backoffQ in pop order; kept only with SchedulerPopFromBackoffQ (the only reader).
    std::set<BackoffKey> m_backoffOrder;
    /// The group of the pods of each template (see TemplateGroups for when it holds).
    TemplateGroups m_templateGroups;
    bool m_labelsMatter = false; ///< labelsMatter(), once true
    /// Whether pods' labels are part of their scheduling signatures (running pods' affinity).
    bool labelsMatter();
};

} // namespace drasim::sim
