// SPDX-License-Identifier: Apache-2.0
// The scheduling cycle of a CompositePodGroup hierarchy (Kubernetes 1.37 alpha, gate
// CompositePodGroup). KEP-6012 makes the whole tree one scheduling unit and resolves the topology
// constraints of its levels "in a top-down manner"; workload-scheduling.md §5.2 spells out the
// greedy recursion kube-scheduler runs: for each composite group, the placements of its own
// topology key are generated inside its parent's placement (the root's: every node); for each
// candidate the children are tried in creation order, each assumed where it fits, with no
// backtracking between siblings (an earlier sibling may take the room a later one needed: the
// alpha's known limitation); PlacementFeasible with minGroupCount runs after each child; the
// feasible candidates are scored with the PodGroup placement scorers summed over the descendant
// leaves (PodGroupPodsCount and NodeResourcesFit's MostAllocated over the candidate's nodes) and
// the best is kept. A leaf PodGroup runs the PodGroup cycle (group_cycle.cpp) inside the placement
// its parent gave. Everything tried is undone through the cluster's transactions; the root keeps
// the tree only when its quorum holds with at least one pod placed.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/scheduler/cluster_impl.h"
#include "core/scheduler/group_claim_cycle.h"
#include "core/scheduler/group_cycle.h"
#include "core/scheduler/group_preemption.h"
#include "core/scheduler/group_tree.h"
#include "core/scheduler/scoring.h"

namespace drasim::scheduler {

Feasibility compositeFeasible(const PodGroupPolicy& group, int32_t scheduled, int32_t remaining)
{
    const int32_t minGroupCount = group.gang ? group.minCount : 1;
    if (scheduled >= minGroupCount)
        return Feasibility::Success;
    if (scheduled + remaining >= minGroupCount)
        return Feasibility::Wait;
    return Feasibility::Unschedulable;
}

std::string minGroupCountMessage(
    const PodGroupPolicy& group, int32_t scheduled, int32_t remaining, int32_t unschedulable)
{
    const int32_t minGroupCount = group.gang ? group.minCount : 1;
    return "minGroupCount (" + std::to_string(minGroupCount) + ") "
        + (scheduled + remaining < minGroupCount ? "cannot be" : "is not yet")
        + " satisfied: " + std::to_string(scheduled) + " child groups scheduled, " + std::to_string(remaining)
        + " remaining, " + std::to_string(unschedulable) + " unschedulable";
}

namespace {

std::string leadOf(const GroupTreeNode& n)
{
    return (n.composite ? "composite pod group " : "pod group ") + n.policy.key + ": ";
}

} // namespace

struct Cluster::Impl::CompositeCycle
{
    using Placement = GroupCycle::Placement;
    /// What one group gave inside one placement.
    struct Eval
    {
        bool satisfied = false; ///< its quorum holds there (its pods stay assumed)
        int64_t pods = 0; ///< pods of its leaves scheduled there, bound before or placed now
        std::string message; ///< why not, led by the group's name
    };

    Impl& d;
    bool topologyAware;
    GroupTreeResult& out;
    std::map<const GroupTreeNode*, size_t> slots; ///< each group's entry in out.groups
    std::map<const GroupTreeNode*, size_t> ends; ///< one past its last descendant's entry

    void index(const GroupTreeNode& n)
    {
        slots[&n] = out.groups.size();
        out.groups.push_back(GroupTreeOutcome { n.policy.key, n.composite, false, "", "", {}, {} });
        for (const auto& c : n.children)
            index(c);
        ends[&n] = out.groups.size();
    }
    /// The profile of the first pending pods of the hierarchy under `n` (the default one when
    /// none is pending).
    const SchedulerProfile& profileOf(const GroupTreeNode& n) const
    {
        std::vector<const GroupTreeNode*> stack { &n };
        while (!stack.empty()) {
            const GroupTreeNode* g = stack.back();
            stack.pop_back();
            if (!g->pending.empty())
                return GroupCycle::profileOf(d, g->pending);
            for (auto c = g->children.rbegin(); c != g->children.rend(); ++c)
                stack.push_back(&*c);
        }
        return primaryProfile(d.options);
    }
    /// The entries of `n`'s descendants as they are now.
    std::vector<GroupTreeOutcome> below(const GroupTreeNode& n) const
    {
        return { out.groups.begin() + std::ptrdiff_t(slots.at(&n) + 1),
            out.groups.begin() + std::ptrdiff_t(ends.at(&n)) };
    }
    void restoreBelow(const GroupTreeNode& n, std::vector<GroupTreeOutcome> saved)
    {
        std::move(saved.begin(), saved.end(), out.groups.begin() + std::ptrdiff_t(slots.at(&n) + 1));
    }
    GroupTreeOutcome& slot(const GroupTreeNode& n) { return out.groups[slots.at(&n)]; }

    /// Forgets what an earlier try wrote below `n`: a child not reached this time reads untried.
    void reset(const GroupTreeNode& n)
    {
        for (const auto& c : n.children) {
            GroupTreeOutcome& o = slot(c);
            o.scheduled = false;
            o.domain.clear();
            o.message.clear();
            o.members.assign(c.pending.size(), ScheduleResult {});
            for (auto& m : o.members)
                m.failure = FailureKind::Unschedulable;
            o.fitted.clear();
            reset(c);
        }
    }

    /// `n` was given up: nothing below it stays scheduled, and every member says why, the
    /// outer reason first. A member placed before says it fitted: upstream keeps the pod results
    /// of a child that succeeded under a failed parent and overwrites only its status
    /// (completeCompositePodGroupAlgorithmResultMap in pkg/scheduler/schedule_one_podgroup.go).
    void fail(const GroupTreeNode& n, const std::string& message)
    {
        GroupTreeOutcome& o = slot(n);
        o.scheduled = false;
        o.domain.clear();
        o.fitted.resize(o.members.size(), false);
        for (size_t j = 0; j < o.members.size(); ++j)
            if (o.members[j].scheduled)
                o.fitted[j] = true;
        // The group's own reason, when the outer one quotes it already, is not said twice.
        const bool quoted = !o.message.empty() && message.find(o.message) != std::string::npos;
        for (auto& m : o.members) {
            std::string own = m.scheduled ? std::string() : m.message;
            if (quoted && own.rfind(o.message, 0) == 0)
                own.erase(0, std::min(own.size(), o.message.size() + 2)); // and its "; "
            ScheduleResult failed;
            failed.failure = FailureKind::Unschedulable;
            failed.message = own.empty() ? message : own.rfind(message, 0) == 0 ? own : message + "; " + own;
            failed.unschedulablePlugins = m.unschedulablePlugins;
            m = std::move(failed);
        }
        for (const auto& c : n.children)
            fail(c, message);
    }

    /// The nodes of every member of `n`'s leaves bound in earlier cycles (ascending); `gone` when
    /// one is bound to a node that no longer exists.
    void boundNodesOf(const GroupTreeNode& n, std::vector<uint32_t>& nodes, bool& gone) const
    {
        for (const auto& k : n.boundMembers) {
            auto it = d.bound.find(k);
            if (it == d.bound.end())
                continue;
            auto ni = d.nodeIndex.find(it->second.pub.nodeName);
            if (ni == d.nodeIndex.end())
                gone = true;
            else
                nodes.push_back(ni->second);
        }
        for (const auto& c : n.children)
            boundNodesOf(c, nodes, gone);
    }

    void keep(const GroupTreeNode& n, const Placement& p)
    {
        GroupTreeOutcome& o = slot(n);
        o.scheduled = true;
        o.domain = p.name;
        o.message.clear();
    }

    Eval group(const GroupTreeNode& n, const Placement& within)
    {
        return n.composite ? composite(n, within) : leaf(n, within);
    }

    Eval leaf(const GroupTreeNode& n, const Placement& within);
    Eval composite(const GroupTreeNode& n, const Placement& within);
    Eval children(const GroupTreeNode& n, const Placement& p, int32_t& held);

    static GroupTreeResult run(Impl& d, const GroupTreeNode& root, bool topologyAware, bool& preemptible);
};

// A leaf PodGroup: its own group cycle, with its own topology key, inside the parent's placement.
// Its members bound in earlier cycles count towards minCount; a leaf whose bound members hold its
// quorum already is scheduled even when none of its pending pods fits now.
Cluster::Impl::CompositeCycle::Eval Cluster::Impl::CompositeCycle::leaf(
    const GroupTreeNode& n, const Placement& within)
{
    GroupTreeOutcome& o = slot(n);
    int32_t already = 0;
    const bool holdsBound
        = !GroupCycle::boundPlacements(d, std::string(), n.boundMembers, within, already).empty();
    GroupScheduleResult r;
    if (!n.pending.empty() && holdsBound)
        r = GroupCycle::attempt(d, n.policy, n.pending, n.boundMembers, topologyAware, within);
    else
        r.message = leadOf(n)
            + (holdsBound ? minCountMessage(n.policy, already, 0)
                          : std::string("its bound members lie outside its parent's placement"));
    Eval e;
    e.satisfied
        = r.scheduled || (holdsBound && placementFeasible(n.policy, already, 0) == Feasibility::Success);
    e.pods = already + (r.scheduled ? r.placed : 0);
    e.message = e.satisfied ? std::string() : r.message;
    o.scheduled = e.satisfied;
    o.domain = r.scheduled ? r.domain : std::string();
    o.message = r.scheduled ? std::string() : r.message;
    if (r.members.size() == n.pending.size()) {
        o.members = std::move(r.members);
        o.fitted = std::move(r.fitted); // its own cycle failed: which members fitted in it
    } else { // no cycle ran: every pending member waits for the reason given
        ScheduleResult waiting;
        waiting.failure = FailureKind::Unschedulable;
        waiting.message = r.message;
        o.members.assign(n.pending.size(), waiting);
    }
    return e;
}

// The children of `n` in order inside placement `p`, greedily: a child that fits stays assumed
// for the next ones, one that does not is undone (its own cycle rolled it back) and counts as
// unschedulable. PlacementFeasible runs after each child; the remaining children are still tried
// once it holds (as the PodGroup cycle keeps placing members after minCount).
Cluster::Impl::CompositeCycle::Eval Cluster::Impl::CompositeCycle::children(
    const GroupTreeNode& n, const Placement& p, int32_t& held)
{
    Eval e;
    int32_t scheduled = 0, unschedulable = 0;
    int32_t remaining = int32_t(n.children.size());
    Feasibility status = compositeFeasible(n.policy, scheduled, remaining);
    std::string firstFailure;
    for (size_t i = 0; i < n.children.size() && status != Feasibility::Unschedulable; ++i) {
        --remaining;
        const Eval c = group(n.children[i], p);
        if (c.satisfied) {
            ++scheduled;
            e.pods += c.pods;
        } else {
            ++unschedulable;
            if (firstFailure.empty())
                firstFailure = c.message;
        }
        status = compositeFeasible(n.policy, scheduled, remaining);
    }
    held = scheduled;
    e.satisfied = status == Feasibility::Success;
    if (!e.satisfied)
        e.message = minGroupCountMessage(n.policy, scheduled, remaining, unschedulable)
            + (firstFailure.empty() ? std::string() : " (" + firstFailure + ")");
    return e;
}

// A composite group: every placement of its key inside `within` is tried in value order (with
// members bound already, only those holding all of their nodes), the best feasible one is run
// again and kept. A single candidate is kept as it was run.
Cluster::Impl::CompositeCycle::Eval Cluster::Impl::CompositeCycle::composite(
    const GroupTreeNode& n, const Placement& within)
{
    reset(n);
    const SchedulerProfile& profile = profileOf(n);
    const std::string key = topologyAware && profile.topologyPlacement ? n.policy.topologyKey : std::string();
    const FitScoring* fit = profile.placementFit.get();
    std::vector<uint32_t> boundIdx;
    bool gone = false;
    boundNodesOf(n, boundIdx, gone);
    std::sort(boundIdx.begin(), boundIdx.end());
    std::vector<Placement> candidates;
    if (!gone || key.empty())
        candidates = GroupCycle::placements(d, key, boundIdx, within);
    const std::vector<uint32_t>* const outer = d.placementNodes;
    const size_t count = candidates.size();
    std::vector<int64_t> pods(count, -1), packing(count, 0);
    std::vector<int32_t> held(count, 0);
    std::string firstMessage;
    std::vector<GroupTreeOutcome> firstTry; // what the first candidate left below: a failure tells of it
    for (size_t p = 0; p < count; ++p) {
        reset(n);
        d.undo.begin();
        d.placementNodes = candidates[p].nodes;
        const Eval e = children(n, candidates[p], held[p]);
        if (e.satisfied) {
            pods[p] = e.pods;
            packing[p] = count > 1 ? GroupCycle::binPacking(d, candidates[p], {}, fit) : 0;
        }
        d.placementNodes = outer;
        if (count == 1 && e.satisfied) { // nothing to compare it with: kept as run
            d.undo.commit();
            keep(n, candidates[p]);
            return e;
        }
        d.undo.rollback();
        if (p == 0) {
            firstMessage = e.message;
            firstTry = below(n);
        }
    }
    int64_t maxPods = 0;
    for (int64_t c : pods)
        maxPods = std::max(maxPods, c);
    size_t best = count;
    int64_t bestScore = -1;
    for (size_t p = 0; p < count; ++p) {
        if (pods[p] < 0)
            continue;
        const int64_t score = GroupCycle::placementScore(profile, pods[p], maxPods, packing[p]);
        if (score > bestScore) {
            bestScore = score;
            best = p;
        }
    }
    if (best == count) {
        std::string why = firstMessage;
        if (count == 0)
            why = key.empty() ? "its bound members lie outside its parent's placement"
                              : "no node of its parent's placement has the label " + key
                    + " of its topology constraint, or none holds its bound members";
        else if (!key.empty()) {
            std::vector<std::string> names;
            for (const auto& c : candidates)
                names.emplace_back(c.name);
            why = "0/" + std::to_string(count) + " placements are feasible: "
                + domainShortfall(n.policy.topologyKey,
                    "minGroupCount (" + std::to_string(n.policy.gang ? n.policy.minCount : 1)
                        + ") child groups",
                    names, held)
                + (firstMessage.empty()
                        ? std::string()
                        : " (in " + std::string(candidates[0].name) + ": " + firstMessage + ")");
        }
        Eval e;
        e.message = leadOf(n) + why;
        if (count > 0)
            restoreBelow(n, std::move(firstTry));
        fail(n, e.message);
        slot(n).message = e.message;
        return e;
    }
    reset(n);
    d.undo.begin();
    d.placementNodes = candidates[best].nodes;
    Eval e = children(n, candidates[best], held[best]);
    d.placementNodes = outer;
    d.undo.commit();
    keep(n, candidates[best]);
    return e;
}

// One cycle of the whole tree; `preemptible`: it ended Unschedulable and the profile runs
// PodGroupPostFilter. A root whose quorum held (members bound before count) but that placed no pod
// ends Unschedulable too ("no pods were schedulable"), and runRootSchedulingAlgorithm's caller then
// runs the PostFilter for it as for any other failure (schedule_one_podgroup.go), as a PodGroup's
// cycle does: its pending members may preempt.
GroupTreeResult Cluster::Impl::CompositeCycle::run(
    Impl& d, const GroupTreeNode& root, bool topologyAware, bool& preemptible)
{
    GroupTreeResult out;
    CompositeCycle cycle { d, topologyAware, out, {}, {} };
    cycle.index(root);
    d.undo.begin();
    const auto e = cycle.group(root, GroupCycle::Placement {});
    int32_t placed = 0;
    for (const auto& g : out.groups)
        for (const auto& m : g.members)
            placed += m.scheduled ? 1 : 0;
    preemptible = false;
    if (e.satisfied && placed > 0) {
        d.undo.commit();
        out.scheduled = true;
        out.placed = placed;
    } else {
        d.undo.rollback();
        // The framework wants at least one pod placed by the cycle itself.
        out.message = e.satisfied ? leadOf(root) + "no pods were schedulable" : e.message;
        cycle.fail(root, out.message);
        cycle.slot(root).message = out.message;
        preemptible = cycle.profileOf(root).groupPreemption;
    }
    return out;
}

GroupTreeResult scheduleGroupTree(Cluster& cluster, const GroupTreeNode& root, bool topologyAware)
{
    Cluster::Impl& d = *cluster.m_impl;
    // The members' own cycles run no DefaultPreemption, as in a PodGroup cycle; the leaves'
    // policies say how their bound members are evicted later.
    const bool wasInGroupCycle = d.inGroupCycle;
    d.inGroupCycle = true;
    std::vector<const GroupTreeNode*> stack { &root };
    while (!stack.empty()) {
        const GroupTreeNode* n = stack.back();
        stack.pop_back();
        if (!n->composite) {
            d.groupPolicies[n->policy.key] = n->policy;
            Cluster::Impl::GroupClaims::generate(d, n->policy);
        }
        for (const auto& c : n->children)
            stack.push_back(&c);
    }
    bool preemptible = false;
    GroupTreeResult out = Cluster::Impl::CompositeCycle::run(d, root, topologyAware, preemptible);
    // A root that ends Unschedulable runs workload-aware preemption as the preemptor, at its
    // priority (KEP-6012, kubernetes/kubernetes#140634: PodGroupPostFilter for a CompositePodGroup);
    // topology constraints do not stop it in 1.37 (kubernetes/kubernetes#140683).
    bool waitingOnPreemption = false;
    if (preemptible)
        waitingOnPreemption = Cluster::Impl::GroupPreemption::treePostFilter(
            d, root,
            [&] {
                bool ignored = false;
                return Cluster::Impl::CompositeCycle::run(d, root, topologyAware, ignored);
            },
            out);
    // A cycle not waiting on preemption takes back the nominations of the members it placed in
    // each PodGroup of the tree that ends unscheduled (the whole tree, when the root failed; a
    // child that failed under a root that held), as a PodGroup's failed cycle does.
    if (!waitingOnPreemption)
        out.nominationsCleared = Cluster::Impl::GroupPreemption::clearTreeFittedNominations(d, root, out);
    d.inGroupCycle = wasInGroupCycle;
    return out;
}

} // namespace drasim::scheduler
