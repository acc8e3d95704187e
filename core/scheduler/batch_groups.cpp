// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/batch_groups.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include "core/api/object_key.h"
#include "core/scheduler/batch_hierarchies.h"
#include "core/scheduler/group_claims.h"

namespace drasim::scheduler {

namespace {

/// The PodGroup a pod names (spec.schedulingGroup.podGroupName, in the pod's namespace), if loaded.
api::PodGroup* groupOf(const api::Pod& pod, std::map<std::string, api::PodGroup*>& byKey)
{
    if (!pod.spec.schedulingGroup)
        return nullptr;
    auto it = byKey.find(api::podGroupKeyOf(pod));
    return it == byKey.end() ? nullptr : it->second;
}

/// Whether this scheduler queues the pending pod: it names a profile the configuration has
/// (eventhandlers.go, responsibleForPod). Another scheduler's pod is no member the group cycle
/// sees: it is never queued, so the gang plugin never counts it.
bool queuedHere(const Cluster& cluster, const api::Pod& pod)
{
    return needsScheduling(pod) && profileFor(cluster.options(), pod) != nullptr;
}

PodGroupPolicy policyOf(const api::PodGroup& g, bool workloadAwarePreemption)
{
    return podGroupPolicyOf(g, workloadAwarePreemption);
}

/// One cycle for `group`: its pending members from `first` on, in input order; the members bound
/// before (nodeName in the input) count towards minCount. Returns the cycle's result and, in
/// `members`, the index of the pod each of its member results is for.
GroupScheduleResult scheduleGroupAt(Cluster& cluster, BatchResult& out, size_t first,
    std::map<std::string, api::PodGroup*>& byKey, bool topologyAware, bool workloadAwarePreemption,
    std::vector<size_t>& members)
{
    api::PodGroup* group = groupOf(out.pods[first], byKey);
    std::vector<api::Pod> pending;
    std::vector<std::string> bound;
    for (size_t i = 0; i < out.pods.size(); ++i) {
        if (groupOf(out.pods[i], byKey) != group)
            continue;
        if (!out.pods[i].spec.nodeName.empty())
            bound.push_back(api::objectKey(out.pods[i].meta));
        else if (i >= first && queuedHere(cluster, out.pods[i]))
            members.push_back(i), pending.push_back(out.pods[i]);
    }
    GroupScheduleResult r
        = cluster.scheduleGroup(policyOf(*group, workloadAwarePreemption), pending, bound, topologyAware);
    for (size_t k = 0; k < members.size() && k < r.members.size(); ++k) {
        recordResult(cluster, out.pods[members[k]], r.members[k], out);
        recordGroupClaimStatuses(cluster, *group, out.pods[members[k]]);
    }
    // Workload-aware preemption deletes its victims as the single-pod kind does.
    if (r.preemption && !r.preemption->victims.empty() && !members.empty())
        recordPreemption(out.pods[members.front()], PreemptorKind::PodGroup, *r.preemption, out.pods);
    setGroupScheduledCondition(*group, r);
    return r;
}

/// The group's account for a member's explanation, in the words a run's explain uses
/// (SchedulingLoop::groupStatus): the policy, then what its cycle said.
std::string groupAccount(const PodGroupPolicy& policy, const GroupScheduleResult& r)
{
    std::string out = "pod group " + policy.key + " ("
        + (policy.gang ? "gang, minCount " + std::to_string(policy.minCount) : std::string("basic"))
        + (policy.topologyKey.empty() ? "" : ", topology " + policy.topologyKey) + "): ";
    const std::string lead = "pod group " + policy.key + ": ";
    std::string message = r.message;
    if (message.starts_with(lead))
        message.erase(0, lead.size());
    if (message.empty())
        return out + "its group cycle placed no member";
    out += "last group cycle: " + message;
    if (r.preemption && !r.preemption->message.empty())
        out += "; " + r.preemption->message;
    return out;
}

/// What explainWithGroups says of `pod`, a member of `group` whose cycle has just run.
std::shared_ptr<const PodDiagnosis> explainMember(Cluster& cluster, const api::Pod& pod,
    const api::PodGroup& group, const GroupScheduleResult& r, bool workloadAwarePreemption)
{
    std::string account = groupAccount(policyOf(group, workloadAwarePreemption), r);
    if (const std::string claims = groupClaimsNote(cluster, group, pod); !claims.empty())
        account += "; " + claims;
    return explainHierarchyMember(cluster, pod, account);
}

/// scheduleAllWithGroups and explainWithGroups: with explainPod, stops after the cycle that
/// decided it.
BatchResult scheduleBatch(Cluster& cluster, const std::vector<api::Pod>& pods,
    std::vector<api::PodGroup>& groups, bool topologyAware, bool workloadAwarePreemption,
    const std::string& explainPod, const std::vector<api::CompositePodGroup>* composites)
{
    std::map<std::string, api::PodGroup*> byKey;
    for (auto& g : groups) {
        byKey[api::objectKey(g.meta)] = &g;
        cluster.registerPodGroup(policyOf(g, workloadAwarePreemption));
    }
    if (composites)
        registerHierarchyGroups(cluster, *composites, groups, pods, workloadAwarePreemption);
    BatchResult out;
    out.pods = pods;
    std::vector<const api::PodGroup*> done;
    for (size_t i = 0; i < out.pods.size() && !out.explainFound; ++i) {
        api::Pod& pod = out.pods[i];
        if (!needsScheduling(pod))
            continue;
        const api::PodGroup* group = queuedHere(cluster, pod) ? groupOf(pod, byKey) : nullptr;
        if (!group) {
            const bool explain = !explainPod.empty() && api::objectKey(pod.meta) == explainPod;
            ScheduleResult r = cluster.schedule(pod, explain);
            recordResult(cluster, pod, r, out);
            if (explain) {
                out.diagnosis = r.diagnosis;
                out.explainFound = true;
            }
        } else if (std::find(done.begin(), done.end(), group) != done.end()) {
            continue; // its group's cycle has decided it
        } else if (composites && !group->parentCompositePodGroupName.empty()) {
            // A member of a CompositePodGroup hierarchy: the whole hierarchy takes its turn.
            const HierarchyTurn turn = scheduleHierarchyAt(
                cluster, out, *group, *composites, groups, topologyAware, workloadAwarePreemption);
            done.insert(done.end(), turn.groups.begin(), turn.groups.end());
            for (size_t k = 0; k < turn.members.size(); ++k)
                if (!explainPod.empty() && api::objectKey(out.pods[turn.members[k]].meta) == explainPod) {
                    out.diagnosis
                        = explainHierarchyMember(cluster, out.pods[turn.members[k]], turn.accounts[k]);
                    out.explainFound = true;
                }
        } else {
            done.push_back(group);
            std::vector<size_t> members;
            const GroupScheduleResult r
                = scheduleGroupAt(cluster, out, i, byKey, topologyAware, workloadAwarePreemption, members);
            for (size_t m : members)
                if (!explainPod.empty() && api::objectKey(out.pods[m].meta) == explainPod) {
                    out.diagnosis = explainMember(cluster, out.pods[m], *group, r, workloadAwarePreemption);
                    out.explainFound = true;
                }
        }
    }
    return out;
}

} // namespace

BatchResult scheduleAllWithGroups(Cluster& cluster, const std::vector<api::Pod>& pods,
    std::vector<api::PodGroup>& groups, bool topologyAware, bool workloadAwarePreemption,
    const std::vector<api::CompositePodGroup>* composites)
{
    return scheduleBatch(cluster, pods, groups, topologyAware, workloadAwarePreemption, {}, composites);
}

BatchResult explainWithGroups(Cluster& cluster, const std::vector<api::Pod>& pods,
    std::vector<api::PodGroup>& groups, bool topologyAware, bool workloadAwarePreemption,
    const std::string& explainPod, const std::vector<api::CompositePodGroup>* composites)
{
    return scheduleBatch(
        cluster, pods, groups, topologyAware, workloadAwarePreemption, explainPod, composites);
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
    const std::string lead = "pod group " + api::objectKey(group.meta) + ": ";
    std::string message = result.message;
    if (message.starts_with(lead))
        message.erase(0, lead.size());
    // The pod group cycle appends the PodGroupPostFilter's non-empty message to the group's status
    // as one more reason (applyPodGroupPostFilterResult, pkg/scheduler/schedule_one_podgroup.go,
    // kubernetes/kubernetes#140311), and the condition's message is that status's Message(): its
    // reasons joined by ", " (fwk.Status). 1.36's podGroupCycle appended the status only when
    // preemption failed, and its success carried no message: group_preemption.cpp words each
    // version's status, empty for a 1.36 success, so a non-empty one is appended in both.
    if (result.preemption && !result.preemption->message.empty())
        message += (message.empty() ? "" : ", ") + result.preemption->message;
    api::GroupCondition c { type, "True", "Scheduled", "" };
    if (!result.scheduled)
        c = { type, "False", "Unschedulable", message };
    if (it != conds.end())
        *it = c;
    else
        conds.push_back(c);
}

} // namespace drasim::scheduler
