// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "core/sim/scheduling_loop.h"

namespace drasim::sim {

/// Kubernetes 1.35's gangs (SimOptions::permitGangs), as the GangScheduling plugin of v1.35 and
/// its workload manager run them (scheduler/permit.h): there is no group cycle; the members are
/// plain pods of the queue, each tried in its own cycle. PreEnqueue holds them back until minCount
/// exist; a member whose cycle reserved a node waits at Permit, holding that node's resources and
/// its devices, until assumed and bound members reach minCount, and then every waiting member
/// binds; a wait activates the gang's other unscheduled members. The group's deadline is made at
/// its first wait, 5 minutes ahead; when it passes, the waiting members are rejected, unreserved
/// and parked as unschedulable (only the gang plugin rejected them: a new member or the 5-minute
/// flush moves them, or the other members' retries activate them again).
struct SchedulingLoop::Permit
{
    /// A new member enters the queue: its queue equivalence group is its gang's own (members of
    /// different gangs are never alike at Permit) and PreEnqueue decides. True when PreEnqueue
    /// refused it (it is Gated); false when the caller queues it. A member that completes the
    /// quorum lets the gated ones in.
    static bool admit(SchedulingLoop& loop, uint32_t id);
    /// Reserve succeeded for `id` (`out`): true when the gang plugin took it, to wait at Permit or
    /// to bind with the waiting members now that the quorum is there; false for a pod of no gang.
    static bool reserved(SchedulingLoop& loop, uint32_t id, const BindOutcome& out);
    /// A PermitTimeout event: the group's deadline passed; its waiting members are rejected.
    static void timeout(SchedulingLoop& loop, const Event& e);
    /// A queued member is deleted (its job ended): a waiting one leaves the gang's waiters and the
    /// devices it held are free in the metrics (the caller releases it in the cluster).
    static void forget(SchedulingLoop& loop, uint32_t id);
    /// A waiting member is rejected before its gang's deadline: its node went away (`released`:
    /// the cluster let the pod go with it), or preemption chose it as a victim, which rejects a
    /// waiting pod instead of deleting it (RejectWaitingPod: "removed"). It leaves the waiters,
    /// gives back what it holds and goes back to the queue. False when the pod does not wait.
    static bool rejectWaiting(
        SchedulingLoop& loop, const std::string& podKey, const std::string& message, bool released);
    /// Gated and waiting members, by the gang plugin's words (for the sampler).
    static void addPending(const SchedulingLoop& loop, std::map<std::string, int64_t>& pending);
    /// What holds the gang's pending members back, for `explain`.
    static std::string status(const SchedulingLoop& loop, uint32_t jobId);

private:
    /// Permit's Activate: the gang's unschedulable and backing-off members go to activeQ.
    static void activate(SchedulingLoop& loop, uint32_t jobId);
    /// Every waiting member binds, then `id` (the one that completed the quorum).
    static void allow(SchedulingLoop& loop, uint32_t jobId, uint32_t id, const BindOutcome& out);
};

} // namespace drasim::sim
