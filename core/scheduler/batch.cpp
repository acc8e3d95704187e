// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/batch.h"

#include <algorithm>

#include "core/api/object_key.h"

namespace drasim::scheduler {

bool needsScheduling(const api::Pod& pod)
{
    return pod.spec.nodeName.empty() && pod.phase != "Succeeded" && pod.phase != "Failed";
}

void recordPreemption(
    const api::Pod& preemptor, PreemptorKind kind, const PreemptionResult& p, std::vector<api::Pod>& pods)
{
    // The scheduler deletes each victim after setting its DisruptionTarget condition
    // (PreemptPod); the message names the preemptor's scheduler and its kind (preemptor_kind.h).
    const std::string message = disruptionTargetMessage(preemptor.spec.schedulerName, kind);
    for (const auto& key : p.victims) {
        for (auto& pod : pods) {
            if (api::objectKey(pod.meta) != key)
                continue;
            auto& conds = pod.conditions;
            conds.erase(std::remove_if(conds.begin(), conds.end(),
                            [](const api::PodCondition& c) { return c.type == "DisruptionTarget"; }),
                conds.end());
            conds.push_back(
                api::PodCondition { "DisruptionTarget", "True", "PreemptionByScheduler", message });
        }
    }
}

void recordResult(Cluster& cluster, api::Pod& pod, const ScheduleResult& r, BatchResult& out)
{
    const std::string ns = pod.meta.namespace_.empty() ? std::string("default") : pod.meta.namespace_;
    // The resource-claim controller records generated claims in the pod status.
    for (const auto& e : pod.spec.resourceClaims) {
        if (!e.resourceClaimTemplateName)
            continue;
        const std::string name = pod.meta.name + "-" + e.name;
        if (!cluster.findClaim(ns + "/" + name))
            continue;
        auto& st = pod.resourceClaimStatuses;
        if (std::none_of(
                st.begin(), st.end(), [&](const api::PodResourceClaimStatus& s) { return s.name == e.name; }))
            st.push_back(api::PodResourceClaimStatus { e.name, name });
    }
    if (r.failure == FailureKind::NoProfile) { // another scheduler's pod: untouched
        ++out.pending;
        return;
    }
    auto& conds = pod.conditions;
    conds.erase(std::remove_if(conds.begin(), conds.end(),
                    [](const api::PodCondition& c) { return c.type == "PodScheduled"; }),
        conds.end());
    if (r.scheduled) {
        pod.spec.nodeName = r.nodeName;
        if (r.extendedResourceClaimStatus)
            pod.extendedResourceClaimStatus = r.extendedResourceClaimStatus;
        pod.nodeAllocatableResourceClaimStatuses = r.nodeAllocatableResourceClaimStatuses;
        ++out.scheduled;
    } else {
        conds.push_back(api::PodCondition { "PodScheduled", "False", "Unschedulable", r.message });
        ++out.pending;
        // The scheduler sets status.nominatedNodeName with a preemption and clears it when one
        // finds no node.
        if (r.preemption)
            pod.nominatedNodeName = r.preemption->nominatedNode;
        if (r.preemption && !r.preemption->victims.empty())
            recordPreemption(pod, PreemptorKind::Pod, *r.preemption, out.pods);
    }
}

BatchResult scheduleAll(Cluster& cluster, const std::vector<api::Pod>& pods, const std::string& explainPod)
{
    BatchResult out;
    out.pods = pods;
    for (auto& pod : out.pods) {
        if (!needsScheduling(pod))
            continue;
        const bool explain = !explainPod.empty() && api::objectKey(pod.meta) == explainPod;
        ScheduleResult r = cluster.schedule(pod, explain);
        recordResult(cluster, pod, r, out);
        if (explain) {
            out.diagnosis = r.diagnosis;
            out.explainFound = true;
            break;
        }
    }
    return out;
}

bool tracePod(Cluster& cluster, const std::vector<api::Pod>& pods, const std::string& podKey,
    allocator::AllocationObserver& observer, ScheduleResult* result)
{
    for (size_t i = 0; i < pods.size(); ++i) {
        const auto& pod = pods[i];
        if (api::objectKey(pod.meta) != podKey || !needsScheduling(pod))
            continue;
        scheduleAll(cluster, std::vector<api::Pod>(pods.begin(), pods.begin() + std::ptrdiff_t(i)));
        cluster.setAllocationObserver(&observer);
        ScheduleResult r = cluster.schedule(pod);
        cluster.setAllocationObserver(nullptr);
        if (result)
            *result = std::move(r);
        return true;
    }
    return false;
}

} // namespace drasim::scheduler
