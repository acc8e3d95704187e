// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/batch_hierarchies.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/api/object_key.h"
#include "core/scheduler/batch_groups.h"
#include "core/scheduler/group_claims.h"
#include "core/scheduler/group_tree.h"

namespace drasim::scheduler {

PodGroupPolicy groupPolicyOf(
    const std::string& key, const api::GroupPolicy& policy, bool workloadAwarePreemption)
{
    PodGroupPolicy p;
    p.key = key;
    p.gang = policy.scheduling.gang;
    p.minCount = std::max(1, policy.scheduling.minCount);
    if (!policy.topologyKeys.empty())
        p.topologyKey = policy.topologyKeys.front();
    p.workloadAwarePreemption = workloadAwarePreemption;
    p.priority = policy.priority.value_or(0);
    p.disruptAll = policy.disruptionMode == api::DisruptionMode::All;
    p.preemptionNever = policy.preemptionPolicy == api::GroupPreemptionPolicy::Never;
    return p;
}

PodGroupPolicy podGroupPolicyOf(const api::PodGroup& group, bool workloadAwarePreemption)
{
    PodGroupPolicy p = groupPolicyOf(api::objectKey(group.meta), group.policy, workloadAwarePreemption);
    p.resourceClaims = group.policy.resourceClaims;
    p.uid = group.meta.uid;
    p.apiVersion = api::schedulingApiVersion(group.apiVersion);
    return p;
}

namespace {

/// The key of the group `name` in the namespace of `child` (parents are named in their child's
/// namespace).
std::string keyNear(const api::ObjectMeta& child, const std::string& name)
{
    api::ObjectMeta ref;
    ref.namespace_ = child.namespace_;
    ref.name = name;
    return api::objectKey(ref);
}

/// WorkloadMaxTreeDepth of scheduling/v1alpha3: at most four levels, the PodGroups included.
constexpr int kMaxTreeDepth = 4;

std::string describe(const GroupTreeNode& n)
{
    const PodGroupPolicy& p = n.policy;
    const char* count = n.composite ? "minGroupCount " : "minCount ";
    return std::string(n.composite ? "composite pod group " : "pod group ") + p.key + " ("
        + (p.gang ? "gang, " + std::string(count) + std::to_string(p.minCount) : std::string("basic"))
        + (p.topologyKey.empty() ? "" : ", topology " + p.topologyKey) + ")";
}

/// A hierarchy of the bundle: its groups found by their parent references, its pods by their
/// PodGroup, as one GroupTreeNode.
class Hierarchy
{
public:
    Hierarchy(const std::vector<api::CompositePodGroup>& composites, std::vector<api::PodGroup>& groups,
        const std::vector<api::Pod>& pods, bool workloadAwarePreemption)
        : m_pods(pods)
        , m_wap(workloadAwarePreemption)
    {
        for (const auto& c : composites) {
            m_composites[api::objectKey(c.meta)] = &c;
            if (!c.parentCompositePodGroupName.empty())
                m_compositeChildren[keyNear(c.meta, c.parentCompositePodGroupName)].push_back(&c);
        }
        for (auto& g : groups)
            if (!g.parentCompositePodGroupName.empty())
                m_groupChildren[keyNear(g.meta, g.parentCompositePodGroupName)].push_back(&g);
    }

    /// The key of the root above `leaf`, or "" and why the hierarchy cannot be scheduled: a
    /// parent that does not exist yet (the scheduler waits for it), a cycle, too many levels
    /// (compositepodgroup-api/lifecycle: such hierarchies are not scheduled).
    std::string rootOf(const api::PodGroup& leaf, std::string& problem) const
    {
        std::set<std::string> seen;
        std::string key = keyNear(leaf.meta, leaf.parentCompositePodGroupName), root;
        for (int depth = 2;; ++depth) {
            auto it = m_composites.find(key);
            if (it == m_composites.end()) {
                problem = "waiting for composite pod group " + key + " of its hierarchy to appear";
                return {};
            }
            if (!seen.insert(key).second) {
                problem = "its hierarchy has a cycle through composite pod group " + key;
                return {};
            }
            if (depth > kMaxTreeDepth) {
                problem = "its hierarchy has more than " + std::to_string(kMaxTreeDepth) + " levels";
                return {};
            }
            root = key;
            if (it->second->parentCompositePodGroupName.empty())
                return root;
            key = keyNear(it->second->meta, it->second->parentCompositePodGroupName);
        }
    }

    /// The tree under composite group `key`: its composite children, then its PodGroups, each in
    /// input order (the creation order a manifest bundle implies).
    GroupTreeNode build(const std::string& key, int depth = 1)
    {
        const api::CompositePodGroup& c = *m_composites.at(key);
        GroupTreeNode n;
        n.composite = true;
        n.policy = groupPolicyOf(key, c.policy, m_wap);
        noteWorkload(c.workloadRef);
        if (depth >= kMaxTreeDepth) {
            m_tooDeep = true; // its children would be a fifth level: not followed
            return n;
        }
        for (const auto* child : m_compositeChildren[key])
            n.children.push_back(build(api::objectKey(child->meta), depth + 1));
        for (api::PodGroup* g : m_groupChildren[key]) {
            GroupTreeNode leaf;
            leaf.policy = podGroupPolicyOf(*g, m_wap);
            noteWorkload(g->workloadRef);
            Leaf& info = m_leaves[leaf.policy.key];
            info.group = g;
            for (size_t i = 0; i < m_pods.size(); ++i) {
                if (api::podGroupKeyOf(m_pods[i]) != leaf.policy.key)
                    continue;
                if (!m_pods[i].spec.nodeName.empty())
                    leaf.boundMembers.push_back(api::objectKey(m_pods[i].meta));
                else if (needsScheduling(m_pods[i]))
                    leaf.pending.push_back(m_pods[i]), info.pending.push_back(i);
                else
                    continue;
                info.all.push_back(i);
            }
            n.children.push_back(std::move(leaf));
        }
        return n;
    }

    struct Leaf
    {
        api::PodGroup* group = nullptr;
        std::vector<size_t> pending; ///< indices of its pending members, in GroupTreeNode order
        std::vector<size_t> all; ///< pending and bound
    };
    const Leaf& leaf(const std::string& key) const { return m_leaves.at(key); }
    bool manyWorkloads() const { return m_workloads.size() > 1; }
    bool tooDeep() const { return m_tooDeep; }

    /// Why the pods of the hierarchy may not be scheduled together, "" when they may: they must
    /// agree on schedulerName and preemptionPolicy and have the root's priority
    /// (compositepodgroup-api/lifecycle, "Limitations and validation rules").
    std::string inconsistency(const GroupTreeNode& root) const
    {
        const api::Pod* first = nullptr;
        for (const auto& entry : m_leaves)
            for (size_t i : entry.second.all) {
                const api::Pod& p = m_pods[i];
                const std::string name = api::objectKey(p.meta);
                if (p.spec.priority.value_or(0) != root.policy.priority)
                    return "all pods in a composite pod group hierarchy should have the same priority as its "
                           "root ("
                        + std::to_string(root.policy.priority) + "); pod " + name + " has "
                        + std::to_string(p.spec.priority.value_or(0));
                if (!first) {
                    first = &p;
                    continue;
                }
                if (schedulerOf(p) != schedulerOf(*first))
                    return "all pods in a composite pod group hierarchy should have the same schedulerName; "
                           "pod "
                        + name + " has " + schedulerOf(p) + ", pod " + api::objectKey(first->meta) + " "
                        + schedulerOf(*first);
                if (policyOf(p) != policyOf(*first))
                    return "all pods in a composite pod group hierarchy should have the same "
                           "preemptionPolicy; pod "
                        + name + " has " + policyOf(p) + ", pod " + api::objectKey(first->meta) + " "
                        + policyOf(*first);
            }
        return {};
    }

private:
    static std::string schedulerOf(const api::Pod& p)
    {
        return p.spec.schedulerName.empty() ? std::string("default-scheduler") : p.spec.schedulerName;
    }
    static std::string policyOf(const api::Pod& p)
    {
        return p.spec.preemptionPolicy == api::PreemptionPolicy::Never ? "Never" : "PreemptLowerPriority";
    }
    void noteWorkload(const std::optional<api::WorkloadTemplateRef>& ref)
    {
        if (ref)
            m_workloads.insert(ref->workloadName);
    }

    const std::vector<api::Pod>& m_pods;
    bool m_wap;
    std::map<std::string, const api::CompositePodGroup*> m_composites;
    std::map<std::string, std::vector<const api::CompositePodGroup*>> m_compositeChildren;
    std::map<std::string, std::vector<api::PodGroup*>> m_groupChildren;
    std::map<std::string, Leaf> m_leaves;
    std::set<std::string> m_workloads;
    bool m_tooDeep = false;
};

/// The hierarchical quorum of the gang plugin's PreEnqueue (workload-scheduling.md §5.2): a
/// PodGroup has its minCount pods (gang) or one (basic); a composite group has minGroupCount
/// children (gang) or one (basic) that have theirs. `why` says where it fails.
bool hasQuorum(const GroupTreeNode& n, std::string& why)
{
    const int32_t need = n.policy.gang ? n.policy.minCount : 1;
    if (!n.composite) {
        const auto exist = int32_t(n.pending.size() + n.boundMembers.size());
        if (exist < need)
            why = "pod group " + n.policy.key + ": " + std::to_string(exist) + " of minCount "
                + std::to_string(need) + " pods exist";
        return exist >= need;
    }
    int32_t with = 0;
    std::string first;
    for (const auto& c : n.children) {
        std::string childWhy;
        if (hasQuorum(c, childWhy))
            ++with;
        else if (first.empty())
            first = childWhy;
    }
    if (with < need)
        why = "composite pod group " + n.policy.key + ": " + std::to_string(with) + " of minGroupCount "
            + std::to_string(need) + " child groups have their quorum"
            + (first.empty() ? "" : " (" + first + ")");
    return with >= need;
}

/// What preemption reads of the PodGroups of a hierarchy (PodGroupPolicy::rootKey, unitKey):
/// below a group whose disruptionMode is all every bound pod is one victim unit, however its
/// descendants are marked ("all" overrides "single" in descendant groups:
/// kubernetes/kubernetes#140634). A leaf takes its root's priority: the scheduler refuses a
/// hierarchy whose pods differ from it, and in the alpha "everything within a tree has the same
/// priority" (KEP-6012 review, kubernetes/enhancements#6017).
void markUnits(GroupTreeNode& n, const PodGroupPolicy& root, std::string unitKey, bool unitComposite)
{
    if (unitKey.empty() && n.policy.disruptAll) {
        unitKey = n.policy.key;
        unitComposite = n.composite;
    }
    if (!n.composite) {
        n.policy.rootKey = root.key;
        n.policy.unitKey = unitKey;
        n.policy.unitComposite = unitComposite;
        n.policy.priority = root.priority;
    }
    for (auto& c : n.children)
        markUnits(c, root, unitKey, unitComposite);
}

/// Every group of the tree, depth first, parents first: as scheduleGroupTree lists them.
void groupsInOrder(const GroupTreeNode& n, const Hierarchy& h, std::vector<HierarchyPlan::Group>& order,
    const std::string& path)
{
    HierarchyPlan::Group g;
    g.path = path.empty() ? describe(n) : path + " > " + describe(n);
    if (!n.composite) {
        const auto& info = h.leaf(n.policy.key);
        g.group = info.group;
        g.pending = info.pending;
    }
    order.push_back(g);
    for (const auto& c : n.children)
        groupsInOrder(c, h, order, g.path);
}

/// Every pending member of the hierarchy stays pending with the plan's refusal, and no cycle
/// ran; refused by a cycle, its PodGroups say the hierarchy was refused.
void refuse(Cluster& cluster, BatchResult& out, const HierarchyPlan& plan, HierarchyTurn& turn)
{
    for (const auto& g : plan.groups) {
        if (!g.group)
            continue;
        for (size_t i : g.pending) {
            ScheduleResult r;
            r.failure = FailureKind::Unschedulable;
            r.message = plan.refusal;
            recordResult(cluster, out.pods[i], r, out);
            turn.members.push_back(i);
            turn.accounts.push_back(g.path + ": " + plan.refusal);
        }
        if (plan.refusedByCycle) {
            GroupScheduleResult failed;
            failed.message = plan.refusal;
            setGroupScheduledCondition(*g.group, failed);
        }
    }
}

} // namespace

HierarchyPlan planHierarchy(const api::PodGroup& leaf, const std::vector<api::CompositePodGroup>& composites,
    std::vector<api::PodGroup>& groups, const std::vector<api::Pod>& pods, bool workloadAwarePreemption)
{
    HierarchyPlan plan;
    Hierarchy h(composites, groups, pods, workloadAwarePreemption);
    std::string problem;
    plan.rootKey = h.rootOf(leaf, problem);
    if (plan.rootKey.empty()) {
        plan.refusal = "pod group " + api::objectKey(leaf.meta) + ": " + problem;
        return plan;
    }
    plan.root = h.build(plan.rootKey);
    const PodGroupPolicy rootPolicy = plan.root.policy;
    markUnits(plan.root, rootPolicy, std::string(), false);
    groupsInOrder(plan.root, h, plan.groups, "");
    const std::string lead = "composite pod group " + plan.rootKey + ": ";
    std::string why, refusal;
    if (h.tooDeep())
        refusal = "its hierarchy has more than " + std::to_string(kMaxTreeDepth) + " levels";
    else if (h.manyWorkloads())
        refusal = "its hierarchy refers to more than one Workload";
    else if (!hasQuorum(plan.root, why))
        // PreEnqueue holds the root until the hierarchy's quorum exists (no cycle, no condition).
        refusal = "waiting for the hierarchy's quorum to appear in scheduling queue: "
            + (why.starts_with(lead) ? why.substr(lead.size()) : why);
    else if (refusal = h.inconsistency(plan.root); !refusal.empty())
        plan.refusedByCycle = true; // a cycle refused the whole hierarchy as unschedulable
    if (!refusal.empty())
        plan.refusal = lead + refusal;
    return plan;
}

void registerHierarchyGroups(Cluster& cluster, const std::vector<api::CompositePodGroup>& composites,
    std::vector<api::PodGroup>& groups, const std::vector<api::Pod>& pods, bool workloadAwarePreemption)
{
    for (const auto& g : groups) {
        if (g.parentCompositePodGroupName.empty())
            continue;
        const HierarchyPlan plan = planHierarchy(g, composites, groups, pods, workloadAwarePreemption);
        std::vector<const GroupTreeNode*> stack { &plan.root };
        while (!stack.empty() && !plan.rootKey.empty()) {
            const GroupTreeNode* n = stack.back();
            stack.pop_back();
            if (!n->composite && n->policy.key == api::objectKey(g.meta))
                cluster.registerPodGroup(n->policy);
            for (const auto& c : n->children)
                stack.push_back(&c);
        }
    }
}

HierarchyTurn scheduleHierarchyAt(Cluster& cluster, BatchResult& out, const api::PodGroup& leaf,
    const std::vector<api::CompositePodGroup>& composites, std::vector<api::PodGroup>& groups,
    bool topologyAware, bool workloadAwarePreemption)
{
    HierarchyTurn turn;
    const HierarchyPlan plan = planHierarchy(leaf, composites, groups, out.pods, workloadAwarePreemption);
    if (plan.rootKey.empty()) {
        // Only this PodGroup is known to belong to the broken hierarchy: its members wait.
        turn.groups.push_back(&leaf);
        for (size_t i = 0; i < out.pods.size(); ++i)
            if (api::podGroupKeyOf(out.pods[i]) == api::objectKey(leaf.meta)
                && needsScheduling(out.pods[i])) {
                ScheduleResult r;
                r.failure = FailureKind::Unschedulable;
                r.message = plan.refusal;
                recordResult(cluster, out.pods[i], r, out);
                turn.members.push_back(i);
                turn.accounts.push_back(plan.refusal);
            }
        return turn;
    }
    for (const auto& g : plan.groups)
        if (g.group)
            turn.groups.push_back(g.group);
    if (!plan.refusal.empty()) {
        refuse(cluster, out, plan, turn);
        return turn;
    }

    const GroupTreeResult r = scheduleGroupTree(cluster, plan.root, topologyAware);
    for (size_t k = 0; k < plan.groups.size(); ++k) {
        const HierarchyPlan::Group& g = plan.groups[k];
        if (!g.group)
            continue;
        const GroupTreeOutcome& o = r.groups[k];
        for (size_t j = 0; j < g.pending.size() && j < o.members.size(); ++j) {
            api::Pod& member = out.pods[g.pending[j]];
            recordResult(cluster, member, o.members[j], out);
            recordGroupClaimStatuses(cluster, *g.group, member);
            turn.members.push_back(g.pending[j]);
            std::string account = g.path + ": last group cycle: "
                + (o.members[j].scheduled ? "placed" + (o.domain.empty() ? "" : " in " + o.domain)
                                          : o.members[j].message);
            if (!o.members[j].scheduled && r.preemption && !r.preemption->message.empty())
                account += "; " + r.preemption->message;
            if (const std::string claims = groupClaimsNote(cluster, *g.group, member); !claims.empty())
                account += "; " + claims;
            turn.accounts.push_back(std::move(account));
        }
        GroupScheduleResult status;
        status.scheduled = r.scheduled && o.scheduled;
        status.message = r.scheduled ? o.message : r.message;
        // The root's preemption outcome reaches every PodGroup of the hierarchy's status
        // (applyPodGroupPostFilterResult appends it to each group's result).
        if (!r.scheduled)
            status.preemption = r.preemption;
        setGroupScheduledCondition(*g.group, status);
    }
    // Workload-aware preemption for the root deletes its victims as a PodGroup's does.
    if (r.preemption && !r.preemption->victims.empty() && !turn.members.empty())
        recordPreemption(out.pods[turn.members.front()],
            plan.root.composite ? PreemptorKind::CompositePodGroup : PreemptorKind::PodGroup, *r.preemption,
            out.pods);
    return turn;
}

std::shared_ptr<const PodDiagnosis> explainHierarchyMember(
    Cluster& cluster, const api::Pod& pod, const std::string& account)
{
    if (!pod.spec.nodeName.empty()) {
        auto placed = std::make_shared<PodDiagnosis>();
        placed->pod = api::objectKey(pod.meta);
        placed->scheduled = true;
        placed->nodeName = pod.spec.nodeName;
        return placed;
    }
    std::shared_ptr<const PodDiagnosis> own;
    {
        ClusterTransaction dryRun(cluster);
        own = cluster.schedule(pod, true).diagnosis;
    }
    if (!own)
        return nullptr;
    auto withGroup = std::make_shared<PodDiagnosis>(*own);
    withGroup->group = account;
    return withGroup;
}

} // namespace drasim::scheduler
