// SPDX-License-Identifier: Apache-2.0
// What the engine does with a preemption the scheduler decided: the victims get DisruptionTarget
// (a Preempted event) and are deleted; they keep their node and devices through their grace
// period (terminationGracePeriodSeconds, 30 s when the pod does not set it), then end as Evicted,
// and their controllers replace them as for any other failure. The preemptor waits, nominated,
// for the room to free (the cluster keeps it for it).
#include "core/sim/job_controller.h"
#include "core/sim/scheduling_loop.h"
#include "core/sim/scheduling_loop_permit.h"

namespace drasim::sim {

void SchedulingLoop::preempted(uint32_t id, const BindOutcome& out)
{
    deleteVictims(m_ctx.pods[id].key, m_ctx.pods[id].priority, out.victims, scheduler::PreemptorKind::Pod);
}

/// Workload-aware preemption acts for the whole group: its victims may be anywhere in the cluster.
void SchedulingLoop::groupPreempted(const GroupState& g, const GroupOutcome& out)
{
    deleteVictims(
        "pod group " + g.policy.key, g.policy.priority, out.victims, scheduler::PreemptorKind::PodGroup);
}

void SchedulingLoop::deleteVictims(const std::string& preemptor, int32_t priority,
    const std::vector<std::string>& victims, scheduler::PreemptorKind kind)
{
    int64_t deleted = 0;
    for (const auto& key : victims) {
        // A 1.35 gang's member waiting at Permit is rejected, not deleted (PreemptPod).
        if (Permit::rejectWaiting(*this, key, "removed", false))
            continue;
        const uint32_t v = m_ctx.runningPod(key);
        if (v == kNone || m_ctx.pods[v].terminatingUntil >= 0)
            continue; // already deleted by an earlier preemption
        SimPod& victim = m_ctx.pods[v];
        const int64_t grace = api::effectiveTerminationGracePeriodSeconds(m_ctx.buildPod(victim).spec);
        victim.terminatingUntil = m_ctx.now + SimTime(grace) * kSecond;
        m_ctx.emit(PodEventType::Preempted, victim,
            "preempted by " + preemptor + " (priority " + std::to_string(priority) + ") on node "
                + victim.node);
        // The event carries the preemptor's kind, which the victim's DisruptionTarget names.
        m_ctx.events.push(victim.terminatingUntil, EventKind::VictimGone, v, victim.serial, uint32_t(kind));
        ++deleted;
        m_jobs.podDeleted(v);
    }
    if (deleted > 0)
        m_ctx.preemption.preemption(deleted);
}

void SchedulingLoop::victimGone(const Event& e)
{
    const SimPod& victim = m_ctx.pods[e.a];
    if (victim.serial != e.b || victim.state != PodState::Running || victim.terminatingUntil != e.time)
        return; // it ended earlier (completed, its node failed)
    // The DisruptionTarget condition's message (preemptor_kind.h) without the scheduler's name.
    m_jobs.failRunning({ victim.key }, PodEventType::Evicted,
        "DisruptionTarget: PreemptionByScheduler: " + scheduler::preemptingFor(scheduler::PreemptorKind(e.c)),
        false);
}

} // namespace drasim::sim
