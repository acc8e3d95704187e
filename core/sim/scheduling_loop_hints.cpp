// SPDX-License-Identifier: Apache-2.0
// The scheduling queue's queueing hints and its unschedulable flush (KEP-4247; the queue of
// pkg/scheduler/backend/queue): which parked groups a change in the cluster sends back.
#include "core/sim/scheduling_loop_hints.h"

#include <algorithm>
#include <utility>

#include "core/sim/scheduling_loop_trees.h"

namespace drasim::sim {

namespace {
/// podMaxInUnschedulablePodsDuration and the period of flushUnschedulablePodsLeftover.
constexpr SimTime kMaxUnschedulable = 5 * kMinute;
constexpr SimTime kFlushPeriod = 30 * kSecond;
} // namespace

namespace {

/// What a set of changes does without looking at the pending pods, worked out once for all.
struct ChangeDigest
{
    scheduler::PluginSet queued = 0; ///< the plugins queued whatever the pod
    /// The changes whose hints read the pod, in a buffer kept per thread (a digest is made after
    /// every change, and never two at once).
    std::vector<const scheduler::ClusterChange*>& read;
    explicit ChangeDigest(const std::vector<scheduler::ClusterChange>& changes)
        : read(buffer())
    {
        read.clear();
        for (const auto& c : changes) {
            queued |= scheduler::pluginsQueuedBy(c);
            if (scheduler::hintsReadThePod(c))
                read.push_back(&c);
        }
    }
    /// Whether the changes may help a pod that `rejectedBy` turned away; `pod` builds it (only
    /// when a hint has to read it).
    template <typename BuildPod> bool helps(scheduler::PluginSet rejectedBy, const BuildPod& pod) const
    {
        if (rejectedBy == 0 || (rejectedBy & queued) != 0)
            return true;
        if (read.empty() || (rejectedBy & scheduler::kPodReadingHintPlugins) == 0)
            return false;
        const api::Pod built = pod();
        scheduler::PendingPodHints hints(built);
        for (const auto* c : read)
            if (hints.queues(rejectedBy, *c))
                return true;
        return false;
    }

private:
    static std::vector<const scheduler::ClusterChange*>& buffer()
    {
        thread_local std::vector<const scheduler::ClusterChange*> changes;
        return changes;
    }
};

} // namespace

void SchedulingLoop::Hints::release(
    SchedulingLoop& loop, const std::vector<scheduler::ClusterChange>& changes)
{
    if (changes.empty() || (loop.m_queue.parkedGroups().empty() && loop.m_parkedGroups.empty()))
        return;
    const ChangeDigest digest(changes);
    if (!loop.m_queue.parkedGroups().empty()) {
        auto helped = [&](uint32_t group) {
            return digest.helps(loop.m_queue.rejectedBy(group),
                [&] { return loop.m_ctx.buildPod(loop.m_ctx.pods[loop.m_queue.firstParked(group).pod]); });
        };
        for (const auto& [group, key] : loop.m_queue.releaseWhere(helped)) {
            (void)group;
            loop.m_ctx.pods[key.pod].representative = true;
            loop.requeue(key.pod);
        }
    }
    if (loop.m_parkedGroups.empty())
        return;
    releaseGroups(loop, [&](const GroupState& g) {
        // A change that may help any pending member moves the group (KEP-4671 "Retries": a member
        // that gets a Queue hint re-activates its PodGroup). Members of one task of one job are
        // alike (a hierarchy's members come from several jobs).
        std::vector<std::pair<uint32_t, uint32_t>> tasksSeen;
        for (uint32_t id : g.members) {
            const SimPod& p = loop.m_ctx.pods[id];
            const std::pair<uint32_t, uint32_t> task { p.job, p.task };
            if (p.state != PodState::Grouped
                || std::find(tasksSeen.begin(), tasksSeen.end(), task) != tasksSeen.end())
                continue;
            tasksSeen.push_back(task);
            if (digest.helps(g.rejectedBy, [&] { return loop.m_ctx.buildPod(p); }))
                return true;
        }
        return false;
    });
}

void SchedulingLoop::Hints::releaseGroups(
    SchedulingLoop& loop, const std::function<bool(const GroupState&)>& moves)
{
    std::vector<uint32_t> parked;
    parked.swap(loop.m_parkedGroups);
    for (uint32_t j : parked) {
        const GroupState* g = Trees::entity(loop, j);
        if (!g || g->state != GroupState::State::Parked)
            continue; // left the unschedulable groups already
        if (moves(*g))
            loop.requeueGroup(j);
        else
            loop.m_parkedGroups.push_back(j);
    }
}

void SchedulingLoop::Hints::scheduleFlush(SchedulingLoop& loop, SimTime since)
{
    if (!loop.m_hints)
        return;
    // The flush runs at every multiple of 30 s from the scheduler's start and moves a pod once
    // more than 5 minutes have passed: the first tick strictly after since + 5 min.
    const SimTime due = ((since + kMaxUnschedulable) / kFlushPeriod + 1) * kFlushPeriod;
    if (due > loop.m_ctx.options.duration || !loop.m_flushes.insert(due).second)
        return;
    loop.m_ctx.events.push(due, EventKind::UnschedulableFlush);
}

void SchedulingLoop::Hints::flush(SchedulingLoop& loop, const Event& e)
{
    loop.m_flushes.erase(e.time);
    const SimTime now = loop.m_ctx.now;
    auto overdue = [&](uint32_t group) { return now - loop.m_queue.failedAt(group) > kMaxUnschedulable; };
    for (const auto& [group, key] : loop.m_queue.releaseWhere(overdue)) {
        (void)group;
        loop.m_ctx.pods[key.pod].representative = true;
        loop.requeue(key.pod);
    }
    releaseGroups(loop, [&](const GroupState& g) { return now - g.lastAttempt > kMaxUnschedulable; });
}

} // namespace drasim::sim
