// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <vector>

#include "core/scheduler/queueing_hints.h"
#include "core/sim/scheduling_loop.h"

namespace drasim::sim {

/// kube-scheduler's queueing hints (KEP-4247) and its unschedulable flush, over the loop's parked
/// groups (scheduling_loop_hints.cpp).
struct SchedulingLoop::Hints
{
    /// One representative of each parked group that one of the changes may help, and each parked
    /// PodGroup that they may help.
    static void release(SchedulingLoop& loop, const std::vector<scheduler::ClusterChange>& changes);
    /// Requeues the parked PodGroups that `moves` picks; the others stay parked.
    static void releaseGroups(SchedulingLoop& loop, const std::function<bool(const GroupState&)>& moves);
    /// Asks for the flush that will find a group unschedulable since `since` over its 5 minutes.
    static void scheduleFlush(SchedulingLoop& loop, SimTime since);
    /// An UnschedulableFlush event: flushUnschedulablePodsLeftover, which kube-scheduler runs
    /// every 30 s, moves the pods (and PodGroups) unschedulable for more than
    /// podMaxInUnschedulablePodsDuration (5 min) back to the queue.
    static void flush(SchedulingLoop& loop, const Event& e);
};

} // namespace drasim::sim
