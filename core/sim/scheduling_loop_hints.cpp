// SPDX-License-Identifier: Apache-2.0
// The scheduling queue's queueing hints and its unschedulable flush (KEP-4247; the queue of
// pkg/scheduler/backend/queue): which parked groups a change in the cluster sends back.
#include "core/sim/scheduling_loop_hints.h"

namespace drasim::sim {

namespace {
/// podMaxInUnschedulablePodsDuration and the period of flushUnschedulablePodsLeftover.
constexpr SimTime kMaxUnschedulable = 5 * kMinute;
constexpr SimTime kFlushPeriod = 30 * kSecond;
} // namespace

void SchedulingLoop::Hints::release(
    SchedulingLoop& loop, const std::vector<scheduler::ClusterChange>& changes)
{
    if (changes.empty() || loop.m_queue.parkedGroups().empty())
        return;
    // What the changes queue without looking at the pod, once for all groups; the node hints
    // compare each group's pod with the nodes that were added or updated.
    scheduler::PluginSet queued = 0;
    std::vector<const scheduler::ClusterChange*> nodeChanges;
    for (const auto& c : changes) {
        queued |= scheduler::pluginsQueuedBy(c);
        if (c.kind == scheduler::ClusterChange::Kind::NodeAdded
            || c.kind == scheduler::ClusterChange::Kind::NodeUpdated)
            nodeChanges.push_back(&c);
    }
    auto helped = [&](uint32_t group) {
        const scheduler::PluginSet rejectedBy = loop.m_queue.rejectedBy(group);
        if (rejectedBy == 0 || (rejectedBy & queued) != 0)
            return true;
        if (nodeChanges.empty() || (rejectedBy & scheduler::kNodeHintPlugins) == 0)
            return false;
        const api::Pod pod = loop.m_ctx.buildPod(loop.m_ctx.pods[loop.m_queue.firstParked(group).pod]);
        for (const auto* c : nodeChanges)
            if (scheduler::mayMakeSchedulable(rejectedBy, *c, pod))
                return true;
        return false;
    };
    for (const auto& [group, key] : loop.m_queue.releaseWhere(helped)) {
        (void)group;
        loop.m_ctx.pods[key.pod].representative = true;
        loop.requeue(key.pod);
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
}

} // namespace drasim::sim
