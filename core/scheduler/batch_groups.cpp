// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/batch_groups.h"

#include <algorithm>
#include <map>

namespace drasim::scheduler {

namespace {

/// "namespace/name", the empty namespace read as "default".
std::string podGroupKeyOf(const api::ObjectMeta& meta)
{
    return (meta.namespace_.empty() ? std::string("default") : meta.namespace_) + "/" + meta.name;
}

/// The PodGroup a pod names (spec.schedulingGroup.podGroupName, in the pod's namespace), if loaded.
api::PodGroup* groupOf(const api::Pod& pod, std::map<std::string, api::PodGroup*>& byKey)
{
    if (!pod.spec.schedulingGroup)
        return nullptr;
    api::ObjectMeta ref;
    ref.namespace_ = pod.meta.namespace_;
    ref.name = *pod.spec.schedulingGroup;
    auto it = byKey.find(podGroupKeyOf(ref));
    return it == byKey.end() ? nullptr : it->second;
}

PodGroupPolicy policyOf(const api::PodGroup& g, bool workloadAwarePreemption)
{
    PodGroupPolicy p;
    p.key = podGroupKeyOf(g.meta);
    p.gang = g.policy.scheduling.gang;
    p.minCount = std::max(1, g.policy.scheduling.minCount);
    if (!g.policy.topologyKeys.empty())
        p.topologyKey = g.policy.topologyKeys.front();
    p.workloadAwarePreemption = workloadAwarePreemption;
    p.priority = g.policy.priority.value_or(0);
    p.disruptAll = g.policy.disruptionMode == api::DisruptionMode::All;
    p.preemptionNever = g.policy.preemptionPolicy == api::GroupPreemptionPolicy::Never;
    return p;
}

/// One cycle for `group`: its pending members from `first` on, in input order; the members bound
/// before (nodeName in the input) count towards minCount.
void scheduleGroupAt(Cluster& cluster, BatchResult& out, size_t first,
    std::map<std::string, api::PodGroup*>& byKey, bool topologyAware, bool workloadAwarePreemption)
{
    api::PodGroup* group = groupOf(out.pods[first], byKey);
    std::vector<size_t> members;
    std::vector<api::Pod> pending;
    std::vector<std::string> bound;
    for (size_t i = 0; i < out.pods.size(); ++i) {
        if (groupOf(out.pods[i], byKey) != group)
            continue;
        if (!out.pods[i].spec.nodeName.empty())
            bound.push_back(podGroupKeyOf(out.pods[i].meta));
        else if (i >= first && needsScheduling(out.pods[i]))
            members.push_back(i), pending.push_back(out.pods[i]);
    }
    GroupScheduleResult r
        = cluster.scheduleGroup(policyOf(*group, workloadAwarePreemption), pending, bound, topologyAware);
    for (size_t k = 0; k < members.size() && k < r.members.size(); ++k)
        recordResult(cluster, out.pods[members[k]], r.members[k], out);
    // Workload-aware preemption deletes its victims as the single-pod kind does.
    if (r.preemption && !r.preemption->victims.empty() && !members.empty())
        recordPreemption(out.pods[members.front()], *r.preemption, out.pods);
    setGroupScheduledCondition(*group, r);
}

} // namespace

BatchResult scheduleAllWithGroups(Cluster& cluster, const std::vector<api::Pod>& pods,
    std::vector<api::PodGroup>& groups, bool topologyAware, bool workloadAwarePreemption)
{
    std::map<std::string, api::PodGroup*> byKey;
    for (auto& g : groups) {
        byKey[podGroupKeyOf(g.meta)] = &g;
        cluster.registerPodGroup(policyOf(g, workloadAwarePreemption));
    }
    BatchResult out;
    out.pods = pods;
    std::vector<const api::PodGroup*> done;
    for (size_t i = 0; i < out.pods.size(); ++i) {
        api::Pod& pod = out.pods[i];
        if (!needsScheduling(pod))
            continue;
        const api::PodGroup* group = groupOf(pod, byKey);
        if (!group) {
            recordResult(cluster, pod, cluster.schedule(pod), out);
        } else if (std::find(done.begin(), done.end(), group) == done.end()) {
            done.push_back(group);
            scheduleGroupAt(cluster, out, i, byKey, topologyAware, workloadAwarePreemption);
        }
    }
    return out;
}

void setGroupScheduledCondition(api::PodGroup& group, const GroupScheduleResult& result)
{
    // The condition's name per API version (PR #139743 renamed it for 1.37), and the rule that a
    // True one never regresses (schedule_one_podgroup_test.go: "Already Scheduled, rejected cycle
    // does not regress condition").
    const char* type = group.apiVersion == api::SchedulingVersion::V1alpha2 ? "PodGroupScheduled"
                                                                            : "PodGroupInitiallyScheduled";
    auto& conds = group.conditions;
    auto it = std::find_if(
        conds.begin(), conds.end(), [&](const api::GroupCondition& c) { return c.type == type; });
    if (it != conds.end() && it->status == "True")
        return;
    // The condition is the group's own, so its message drops the "pod group <key>: " lead the
    // members' messages carry: the gang plugin's status as the scheduler's test expects it.
    const std::string lead = "pod group " + podGroupKeyOf(group.meta) + ": ";
    std::string message = result.message;
    if (message.starts_with(lead))
        message.erase(0, lead.size());
    api::GroupCondition c { type, "True", "Scheduled", "" };
    if (!result.scheduled)
        c = { type, "False", "Unschedulable", message };
    if (it != conds.end())
        *it = c;
    else
        conds.push_back(c);
}

} // namespace drasim::scheduler
