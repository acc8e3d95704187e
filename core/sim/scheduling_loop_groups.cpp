// SPDX-License-Identifier: Apache-2.0
// The PodGroup half of the scheduling loop: Kubernetes 1.37 queues a PodGroup instead of its pods
// (pkg/scheduler/backend/queue: QueuedPodGroupInfo). The group passes the gang plugin's
// PreEnqueue once minCount members exist, one group cycle places its pending members together,
// the leftovers of a scheduled group go straight back to activeQ keeping their place, and a group
// that does not fit waits for freed capacity (as unschedulable pods do) and then backs off like a
// pod.
#include <algorithm>
#include <memory>

#include "core/scheduler/pod_group.h"
#include "core/sim/scheduling_loop.h"
#include "core/sim/scheduling_loop_hints.h"
#include "core/sim/scheduling_loop_trees.h"
#include "core/sim/scheduling_signature.h"

namespace drasim::sim {

namespace {

/// The group cycle's message without its "pod group <key>: " lead: the reason then reads the
/// same for every group (one unschedulable-reason series, not one per job).
std::string groupReason(const std::string& message, const std::string& key)
{
    const std::string lead = "pod group " + key + ": ";
    return message.starts_with(lead) ? message.substr(lead.size()) : message;
}

} // namespace

QueueKey SchedulingLoop::groupKey(uint32_t entry)
{
    const GroupState& g = *Trees::entity(*this, entry);
    return QueueKey { g.priority, g.order, kGroupEntry | entry };
}

/// PreEnqueue of the gang plugin counts every member that exists, pending or bound. A larger
/// minCount cannot make a parked group schedulable, so only a new member or a smaller minCount
/// moves it.
void SchedulingLoop::podGroupUpdated(uint32_t jobId, bool mayHelp)
{
    GroupState& g = *m_ctx.jobs[jobId].group;
    const bool quorum = !g.policy.gang || int32_t(g.members.size()) >= g.policy.minCount;
    if (g.state == GroupState::State::Gated && quorum) {
        g.state = GroupState::State::Queued;
        m_queue.pushActive(groupKey(jobId));
    } else if (g.state == GroupState::State::Parked && mayHelp) {
        requeueGroup(jobId);
    }
}

/// Back to activeQ, through backoffQ when its backoff (initial * 2^(attempts-1)) is not over.
void SchedulingLoop::requeueGroup(uint32_t entry)
{
    GroupState& g = *Trees::entity(*this, entry);
    const SimOptions& o = m_ctx.options;
    SimTime expiry = g.lastAttempt + backoffFor(g.attempts, o.podInitialBackoff, o.podMaxBackoff);
    if (o.popFromBackoffQ && g.attempts > 0)
        expiry = windowedExpiry(expiry);
    if (expiry <= m_ctx.now) {
        g.state = GroupState::State::Queued;
        m_queue.pushActive(groupKey(entry));
        return;
    }
    g.state = GroupState::State::Backoff;
    g.backoffUntil = expiry;
    if (o.popFromBackoffQ)
        m_backoffOrder.insert(BackoffKey { expiry, groupKey(entry) });
    else // a hierarchy lives for the whole run: serial 0
        m_ctx.events.push(
            expiry, EventKind::GroupBackoffExpired, entry, entry & kTreeEntry ? 0 : m_ctx.jobs[entry].serial);
}

void SchedulingLoop::groupBackoffExpired(const Event& e)
{
    const uint32_t entry = uint32_t(e.a);
    if (!(entry & kTreeEntry) && m_ctx.jobs[entry].serial != e.b)
        return;
    GroupState* found = Trees::entity(*this, entry);
    if (!found)
        return;
    GroupState& g = *found;
    if (g.state != GroupState::State::Backoff || g.backoffUntil != e.time)
        return;
    g.state = GroupState::State::Queued;
    g.backoffUntil = -1;
    m_queue.pushActive(groupKey(entry));
}

/// Capacity was freed: every parked group goes back (the pods' releaseRepresentatives).
void SchedulingLoop::releaseParkedGroups()
{
    std::vector<uint32_t> parked;
    parked.swap(m_parkedGroups);
    for (uint32_t j : parked) {
        // A slot listed twice (its job ended and the slot's next job parked) is requeued once.
        const GroupState* g = Trees::entity(*this, j);
        if (g && g->state == GroupState::State::Parked)
            requeueGroup(j);
    }
}

/// The group's entry taken from activeQ or backoffQ is current: its job lives and the group
/// still waits in that queue.
bool SchedulingLoop::groupEntryCurrent(const QueueKey& key, GroupState::State state)
{
    const GroupState* g = Trees::entity(*this, key.pod & ~kGroupEntry);
    return g && g->state == state && g->order == key.order;
}

/// One PodGroup scheduling cycle: the pending members together on one view of the cluster.
void SchedulingLoop::attemptGroup(uint32_t jobId)
{
    GroupState& g = *m_ctx.jobs[jobId].group;
    std::vector<uint32_t> pending;
    std::vector<std::string> boundKeys;
    for (uint32_t id : g.members) {
        if (m_ctx.pods[id].state == PodState::Grouped)
            pending.push_back(id);
        else if (m_ctx.pods[id].state == PodState::Running)
            boundKeys.push_back(m_ctx.pods[id].key);
    }
    if (pending.empty()) {
        g.state = GroupState::State::Gated; // every member left; a new one queues it again
        return;
    }
    // Every cycle of every group builds its members' Pods: over the ones the last cycle on this
    // thread built (buildPodInto reuses their strings, containers and map nodes), not anew.
    // Groups of other sizes take and give back Pods from a spare list rather than make and free
    // them.
    thread_local std::vector<api::Pod> built;
    thread_local std::vector<api::Pod> spare;
    for (; built.size() > pending.size(); built.pop_back())
        spare.push_back(std::move(built.back()));
    for (; built.size() < pending.size(); spare.pop_back()) {
        if (spare.empty()) {
            built.resize(pending.size());
            break;
        }
        built.push_back(std::move(spare.back()));
    }
    for (size_t i = 0; i < pending.size(); ++i)
        m_ctx.buildPodInto(m_ctx.pods[pending[i]], built[i]);
    const GroupOutcome out = runGroupCycle(g, built, boundKeys);
    m_attempts += pending.size();
    ++m_groupCycles;
    g.attempts++;
    g.lastAttempt = m_ctx.now;
    const std::string key = g.policy.key; // a binding may end the job and clear `g`
    if (out.scheduled && g.facts && g.facts->domain != out.domain) {
        // Before binding: the members' Scheduled events name the domain.
        auto facts = std::make_shared<PodEventGroup>(*g.facts);
        facts->domain = out.domain;
        g.facts = std::move(facts);
    }
    bindMembers(pending, out, key);
    // 1.36 without workload-aware preemption: members that did not fit preempted for themselves,
    // each its own preemptor, whatever became of the group (group_pod_preemption.cpp). Nothing
    // was bound then, so every pending member still stands.
    if (!out.scheduled)
        for (size_t i = 0; i < pending.size() && i < out.members.size(); ++i)
            if (!out.members[i].victims.empty()) {
                g.preempted = true;
                preempted(pending[i], out.members[i]);
            }
    // Preemption nominated the members, with victims or (every unit reprieved) without: the
    // group's next cycles read those nominations, so they are not answered from the memo.
    if (!out.scheduled && std::any_of(out.members.begin(), out.members.end(), [](const BindOutcome& m) {
            return !m.nominatedNode.empty();
        }))
        g.preempted = true;
    if (!out.victims.empty()) {
        g.preempted = true;
        groupPreempted(g, out); // nothing was bound: `g` still stands
    }
    afterGroupCycle(jobId, out);
}

/// The group cycle, or the answer an equal group got on this very cluster state. Always run: a
/// group with members bound already (they decide where the others may go) and one that preempted
/// before (its members may be nominated, which its preemption reads).
GroupOutcome SchedulingLoop::runGroupCycle(
    const GroupState& g, const std::vector<api::Pod>& pods, const std::vector<std::string>& boundKeys)
{
    const GroupPolicy& policy = g.policy;
    if (!boundKeys.empty() || g.preempted)
        return m_ctx.cluster.scheduleGroup(policy, pods, boundKeys);
    const uint64_t generation = m_ctx.cluster.stateGeneration();
    const std::string signature = groupSchedulingSignature(policy, pods, labelsMatter());
    if (auto known = m_groupFailures.recall(signature, generation, policy.key))
        return std::move(*known);
    GroupOutcome out = m_ctx.cluster.scheduleGroup(policy, pods, boundKeys);
    if (m_ctx.cluster.stateGeneration() == generation)
        m_groupFailures.remember(signature, generation, policy.key, pods, out);
    return out;
}

/// The placed members are bound; the others learn why not.
void SchedulingLoop::bindMembers(
    const std::vector<uint32_t>& pending, const GroupOutcome& out, const std::string& key)
{
    std::vector<uint64_t> serials;
    serials.reserve(pending.size());
    for (uint32_t id : pending)
        serials.push_back(m_ctx.pods[id].serial);
    for (size_t i = 0; i < pending.size(); ++i) {
        SimPod& p = m_ctx.pods[pending[i]];
        // Binding an earlier member can end the job (an eviction at bind beyond backoffLimit):
        // its queued members are gone then, their bindings released by dropQueued.
        if (p.state != PodState::Grouped || p.serial != serials[i])
            continue;
        p.attempts++;
        p.lastAttempt = m_ctx.now;
        if (out.members[i].scheduled) {
            bind(pending[i], out.members[i]); // may create pods: `p` is not used after it
        } else {
            p.reason = reasonFor(groupReason(out.members[i].message, key));
            m_ctx.emit(PodEventType::Unschedulable, p, out.members[i].message);
        }
    }
}

/// Where the group goes after its cycle: scheduled with members left over, straight back to
/// activeQ without backoff, keeping its place (1.37, kubernetes/kubernetes#139613); scheduled
/// whole, gated until a new member arrives; not scheduled, parked until capacity is freed.
void SchedulingLoop::afterGroupCycle(uint32_t jobId, const GroupOutcome& out)
{
    JobState& job = m_ctx.jobs[jobId];
    if (!job.live || !job.group)
        return; // the job ended while its members were bound
    GroupState& g = *job.group;
    g.lastMessage = out.scheduled ? std::string() : groupReason(out.message, g.policy.key);
    g.lastPreemption = out.scheduled ? std::string() : out.preemptionMessage;
    g.reason = out.scheduled ? kNone : reasonFor(g.lastMessage);
    const bool leftovers = std::any_of(g.members.begin(), g.members.end(),
        [&](uint32_t id) { return m_ctx.pods[id].state == PodState::Grouped; });
    if (out.scheduled && leftovers) {
        // The next cycle that places nothing more parks it.
        g.state = GroupState::State::Queued;
        m_queue.pushActive(groupKey(jobId));
    } else if (out.scheduled) {
        g.state = GroupState::State::Gated;
    } else {
        g.state = GroupState::State::Parked;
        g.rejectedBy = 0;
        for (const auto& m : out.members)
            g.rejectedBy |= m.unschedulablePlugins;
        m_parkedGroups.push_back(jobId);
        Hints::scheduleFlush(*this, m_ctx.now);
    }
}

std::string SchedulingLoop::groupStatus(uint32_t jobId) const
{
    const GroupState& g = *m_ctx.jobs[jobId].group;
    const GroupPolicy& p = g.policy;
    std::string out = "pod group " + p.key + " ("
        + (p.gang ? "gang, minCount " + std::to_string(p.minCount) : std::string("basic"))
        + (p.topologyKey.empty() ? "" : ", topology " + p.topologyKey) + "): ";
    if (g.state == GroupState::State::Gated)
        // The gang plugin's PreEnqueue message (pkg/scheduler/framework/plugins/gangscheduling).
        return out + std::to_string(g.members.size()) + " of minCount " + std::to_string(p.minCount)
            + " pods exist; " + scheduler::kGangQuorumWaitMessage;
    if (!g.lastMessage.empty())
        return out + "last group cycle: " + g.lastMessage
            + (g.lastPreemption.empty() ? std::string() : "; " + g.lastPreemption);
    return out + "waiting for its group scheduling cycle";
}

void SchedulingLoop::addGroupPending(std::map<std::string, int64_t>& pending) const
{
    for (const auto& job : m_ctx.jobs) {
        if (!job.live || !job.group)
            continue;
        const GroupState& g = *job.group;
        const auto waiting = std::count_if(g.members.begin(), g.members.end(),
            [&](uint32_t id) { return m_ctx.pods[id].state == PodState::Grouped; });
        if (waiting == 0)
            continue;
        std::string reason = "queued";
        if (g.state == GroupState::State::Gated)
            reason = scheduler::kGangQuorumWaitMessage;
        else if (g.reason != kNone)
            reason = m_reasonTexts[g.reason];
        pending[reason] += int64_t(waiting);
    }
}

} // namespace drasim::sim
