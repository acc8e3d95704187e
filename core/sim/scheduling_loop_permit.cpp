// SPDX-License-Identifier: Apache-2.0
// Kubernetes 1.35's gang barrier in the simulation: the GangScheduling plugin at v1.35
// (pkg/scheduler/framework/plugins/gangscheduling/gangscheduling.go: PreEnqueue, Reserve, Permit,
// Unreserve) and the workload manager's podGroupInfo (pkg/scheduler/backend/workloadmanager:
// assumed pods, SchedulingTimeout with defaultSchedulingTimeoutSeconds = 300).
#include "core/sim/scheduling_loop_permit.h"

#include <algorithm>

#include "core/scheduler/permit.h"
#include "core/scheduler/pod_group.h"
#include "core/sim/device_ledger.h"
#include "core/sim/job_controller.h"
#include "core/sim/scheduling_loop_hints.h"
#include "core/sim/time_text.h"

namespace drasim::sim {

namespace {

constexpr SimTime kPermitTimeout = scheduler::kGangPermitTimeoutSeconds * kSecond;

int32_t permitBoundMembers(const SimContext& ctx, const JobState& job)
{
    return int32_t(std::count_if(job.pods.begin(), job.pods.end(),
        [&](uint32_t id) { return ctx.pods[id].state == PodState::Running; }));
}

} // namespace

bool SchedulingLoop::Permit::admit(SchedulingLoop& loop, uint32_t id)
{
    SimContext& ctx = loop.m_ctx;
    SimPod& p = ctx.pods[id];
    JobState& job = ctx.jobs[p.job];
    const PermitGang& gang = *job.permitGang;
    // Each member is queued on its own, as upstream queues every pod: members differ at Permit
    // (a waiting one, one rejected on the deadline, one a Filter turned away move on different
    // changes), so none stands for another.
    p.group = loop.m_queue.groupFor("1.35 gang member " + std::to_string(p.serial));
    ctx.metrics.podPending(+1);
    if (std::find(loop.m_permitJobs.begin(), loop.m_permitJobs.end(), p.job) == loop.m_permitJobs.end())
        loop.m_permitJobs.push_back(p.job);
    // PreEnqueue counts every pod of the gang the scheduler knows, pending or bound (AllPods).
    if (int32_t(job.pods.size()) < gang.minCount) {
        p.state = PodState::Gated;
        return true;
    }
    // The plugin's hint for an added pod of the same gang (isSchedulableAfterPodAdded): the gated
    // members pass PreEnqueue now, and members it rejected at Permit are tried again.
    const auto gangBit = scheduler::pluginBit(scheduler::HintPlugin::GangScheduling);
    for (uint32_t m : job.pods) {
        SimPod& member = ctx.pods[m];
        if (m == id)
            continue;
        if (member.state == PodState::Gated) {
            member.state = PodState::Active;
            loop.m_queue.pushActive(ctx.keyOf(m));
        } else if (member.state == PodState::Parked
            && (loop.m_queue.rejectedBy(member.group) & gangBit) != 0) {
            loop.m_queue.unpark(member.group, ctx.keyOf(m));
            member.state = PodState::Active;
            loop.m_queue.pushActive(ctx.keyOf(m));
        }
    }
    return false;
}

bool SchedulingLoop::Permit::reserved(SchedulingLoop& loop, uint32_t id, const BindOutcome& out)
{
    SimContext& ctx = loop.m_ctx;
    const uint32_t jobId = ctx.pods[id].job;
    JobState& job = ctx.jobs[jobId];
    if (!job.permitGang)
        return false;
    PermitGang& gang = *job.permitGang;
    // Permit: the assumed members (this one too, since Reserve) and the bound ones.
    const int32_t assumed = int32_t(gang.waiting.size()) + 1;
    if (assumed + permitBoundMembers(ctx, job) >= gang.minCount) {
        allow(loop, jobId, id, out);
        return true;
    }
    SimPod& p = ctx.pods[id];
    p.state = PodState::Waiting;
    p.node = out.nodeName;
    p.claims = out.claims;
    p.reason = kNone;
    loop.m_ledger.bind(out); // its devices are taken while it waits
    gang.waiting.push_back({ id, p.serial, ctx.now, out });
    // SchedulingTimeout: a deadline is made when there is none or the last one has passed.
    if (gang.deadline < 0 || gang.deadline <= ctx.now) {
        gang.deadline = ctx.now + kPermitTimeout;
        ctx.events.push(gang.deadline, EventKind::PermitTimeout, jobId, job.serial);
    }
    activate(loop, jobId);
    return true;
}

void SchedulingLoop::Permit::allow(SchedulingLoop& loop, uint32_t jobId, uint32_t id, const BindOutcome& out)
{
    SimContext& ctx = loop.m_ctx;
    std::vector<PermitGang::Waiter> waiters;
    waiters.swap(ctx.jobs[jobId].permitGang->waiting);
    const uint64_t serial = ctx.pods[id].serial;
    // Binding may end the job (an eviction at bind beyond backoffLimit) or create pods, which
    // moves the pod table: each member is looked up again and skipped once it is gone.
    for (const auto& w : waiters) {
        SimPod& p = ctx.pods[w.pod];
        if (p.state != PodState::Waiting || p.serial != w.serial)
            continue;
        loop.m_ledger.unbind(p); // bind() counts its devices again from the reservation
        loop.m_jobs.permitWaitEnded(jobId, w.since, int32_t(w.reservation.allocated.size()));
        loop.bind(w.pod, w.reservation);
    }
    if (ctx.pods[id].serial == serial && ctx.pods[id].state == PodState::Active)
        loop.bind(id, out);
}

void SchedulingLoop::Permit::activate(SchedulingLoop& loop, uint32_t jobId)
{
    SimContext& ctx = loop.m_ctx;
    for (uint32_t m : ctx.jobs[jobId].pods) {
        SimPod& member = ctx.pods[m];
        if (member.state == PodState::Parked)
            loop.m_queue.unpark(member.group, ctx.keyOf(m));
        else if (member.state == PodState::Backoff)
            loop.leaveBackoff(m);
        else
            continue;
        member.state = PodState::Active;
        loop.m_queue.pushActive(ctx.keyOf(m));
    }
}

void SchedulingLoop::Permit::timeout(SchedulingLoop& loop, const Event& e)
{
    SimContext& ctx = loop.m_ctx;
    JobState& job = ctx.jobs[e.a];
    if (!job.live || job.serial != e.b || !job.permitGang)
        return;
    PermitGang& gang = *job.permitGang;
    if (gang.deadline != e.time || gang.waiting.empty())
        return;
    std::vector<PermitGang::Waiter> waiters;
    waiters.swap(gang.waiting);
    gang.timeouts++;
    gang.lastTimeout = ctx.now;
    gang.lastTimedOut = 0;
    const auto gangBit = scheduler::pluginBit(scheduler::HintPlugin::GangScheduling);
    for (const auto& w : waiters) {
        SimPod& p = ctx.pods[w.pod];
        if (p.state != PodState::Waiting || p.serial != w.serial)
            continue;
        gang.lastTimedOut++;
        loop.m_jobs.permitWaitEnded(e.a, w.since, int32_t(w.reservation.allocated.size()));
        ctx.cluster.unreserve(p.key);
        loop.m_ledger.unbind(p);
        p.node.clear();
        p.lastAttempt = ctx.now;
        // AddUnschedulableIfNotPresent refreshes the pod's queue timestamp: it is behind every
        // pod queued so far (PrioritySort orders by it), so a gang that keeps timing out does not
        // shut older pods out.
        p.queueOrder = ctx.nextPodSerial++;
        // Only the gang plugin rejected it: the changes the unreserve makes do not move it (its
        // hints are a new member and the Workload's creation), the 5-minute flush or a member's
        // next wait (Activate) do. Marked blocked at the generation before the unreserve, which
        // the next drain leaves behind: that only gives it its reason.
        loop.park(w.pod, scheduler::gangPermitTimeoutMessage(gang.deadline - w.since), gangBit);
    }
}

void SchedulingLoop::Permit::forget(SchedulingLoop& loop, uint32_t id)
{
    SimContext& ctx = loop.m_ctx;
    SimPod& p = ctx.pods[id];
    JobState& job = ctx.jobs[p.job];
    if (p.state != PodState::Waiting || !job.permitGang)
        return;
    auto& waiting = job.permitGang->waiting;
    for (const auto& w : waiting)
        if (w.pod == id)
            loop.m_jobs.permitWaitEnded(p.job, w.since, int32_t(w.reservation.allocated.size()));
    std::erase_if(waiting, [&](const PermitGang::Waiter& w) { return w.pod == id; });
    loop.m_ledger.unbind(p);
}

bool SchedulingLoop::Permit::rejectWaiting(
    SchedulingLoop& loop, const std::string& podKey, const std::string& message, bool released)
{
    auto it = loop.m_ctx.podByKey.find(podKey);
    if (it == loop.m_ctx.podByKey.end() || loop.m_ctx.pods[it->second].state != PodState::Waiting)
        return false;
    const uint32_t id = it->second;
    forget(loop, id);
    if (!released)
        loop.m_ctx.cluster.unreserve(podKey);
    loop.m_ctx.pods[id].node.clear();
    loop.m_ctx.pods[id].lastAttempt = loop.m_ctx.now;
    // Rejected with no plugin named: any change moves it.
    loop.park(id, message, 0, false);
    return true;
}

// Only the members of live gangs can be Gated or Waiting: reading their pods, not every pod of
// the run, keeps a metric sample's cost to the gangs that are there.
void SchedulingLoop::Permit::addPending(const SchedulingLoop& loop, std::map<std::string, int64_t>& pending)
{
    const SimContext& ctx = loop.m_ctx;
    std::erase_if(loop.m_permitJobs, [&](uint32_t j) { return !ctx.jobs[j].live; });
    for (uint32_t j : loop.m_permitJobs)
        for (uint32_t id : ctx.jobs[j].pods) {
            const SimPod& p = ctx.pods[id];
            if (p.state == PodState::Gated)
                pending[scheduler::kGangQuorumWaitMessage]++;
            else if (p.state == PodState::Waiting)
                pending[scheduler::kGangPermitWaitMessage]++;
        }
}

std::string SchedulingLoop::Permit::status(const SchedulingLoop& loop, uint32_t jobId)
{
    const SimContext& ctx = loop.m_ctx;
    const JobState& job = ctx.jobs[jobId];
    const PermitGang& gang = *job.permitGang;
    std::string out = "gang " + gang.key + " (minCount " + std::to_string(gang.minCount)
        + ", Kubernetes 1.35: members are scheduled one at a time and wait at Permit): ";
    const auto count = [&](PodState s) {
        return std::count_if(
            job.pods.begin(), job.pods.end(), [&](uint32_t id) { return ctx.pods[id].state == s; });
    };
    if (count(PodState::Gated) > 0)
        return out + std::to_string(job.pods.size()) + " of minCount " + std::to_string(gang.minCount)
            + " pods exist; " + scheduler::kGangQuorumWaitMessage;
    if (!gang.waiting.empty())
        return out + std::to_string(gang.waiting.size()) + " assumed and "
            + std::to_string(count(PodState::Running)) + " bound of minCount " + std::to_string(gang.minCount)
            + "; the assumed members hold their nodes and devices unbound ("
            + scheduler::kGangPermitWaitMessage + ") until " + timeText(gang.deadline)
            + ", when the group's 5-minute deadline passes";
    if (gang.timeouts > 0)
        return out + "the group's deadline passed " + std::to_string(gang.timeouts) + " time(s), last at "
            + timeText(gang.lastTimeout) + ": " + std::to_string(gang.lastTimedOut)
            + " member(s) waiting at Permit were rejected (rejected due to timeout at plugin "
              "GangScheduling), "
              "their resources released, and nothing was bound";
    return out + "no member has reached Permit yet";
}

} // namespace drasim::sim
