// SPDX-License-Identifier: Apache-2.0
#include "core/sim/sampler.h"

#include <optional>

#include "core/sim/job_controller.h"
#include "core/sim/scheduling_loop.h"
#include "core/sim/scheduling_loop_permit.h"
#include "core/sim/scheduling_loop_trees.h"

namespace drasim::sim {

void Sampler::sample()
{
    m_ctx.metrics.accrue(m_ctx.now);
    std::map<std::string, int64_t> pending = pendingByReason();
    std::map<std::string, int64_t> fragmentation;
    if (m_ctx.options.fragmentation)
        fragmentation = probeFragmentation();
    MetricSample s = m_ctx.metrics.sample(m_ctx.now, pending, fragmentation, longestPending());
    if (m_ctx.options.gpuShareFragmentation)
        if (const auto share = m_ctx.cluster.gpuShareFragmentation())
            m_ctx.metrics.addGpuShareFragmentation(s, *share);
    if (m_ctx.options.gpuShareFragmentation)
        if (const auto claims = m_ctx.cluster.claimFragmentation(); !claims.empty())
            m_ctx.metrics.addClaimFragmentation(s, claims, m_ctx.cluster.claimMeasureOnShares());
    addGangPoints(s);
    for (auto* r : m_ctx.recorders)
        r->onSample(s);
}

/// Once a grouped job has arrived: how many have not started (minCount running, a hierarchy's
/// quorum bound) and the devices their members hold meanwhile, bound or, in 1.35, waiting at
/// Permit: the rate whose integral is the summary's device-hours held idle.
void Sampler::addGangPoints(MetricSample& s) const
{
    const GangTracker& gangs = m_jobs.gangs();
    if (!gangs.any())
        return;
    int64_t idle = gangs.idleDevices();
    if (m_ctx.options.permitGangs)
        for (const JobState& job : m_ctx.jobs)
            if (job.live && job.permitGang)
                for (const auto& w : job.permitGang->waiting)
                    if (m_ctx.pods[w.pod].state == PodState::Waiting && m_ctx.pods[w.pod].serial == w.serial)
                        idle += int64_t(w.reservation.allocated.size());
    s.points.push_back({ "gangs.not_started", "", double(gangs.notStarted()) });
    s.points.push_back({ "gangs.idle_devices", "", double(idle) });
}

std::map<std::string, int64_t> Sampler::pendingByReason() const
{
    std::map<std::string, int64_t> pending;
    const SchedulingQueue& queue = m_loop.queue();
    for (uint32_t g : queue.parkedGroups())
        pending[m_loop.reasonText(queue.groupReason(g))] += int64_t(queue.parkedInGroup(g));
    // Representatives in backoffQ are pending as well (at most one per group); activeQ is
    // always drained when a sample is taken.
    for (uint32_t id : m_loop.backoffPods()) {
        const uint32_t reason = m_ctx.pods[id].reason;
        pending[reason == kNone ? std::string("queued") : m_loop.reasonText(reason)]++;
    }
    if (m_ctx.options.podGroups)
        m_loop.addGroupPending(pending);
    SchedulingLoop::Trees::addPending(m_loop, pending);
    if (m_ctx.options.permitGangs)
        SchedulingLoop::Permit::addPending(m_loop, pending);
    return pending;
}

/// Free devices the first pending pod (queue order) cannot use, by reason. Only a pod whose
/// group failed at the current capacity generation is probed: it cannot fit, so the probe
/// cannot bind it. One probe per sample keeps the cost at O(nodes) per sample.
std::map<std::string, int64_t> Sampler::probeFragmentation() const
{
    const SchedulingQueue& queue = m_loop.queue();
    std::optional<QueueKey> head;
    for (uint32_t g : queue.parkedGroups()) {
        if (!queue.blockedAt(g, m_loop.seenGeneration()))
            continue;
        QueueKey k = queue.firstParked(g);
        if (!head || k < *head)
            head = k;
    }
    if (!head)
        return {};
    return m_ctx.cluster.strandedDevices(m_ctx.buildPod(m_ctx.pods[head->pod]));
}

/// How long the oldest pod still pending has waited (0 when none is).
SimTime Sampler::longestPending()
{
    auto& order = m_ctx.creationOrder;
    while (!order.empty()) {
        const SimPod& p = m_ctx.pods[order.front().first];
        const bool waiting = p.state == PodState::Active || p.state == PodState::Backoff
            || p.state == PodState::Parked || p.state == PodState::Grouped || p.state == PodState::Foreign
            || p.state == PodState::Gated || p.state == PodState::Waiting;
        if (waiting && p.serial == order.front().second)
            return m_ctx.now - p.created;
        order.pop_front();
    }
    return 0;
}

} // namespace drasim::sim
