// SPDX-License-Identifier: Apache-2.0
// One-shot scheduling with Kubernetes 1.35's gangs: the GangScheduling plugin at v1.35
// (pkg/scheduler/framework/plugins/gangscheduling/gangscheduling.go: PreEnqueue, Reserve, Permit,
// Unreserve) over the pods in input order, and its 5-minute deadline (permit.h).
#include "core/scheduler/batch_permit.h"

#include <map>
#include <memory>
#include <optional>

#include "core/api/object_key.h"
#include "core/scheduler/batch_hierarchies.h"
#include "core/scheduler/permit.h"
#include "core/scheduler/pod_group.h"

namespace drasim::scheduler {

namespace {

/// One gang instance: the pods naming one (workload, podGroup, podGroupReplicaKey) triple.
struct PermitGangInstance
{
    std::string name; ///< "<namespace>/<workload>/<podGroup>", with "/<replica key>" when set
    int32_t minCount = 1;
    int32_t members = 0; ///< every pod of it the scheduler knows (PreEnqueue's AllPods)
    int32_t bound = 0; ///< bound in the input or allowed at Permit since
    std::vector<std::pair<size_t, ScheduleResult>> waiting; ///< assumed, waiting at Permit
    int32_t rejected = 0; ///< members rejected when its deadline passed (0: it did not pass)
};

/// What PreEnqueue and the Workload say of a pod: a plain pod (no gang), a member of `gang`, or
/// refused with `message`.
struct PermitAdmission
{
    PermitGangInstance* gang = nullptr;
    std::string message;
};

std::string permitPodNamespace(const api::Pod& pod)
{
    return pod.meta.namespace_.empty() ? std::string("default") : pod.meta.namespace_;
}

const api::PodGroupTemplate* permitPodGroupOf(
    const std::vector<api::Workload>& workloads, const api::Pod& pod, bool& workloadFound)
{
    const api::PodWorkloadReference& ref = *pod.spec.workloadRef;
    workloadFound = false;
    for (const auto& w : workloads) {
        const std::string ns = w.meta.namespace_.empty() ? std::string("default") : w.meta.namespace_;
        if (w.meta.name != ref.name || ns != permitPodNamespace(pod))
            continue;
        workloadFound = true;
        for (const auto& g : w.podGroupTemplates)
            if (g.name == ref.podGroup)
                return &g;
    }
    return nullptr;
}

/// The gangs of the input and each pod's admission, in input order.
std::vector<PermitAdmission> admitPermitGangs(const std::vector<api::Pod>& pods,
    const std::vector<api::Workload>& workloads, std::map<std::string, PermitGangInstance>& gangs)
{
    std::vector<PermitAdmission> out(pods.size());
    for (size_t i = 0; i < pods.size(); ++i) {
        const api::Pod& pod = pods[i];
        if (!pod.spec.workloadRef || pod.phase == "Succeeded" || pod.phase == "Failed")
            continue;
        const api::PodWorkloadReference& ref = *pod.spec.workloadRef;
        bool workloadFound = false;
        const api::PodGroupTemplate* group = permitPodGroupOf(workloads, pod, workloadFound);
        if (!workloadFound) {
            out[i].message = "waiting for pods's workload \"" + ref.name + "\" to appear in scheduling queue";
        } else if (!group) {
            out[i].message
                = "pod group \"" + ref.podGroup + "\" doesn't exist for a workload \"" + ref.name + "\"";
        } else if (group->policy.scheduling.gang) {
            std::string name = permitPodNamespace(pod) + "/" + ref.name + "/" + ref.podGroup;
            if (!ref.podGroupReplicaKey.empty())
                name += "/" + ref.podGroupReplicaKey;
            PermitGangInstance& g = gangs[name];
            g.name = name;
            g.minCount = group->policy.scheduling.minCount;
            g.members++;
            g.bound += pod.spec.nodeName.empty() ? 0 : 1;
            out[i].gang = &g;
        }
    }
    // PreEnqueue: a gang is let in once minCount of its pods exist.
    for (auto& a : out)
        if (a.gang && a.gang->members < a.gang->minCount) {
            a.message = kGangQuorumWaitMessage;
            a.gang = nullptr;
        }
    return out;
}

/// Permit for a member Reserve placed: it waits, or its gang has its quorum and every waiting
/// member binds with it.
void permitMember(Cluster& cluster, BatchResult& out, size_t i, PermitGangInstance& gang, ScheduleResult r)
{
    gang.waiting.emplace_back(i, std::move(r));
    if (int32_t(gang.waiting.size()) + gang.bound < gang.minCount)
        return;
    for (auto& [k, result] : gang.waiting)
        recordResult(cluster, out.pods[k], result, out);
    gang.bound += int32_t(gang.waiting.size());
    gang.waiting.clear();
}

/// One round over the pods in `turns` (input order); returns whether a deadline passed and freed
/// room. `retry` collects the pods that failed and may be helped by that room.
bool permitRound(Cluster& cluster, BatchResult& out, const std::vector<size_t>& turns,
    const std::vector<PermitAdmission>& admissions, std::vector<size_t>& retry)
{
    for (size_t i : turns) {
        api::Pod& pod = out.pods[i];
        const PermitAdmission& a = admissions[i];
        ScheduleResult r = cluster.schedule(pod);
        if (a.gang && r.scheduled) {
            permitMember(cluster, out, i, *a.gang, std::move(r));
            continue;
        }
        // A pod that failed now is recorded now; a later round may bind it.
        recordResult(cluster, pod, r, out);
        if (!r.scheduled)
            retry.push_back(i);
    }
    // Every pod has had its turn: the gangs still short of quorum reach their deadline.
    bool freed = false;
    for (size_t i : turns) {
        PermitGangInstance* gang = admissions[i].gang;
        if (!gang || gang->waiting.empty())
            continue;
        for (auto& [k, result] : gang->waiting) {
            unreservePod(cluster, api::objectKey(out.pods[k].meta));
            ScheduleResult rejected;
            rejected.message = gangPermitTimeoutMessage(kGangPermitTimeoutSeconds * 1000);
            recordResult(cluster, out.pods[k], rejected, out);
        }
        gang->rejected = int32_t(gang->waiting.size());
        gang->waiting.clear();
        freed = true;
    }
    return freed;
}

/// The gang's account for a member's explanation (as a run's explain words it).
std::string permitGangAccount(const PermitGangInstance& g)
{
    std::string out = "gang " + g.name + " (minCount " + std::to_string(g.minCount)
        + ", Kubernetes 1.35: members are scheduled one at a time and wait at Permit): ";
    if (g.rejected > 0)
        return out + std::to_string(g.rejected)
            + " member(s) were assumed and waited at Permit, holding their "
            + "nodes and devices; the group's 5-minute deadline passed short of minCount, so they were "
              "rejected "
              "(rejected due to timeout after waiting 5m0s at plugin GangScheduling) and unreserved, and "
              "nothing was bound";
    if (g.bound >= g.minCount)
        return out + std::to_string(g.bound) + " bound; the quorum was reached at Permit";
    return out + "no member reached Permit";
}

} // namespace

bool hasWorkloadRefs(const std::vector<api::Pod>& pods)
{
    for (const auto& p : pods)
        if (p.spec.workloadRef)
            return true;
    return false;
}

BatchResult scheduleAllWithPermitGangs(Cluster& cluster, const std::vector<api::Pod>& pods,
    const std::vector<api::Workload>& workloads, const std::string& explainPod)
{
    BatchResult out;
    out.pods = pods;
    std::map<std::string, PermitGangInstance> gangs;
    const std::vector<PermitAdmission> admissions = admitPermitGangs(out.pods, workloads, gangs);
    std::vector<size_t> turns;
    for (size_t i = 0; i < out.pods.size(); ++i) {
        if (!needsScheduling(out.pods[i]))
            continue;
        if (!admissions[i].message.empty()) {
            ScheduleResult refused;
            refused.message = admissions[i].message;
            recordResult(cluster, out.pods[i], refused, out);
        } else {
            turns.push_back(i);
        }
    }
    for (;;) {
        std::vector<size_t> retry;
        if (!permitRound(cluster, out, turns, admissions, retry))
            break;
        turns.clear();
        for (size_t i : retry)
            if (!admissions[i].gang || admissions[i].gang->rejected == 0)
                turns.push_back(i);
        if (turns.empty())
            break;
    }
    // Rounds record a pod each time it is tried: count the pods to schedule once, as they end.
    out.scheduled = 0;
    out.pending = 0;
    for (size_t i = 0; i < out.pods.size(); ++i)
        if (needsScheduling(pods[i]))
            ++(out.pods[i].spec.nodeName.empty() ? out.pending : out.scheduled);
    if (!explainPod.empty())
        for (size_t i = 0; i < out.pods.size(); ++i)
            if (api::objectKey(out.pods[i].meta) == explainPod && needsScheduling(pods[i])) {
                const PermitGangInstance* g = admissions[i].gang;
                out.diagnosis = explainHierarchyMember(
                    cluster, out.pods[i], g ? permitGangAccount(*g) : admissions[i].message);
                out.explainFound = true;
            }
    return out;
}

} // namespace drasim::scheduler
