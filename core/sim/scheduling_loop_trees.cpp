// SPDX-License-Identifier: Apache-2.0
// CompositePodGroup hierarchies in the scheduling loop (Kubernetes 1.37 alpha, KEP-6012;
// workload-scheduling.md §5.2): the root is queued once the hierarchical quorum holds with a pod
// pending, one greedy top-down cycle places the whole tree (scheduler::scheduleGroupTree, the
// cycle `allocate` runs, checked first by scheduler::planHierarchy as `allocate` checks it), the
// tree binds when the root succeeds with a pod placed, and leftovers wait for a later cycle of the
// same recursion. A root that does not fit may preempt lower-priority units (workload-aware
// preemption, with WorkloadAwarePreemption's gates: the cluster evicts and nominates, the loop
// deletes the victims as for a PodGroup), then waits for freed capacity and backs off as a
// PodGroup does (scheduling_loop_groups.cpp).
#include "core/sim/scheduling_loop_trees.h"

#include <algorithm>

#include "core/api/object_key.h"
#include "core/scheduler/batch_hierarchies.h"
#include "core/sim/scheduling_loop_hints.h"

namespace drasim::sim {

namespace {

/// The cycle's message without its "composite pod group <root>: " lead, so that one reason reads
/// the same for every hierarchy.
std::string treeReason(const std::string& message, const std::string& key)
{
    const std::string lead = "composite pod group " + key + ": ";
    return message.starts_with(lead) ? message.substr(lead.size()) : message;
}

/// The hierarchy's pods as the scheduler reads them: the running ones with their node.
struct TreePods
{
    std::vector<uint32_t> slots;
    std::vector<api::Pod> pods;
};

TreePods podsOf(const SimContext& ctx, const GroupState& g)
{
    TreePods out;
    for (uint32_t id : g.members) {
        const SimPod& p = ctx.pods[id];
        out.slots.push_back(id);
        out.pods.push_back(ctx.buildPod(p));
        if (p.state == PodState::Running)
            out.pods.back().spec.nodeName = p.node;
    }
    return out;
}

/// The plan of the hierarchy of `pods` (their first member names one of its PodGroups).
scheduler::HierarchyPlan planOf(
    const workload::ManifestGroups& objects, const std::vector<api::Pod>& pods, bool workloadAwarePreemption)
{
    std::vector<api::PodGroup> groups = objects.groups;
    const std::string leafKey = api::podGroupKeyOf(pods.front());
    const auto leaf = std::find_if(groups.begin(), groups.end(),
        [&](const api::PodGroup& g) { return api::objectKey(g.meta) == leafKey; });
    if (leaf == groups.end()) {
        // The workload gives a job the hierarchy only when its pods' PodGroup is among the
        // manifests; a namespace it was not found in holds its pods as a missing PodGroup would.
        scheduler::HierarchyPlan missing;
        missing.refusal
            = "pod group " + leafKey + ": waiting for pod's pod group to appear in scheduling queue";
        return missing;
    }
    return scheduler::planHierarchy(*leaf, objects.composites, groups, pods, workloadAwarePreemption);
}

} // namespace

GroupState* SchedulingLoop::Trees::entity(SchedulingLoop& loop, uint32_t entry)
{
    if (entry & kTreeEntry)
        return &loop.m_trees.trees[entry & ~kTreeEntry].queue;
    JobState& job = loop.m_ctx.jobs[entry];
    return job.live && job.group ? &*job.group : nullptr;
}

bool SchedulingLoop::Trees::add(SchedulingLoop& loop, uint32_t id)
{
    SimPod& p = loop.m_ctx.pods[id];
    const auto& objects = loop.m_ctx.jobs[p.job].spec.hierarchy;
    if (!objects)
        return false;
    const bool wap = loop.m_ctx.options.workloadAwarePreemption;
    const scheduler::HierarchyPlan alone = planOf(*objects, { loop.m_ctx.buildPod(p) }, wap);
    // A hierarchy that cannot be built is keyed by the PodGroup whose pods wait for it.
    const std::string key = alone.rootKey.empty() ? alone.refusal : alone.rootKey;
    GroupTrees& t = loop.m_trees;
    auto [it, created] = t.byKey.emplace(key, uint32_t(t.trees.size()));
    if (created) {
        GroupTree tree;
        tree.objects = objects;
        tree.queue.policy.key = alone.rootKey.empty() ? api::podGroupKeyOf(loop.m_ctx.buildPod(p)) : key;
        tree.queue.priority = alone.root.policy.priority;
        tree.queue.order = p.serial;
        if (!alone.rootKey.empty())
            if (TreeQuorum quorum = treeQuorumOf(alone.root); quorum.anyGang())
                tree.quorum = std::make_shared<const TreeQuorum>(std::move(quorum));
        t.trees.push_back(std::move(tree));
    }
    const uint32_t index = it->second;
    t.ofPod[id] = index;
    GroupState& g = t.trees[index].queue;
    g.members.push_back(id);
    p.state = PodState::Grouped;
    loop.m_ctx.metrics.podPending(+1);
    if (g.state == GroupState::State::Parked) {
        loop.requeueGroup(kTreeEntry | index); // a new member may help, as for a PodGroup
        return true;
    }
    if (g.state != GroupState::State::Gated)
        return true;
    // PreEnqueue: the hierarchy is complete and its quorum holds (a cycle's refusal is the
    // cycle's to give).
    const TreePods members = podsOf(loop.m_ctx, g);
    const scheduler::HierarchyPlan plan = planOf(*objects, members.pods, wap);
    if (plan.refusal.empty() || plan.refusedByCycle) {
        g.state = GroupState::State::Queued;
        g.lastMessage.clear();
        loop.m_queue.pushActive(loop.groupKey(kTreeEntry | index));
    } else {
        g.lastMessage = treeReason(plan.refusal, g.policy.key);
        g.reason = loop.reasonFor(g.lastMessage);
    }
    return true;
}

void SchedulingLoop::Trees::memberGone(SchedulingLoop& loop, uint32_t id)
{
    auto it = loop.m_trees.ofPod.find(id);
    if (it == loop.m_trees.ofPod.end())
        return;
    std::erase(loop.m_trees.trees[it->second].queue.members, id);
    loop.m_trees.ofPod.erase(it);
}

uint32_t SchedulingLoop::Trees::treeOf(const SchedulingLoop& loop, uint32_t id)
{
    const auto it = loop.m_trees.ofPod.find(id);
    return it == loop.m_trees.ofPod.end() ? kNone : it->second;
}

void SchedulingLoop::Trees::attempt(SchedulingLoop& loop, uint32_t index)
{
    SimContext& ctx = loop.m_ctx;
    GroupState& g = loop.m_trees.trees[index].queue;
    const auto objects = loop.m_trees.trees[index].objects;
    const TreePods members = podsOf(ctx, g);
    const bool anyPending = std::any_of(members.slots.begin(), members.slots.end(),
        [&](uint32_t id) { return ctx.pods[id].state == PodState::Grouped; });
    if (!anyPending) {
        g.state = GroupState::State::Gated; // every pending member left; a new one queues it again
        return;
    }
    const scheduler::HierarchyPlan plan = planOf(*objects, members.pods, ctx.options.workloadAwarePreemption);
    if (!plan.refusal.empty() && !plan.refusedByCycle) {
        // Members left and the quorum no longer holds: PreEnqueue holds the root again.
        g.state = GroupState::State::Gated;
        g.lastMessage = treeReason(plan.refusal, g.policy.key);
        g.reason = loop.reasonFor(g.lastMessage);
        return;
    }
    TreeOutcome out;
    if (plan.refusal.empty())
        out = ctx.cluster.scheduleGroupTree(plan.root, ctx.options.topologyAwareGroups);
    else
        out.message = plan.refusal;
    // The pending members in the tree's order, with what the cycle said of each.
    std::vector<uint32_t> pending;
    std::vector<uint64_t> serials;
    std::vector<const BindOutcome*> outcomes;
    for (size_t k = 0; k < plan.groups.size(); ++k)
        for (size_t j = 0; j < plan.groups[k].pending.size(); ++j) {
            const uint32_t id = members.slots[plan.groups[k].pending[j]];
            pending.push_back(id);
            serials.push_back(ctx.pods[id].serial);
            const bool known = k < out.groups.size() && j < out.groups[k].members.size();
            outcomes.push_back(known ? &out.groups[k].members[j] : nullptr);
        }
    loop.m_attempts += pending.size();
    ++loop.m_groupCycles;
    g.attempts++;
    g.lastAttempt = ctx.now;
    const std::string key = g.policy.key;
    scheduler::PluginSet rejectedBy = 0;
    for (size_t i = 0; i < pending.size(); ++i) {
        SimPod& p = ctx.pods[pending[i]];
        // Binding a member may end a job (its other pods are gone then).
        if (p.state != PodState::Grouped || p.serial != serials[i])
            continue;
        p.attempts++;
        p.lastAttempt = ctx.now;
        if (out.scheduled && outcomes[i] && outcomes[i]->scheduled) {
            loop.bind(pending[i], *outcomes[i]); // may create pods and hierarchies: `g` is not used after
            continue;
        }
        const std::string& message = outcomes[i] ? outcomes[i]->message : out.message;
        rejectedBy |= outcomes[i] ? outcomes[i]->unschedulablePlugins : 0;
        p.reason = loop.reasonFor(treeReason(message, key));
        ctx.emit(PodEventType::Unschedulable, p, message);
    }
    GroupState& after = loop.m_trees.trees[index].queue;
    if (!out.victims.empty()) // nothing was bound: the root waits, nominated, for its victims
        loop.deleteVictims("composite pod group " + key, after.priority, out.victims,
            scheduler::PreemptorKind::CompositePodGroup);
    after.lastMessage = out.scheduled ? std::string() : treeReason(out.message, key);
    after.lastPreemption = out.scheduled ? std::string() : out.preemptionMessage;
    after.reason = out.scheduled ? kNone : loop.reasonFor(after.lastMessage);
    const bool leftovers = std::any_of(after.members.begin(), after.members.end(),
        [&](uint32_t id) { return ctx.pods[id].state == PodState::Grouped; });
    if (out.scheduled && leftovers) {
        // As a PodGroup's: straight back to activeQ; the next cycle that places nothing parks it.
        after.state = GroupState::State::Queued;
        loop.m_queue.pushActive(loop.groupKey(kTreeEntry | index));
    } else if (out.scheduled) {
        after.state = GroupState::State::Gated;
    } else {
        after.state = GroupState::State::Parked;
        after.rejectedBy = rejectedBy;
        loop.m_parkedGroups.push_back(kTreeEntry | index);
        Hints::scheduleFlush(loop, ctx.now);
    }
}

std::string SchedulingLoop::Trees::status(const SchedulingLoop& loop, uint32_t id)
{
    auto it = loop.m_trees.ofPod.find(id);
    if (it == loop.m_trees.ofPod.end())
        return {};
    const GroupState& g = loop.m_trees.trees[it->second].queue;
    const std::string lead = "composite pod group " + g.policy.key + ": ";
    if (g.state == GroupState::State::Gated && !g.lastMessage.empty())
        return g.lastMessage.starts_with("pod group ") ? g.lastMessage : lead + g.lastMessage;
    if (!g.lastMessage.empty())
        return lead + "last group cycle: " + g.lastMessage
            + (g.lastPreemption.empty() ? std::string() : "; " + g.lastPreemption);
    return lead + "waiting for its group scheduling cycle";
}

void SchedulingLoop::Trees::addPending(const SchedulingLoop& loop, std::map<std::string, int64_t>& pending)
{
    for (const GroupTree& t : loop.m_trees.trees) {
        const GroupState& g = t.queue;
        const auto waiting = std::count_if(g.members.begin(), g.members.end(),
            [&](uint32_t id) { return loop.m_ctx.pods[id].state == PodState::Grouped; });
        if (waiting > 0)
            pending[g.reason == kNone ? std::string("queued") : loop.m_reasonTexts[g.reason]]
                += int64_t(waiting);
    }
}

} // namespace drasim::sim
