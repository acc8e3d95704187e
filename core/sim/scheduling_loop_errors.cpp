// SPDX-License-Identifier: Apache-2.0
// The error backoff queue: kube-scheduler's handleSchedulingFailure gives a pod whose cycle ended
// in an error (not a rejection) no unschedulable plugins, and AddUnschedulableIfNotPresent then
// sends a pod without rejector plugins to backoffQ ("something unusual happened... we should
// retry scheduling it because this Pod may not be retried until the next flush",
// determineSchedulingHintForInFlightPod: queueAfterBackoff), whatever the queueing hints say.
// With SchedulerPopFromBackoffQ such a pod waits in podErrorBackoffQ, which is never popped
// before its backoff is over (pkg/scheduler/backend/queue/backoff_queue.go).
#include "core/sim/scheduling_loop_errors.h"

#include "core/sim/scheduling_loop_hints.h"

namespace drasim::sim {

void SchedulingLoop::Errors::backOff(SchedulingLoop& loop, uint32_t id, const BindOutcome& out)
{
    SimPod& p = loop.m_ctx.pods[id];
    const SimOptions& o = loop.m_ctx.options;
    p.reason = loop.reasonFor(out.message);
    // The backoff of any failed attempt (calculateBackoffDuration over the attempts so far), on
    // the same 1 s window as the other backoffs with SchedulerPopFromBackoffQ.
    SimTime expiry = p.lastAttempt + backoffFor(p.attempts, o.podInitialBackoff, o.podMaxBackoff);
    if (o.popFromBackoffQ)
        expiry = windowedExpiry(expiry);
    p.state = PodState::Backoff;
    p.backoffUntil = expiry;
    loop.m_backoffPods.insert(id);
    // Not in m_backoffOrder: the scheduler does not take it early when it is idle.
    loop.m_ctx.events.push(expiry, EventKind::BackoffExpired, id, p.serial);
    loop.m_ctx.emit(PodEventType::Unschedulable, p, out.message);
}

} // namespace drasim::sim
