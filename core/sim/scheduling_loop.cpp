// SPDX-License-Identifier: Apache-2.0
#include "core/sim/scheduling_loop.h"

#include "core/sim/device_ledger.h"
#include "core/sim/eviction_controller.h"
#include "core/sim/job_controller.h"
#include "core/sim/scheduling_loop_errors.h"
#include "core/sim/scheduling_loop_hints.h"
#include "core/sim/scheduling_loop_permit.h"
#include "core/sim/scheduling_loop_trees.h"
#include "core/sim/scheduling_signature.h"

namespace drasim::sim {

SimTime windowedExpiry(SimTime expiry)
{
    return (expiry / kSecond + 1) * kSecond;
}

uint32_t SchedulingLoop::groupOf(const api::Pod& pod, const std::shared_ptr<const api::PodTemplateSpec>& tmpl)
{
    const uint32_t g = m_queue.groupFor(schedulingSignature(pod, labelsMatter()));
    if (tmpl && !labelsMatter() && !hasPodPlacementRules(tmpl->spec))
        m_templateGroups.remember(tmpl, pod.meta.namespace_, pod.spec.priority.value_or(0), g);
    return g;
}

bool SchedulingLoop::labelsMatter()
{
    // Once running pods have affinity terms, labels stay part of every signature: a group made
    // without them cannot be split afterwards.
    m_labelsMatter = m_labelsMatter || m_ctx.cluster.runningPodsHaveAffinity();
    return m_labelsMatter;
}

uint32_t SchedulingLoop::reasonFor(const std::string& message)
{
    // Pending pods repeat a handful of messages thousands of times: each is parsed once.
    if (auto known = m_messageReasons.find(message); known != m_messageReasons.end())
        return known->second;
    std::string primary = primaryReason(message);
    auto [it, inserted] = m_reasonIds.emplace(primary, uint32_t(m_reasonTexts.size()));
    if (inserted)
        m_reasonTexts.push_back(primary);
    if (m_messageReasons.size() < kRememberedMessages)
        m_messageReasons.emplace(message, it->second);
    return it->second;
}

void SchedulingLoop::add(uint32_t id, const std::shared_ptr<const api::PodTemplateSpec>& tmpl)
{
    SimPod& p = m_ctx.pods[id];
    // Another scheduler's pod stays pending here: no attempt, no status, no queue; nor is it a
    // member a PodGroup cycle sees (the gang plugin counts only the pods this scheduler queues).
    if (tmpl && !m_ctx.cluster.responsibleFor(tmpl->spec.schedulerName)) {
        p.state = PodState::Foreign;
        m_ctx.metrics.podPending(+1);
        return;
    }
    if (Trees::add(*this, id))
        return; // the pod waits for its hierarchy's cycle
    if (m_ctx.jobs[p.job].group) {
        p.state = PodState::Grouped;
        m_ctx.metrics.podPending(+1);
        m_ctx.jobs[p.job].group->members.push_back(id);
        podGroupUpdated(p.job, true);
        return;
    }
    if (m_ctx.jobs[p.job].permitGang) {
        // A 1.35 gang's member: queued on its own, once PreEnqueue lets it in.
        if (Permit::admit(*this, id))
            return;
    } else {
        // The api::Pod is built only when the scheduler needs it: a million queued pods would
        // otherwise each hold a copy of their template.
        // Pods of one template are interchangeable unless their labels decide where they fit:
        // jobs sharing a template carry their own job labels. A Pod built for the signature is
        // kept for the pod's first cycle, which mostly follows at once.
        const JobState& job = m_ctx.jobs[p.job];
        std::optional<uint32_t> known;
        if (tmpl && !labelsMatter())
            known = m_templateGroups.find(tmpl.get(), job.spec.namespace_, job.spec.tasks[p.task].priority);
        if (known)
            p.group = *known;
        else
            p.group = groupOf(m_ctx.podForCycle(p), tmpl);
        m_ctx.metrics.podPending(+1);
    }
    if (m_queue.blockedAt(p.group, m_seenGeneration)) {
        // An equivalent pod failed and nothing was freed since: this attempt would fail the
        // same way, so record it as failed without running the scheduler.
        p.attempts = 1;
        p.lastAttempt = m_ctx.now;
        p.reason = m_queue.groupReason(p.group);
        p.state = PodState::Parked;
        m_queue.park(p.group, m_ctx.keyOf(id));
        m_ctx.emit(PodEventType::Unschedulable, p, m_reasonTexts[p.reason]);
        return;
    }
    p.state = PodState::Active;
    m_queue.pushActive(m_ctx.keyOf(id));
}

void SchedulingLoop::dropQueued(uint32_t id)
{
    SimPod& p = m_ctx.pods[id];
    Permit::forget(*this, id);
    if (p.state == PodState::Parked)
        m_queue.unpark(p.group, m_ctx.keyOf(id));
    if (p.state == PodState::Backoff)
        leaveBackoff(id);
    if (p.representative) {
        p.representative = false;
        representativeDone(p.group, true);
    }
    m_ctx.metrics.podPending(-1);
    m_ctx.metrics.podFailed(m_ctx.jobs[p.job].workload, false);
    m_ctx.metrics.podNeverScheduled(m_ctx.jobs[p.job].workload, m_ctx.now - p.created);
    m_ctx.preemption.podNeverScheduled(m_ctx.priorityClassOf(p), m_ctx.now - p.created);
    m_ctx.cluster.podFinished(p.key);
}

void SchedulingLoop::backoffExpired(const Event& e)
{
    SimPod& p = m_ctx.pods[e.a];
    if (p.state != PodState::Backoff || p.serial != e.b || p.backoffUntil != e.time)
        return;
    leaveBackoff(e.a);
    p.state = PodState::Active;
    m_queue.pushActive(m_ctx.keyOf(e.a));
}

void SchedulingLoop::run()
{
    releaseRepresentativesIfCapacityChanged();
    uint32_t id = 0;
    while (popNext(id)) {
        if (id & kTreeEntry)
            Trees::attempt(*this, id & ~(kGroupEntry | kTreeEntry));
        else if (id & kGroupEntry)
            attemptGroup(id & ~kGroupEntry);
        else
            attempt(id);
        // Binding changes nothing that could help others, but freeing can happen inside
        // attempt() only through the cluster; re-check the generation between pods.
        releaseRepresentativesIfCapacityChanged();
    }
    m_ctx.metrics.settled();
}

/// The cluster changed since the loop last looked: with queueing hints, each group of
/// unschedulable pods that a change may help sends one representative back to the queue; without
/// them (or with a cluster that does not report its changes), each group does when capacity was
/// freed.
void SchedulingLoop::releaseRepresentativesIfCapacityChanged()
{
    const uint64_t gen = m_ctx.cluster.capacityGeneration();
    if (m_hints)
        m_ctx.cluster.takeChanges(m_changes);
    if (gen == m_seenGeneration && (!m_hints || m_changes.empty()))
        return;
    const bool freed = gen != m_seenGeneration;
    m_seenGeneration = gen;
    if (m_hints) {
        Hints::release(*this, m_changes);
    } else {
        for (const auto& [group, key] : m_queue.releaseRepresentatives(gen)) {
            (void)group;
            m_ctx.pods[key.pod].representative = true;
            requeue(key.pod);
        }
    }
    if (freed && !m_hints)
        releaseParkedGroups(); // with hints, Hints::release moves the groups a change may help
}

/// The next pod (or PodGroup: kGroupEntry set) to attempt: the head of activeQ, or with
/// SchedulerPopFromBackoffQ the head of backoffQ when activeQ is empty. False when both are empty.
bool SchedulingLoop::popNext(uint32_t& id)
{
    while (!m_queue.activeEmpty()) {
        QueueKey key = m_queue.popActive();
        if (key.pod & kGroupEntry) {
            if (!groupEntryCurrent(key, GroupState::State::Queued))
                continue; // its job ended
        } else {
            const SimPod& p = m_ctx.pods[key.pod];
            if (p.state != PodState::Active || m_ctx.keyOf(key.pod).order != key.order)
                continue; // stale entry of a pod that was deleted
        }
        id = key.pod;
        return true;
    }
    return popBackoff(id);
}

/// The scheduler would be idle, so it takes the first entry of backoffQ now instead of waiting
/// for its backoff to end. The attempt counts as any other (the next backoff doubles). Every
/// failure in this model is a plugin rejection, so upstream's separate error backoff queue,
/// which is never popped early, has no members here.
bool SchedulingLoop::popBackoff(uint32_t& id)
{
    while (!m_backoffOrder.empty()) {
        const QueueKey key = m_backoffOrder.begin()->key;
        id = key.pod;
        if (id & kGroupEntry) {
            m_backoffOrder.erase(m_backoffOrder.begin());
            if (!groupEntryCurrent(key, GroupState::State::Backoff))
                continue; // its job ended
            GroupState& g = *Trees::entity(*this, id & ~kGroupEntry);
            g.state = GroupState::State::Queued;
            g.backoffUntil = -1;
            return true;
        }
        leaveBackoff(id);
        m_ctx.pods[id].state = PodState::Active;
        return true;
    }
    return false;
}

/// One scheduling cycle for one pod: bound, or parked as unschedulable; then, if the pod was its
/// group's representative, the group learns the outcome.
void SchedulingLoop::attempt(uint32_t id)
{
    SimPod& p = m_ctx.pods[id];
    ++m_attempts;
    BindOutcome out = m_ctx.cluster.schedule(m_ctx.podForCycle(p));
    p.attempts++;
    p.lastAttempt = m_ctx.now;
    const bool wasRepresentative = p.representative;
    p.representative = false;
    const uint32_t group = p.group;
    if (out.scheduled) {
        // A 1.35 gang's member waits at Permit, or binds with its gang (Permit::reserved). Either
        // may create pods and so move the pod table: `p` is not used after it.
        if (!Permit::reserved(*this, id, out))
            bind(id, out);
    } else if (Errors::backsOff(*this, out)) {
        Errors::backOff(*this, id, out);
    } else {
        // A pod that preempted does not block its equivalents: each may preempt elsewhere.
        park(id, out.message, out.unschedulablePlugins, out.victims.empty());
        if (!out.victims.empty())
            preempted(id, out);
    }
    if (wasRepresentative)
        representativeDone(group, out.scheduled);
}

void SchedulingLoop::bind(uint32_t id, const BindOutcome& out)
{
    SimPod& p = m_ctx.pods[id];
    m_ctx.releaseBuiltPod(p);
    p.state = PodState::Running;
    p.node = out.nodeName;
    p.bound = m_ctx.now;
    p.claims = out.claims;
    m_ledger.bind(out);
    m_ctx.metrics.podScheduled(m_ctx.jobs[p.job].workload, m_ctx.now - p.created);
    m_ctx.preemption.podScheduled(m_ctx.priorityClassOf(p), m_ctx.now - p.created);
    m_ctx.metrics.podPending(-1);
    m_ctx.metrics.podRunning(+1);
    for (const auto& placement : out.placements)
        m_ctx.metrics.placement(placement);
    m_ctx.emit(PodEventType::Scheduled, p, {}, &out);
    m_evictions.podBound(id);
    m_jobs.podBound(id, int32_t(out.allocated.size())); // last: it may create pods
}

void SchedulingLoop::park(
    uint32_t id, const std::string& message, scheduler::PluginSet rejectedBy, bool blockGroup)
{
    SimPod& p = m_ctx.pods[id];
    p.reason = reasonFor(message);
    if (blockGroup)
        m_queue.markBlocked(p.group, m_seenGeneration, p.reason);
    m_queue.noteFailure(p.group, rejectedBy, m_ctx.now);
    Hints::scheduleFlush(*this, m_ctx.now);
    p.state = PodState::Parked;
    m_queue.park(p.group, m_ctx.keyOf(id));
    m_ctx.emit(PodEventType::Unschedulable, p, message);
}

/// The group's representative left the queue: on success (or deletion) the next parked member,
/// if any, becomes the representative and is requeued.
void SchedulingLoop::representativeDone(uint32_t group, bool scheduled)
{
    QueueKey next;
    if (m_queue.representativeDone(group, scheduled, m_seenGeneration, &next)) {
        m_ctx.pods[next.pod].representative = true;
        requeue(next.pod);
    }
}

/// Puts a pod that left the unschedulable set back: activeQ, or backoffQ until its backoff ends.
void SchedulingLoop::requeue(uint32_t id)
{
    SimPod& p = m_ctx.pods[id];
    const SimOptions& o = m_ctx.options;
    SimTime expiry = p.lastAttempt + backoffFor(p.attempts, o.podInitialBackoff, o.podMaxBackoff);
    if (o.popFromBackoffQ && p.attempts > 0)
        expiry = windowedExpiry(expiry);
    if (expiry <= m_ctx.now) {
        p.state = PodState::Active;
        m_queue.pushActive(m_ctx.keyOf(id));
        return;
    }
    p.state = PodState::Backoff;
    p.backoffUntil = expiry;
    m_backoffPods.insert(id);
    if (o.popFromBackoffQ) {
        // Every requeue happens during an event, and run() pops backoffQ empty before the next
        // one (scheduling takes no time, so the scheduler is idle then): the expiry event could
        // never find the pod still backing off.
        m_backoffOrder.insert(BackoffKey { expiry, m_ctx.keyOf(id) });
    } else {
        m_ctx.events.push(expiry, EventKind::BackoffExpired, id, p.serial);
    }
}

/// Takes a pod out of backoffQ (its backoff ended, it was popped early, or it was deleted).
void SchedulingLoop::leaveBackoff(uint32_t id)
{
    m_backoffPods.erase(id);
    if (m_ctx.options.popFromBackoffQ)
        m_backoffOrder.erase(BackoffKey { m_ctx.pods[id].backoffUntil, m_ctx.keyOf(id) });
    m_ctx.pods[id].backoffUntil = -1;
}

} // namespace drasim::sim
