// SPDX-License-Identifier: Apache-2.0
// The CompositePodGroup hierarchy's cycle (Kubernetes 1.37 alpha, KEP-6012): PlacementFeasible
// with minGroupCount, a three-level tree placed top-down, and laws over random trees on random
// block/rack clusters: every bound PodGroup lies in one domain of its own key and of every
// composite group's key above it, a gang PodGroup is never bound below minCount, a tree that is
// not scheduled binds nothing, no node holds more than it has, and the members a cycle says fitted
// belong to groups it left unscheduled. A later cycle that does not wait on preemption takes back
// the nominations of the members it placed in each PodGroup it left unscheduled.
#include <map>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/group_tree.h"
#include "tests/unit/allocator/fixtures.h"
#include "tests/unit/scheduler/priority_pod.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;
using scheduler::GroupTreeNode;

namespace group_tree_test {

/// Nodes `cpus[i]` cpus each, labelled block=b<i / perBlock> and rack=b<..>-r<i / perRack>.
api::ObjectSet blockCluster(const std::vector<int>& cpus, int perBlock, int perRack)
{
    api::ObjectSet o;
    for (size_t n = 0; n < cpus.size(); ++n) {
        const std::string block = "b" + std::to_string(int(n) / perBlock);
        const std::string rack = block + "-r" + std::to_string(int(n) / perRack);
        o.nodes.push_back(node(numbered("node-", int64_t(n)), { { "block", block }, { "rack", rack } },
            std::to_string(cpus[n])));
    }
    return o;
}

GroupTreeNode leafGroup(const std::string& name, int pods, bool gang, int minCount, const std::string& key)
{
    GroupTreeNode n;
    n.policy = scheduler::PodGroupPolicy { "default/" + name, gang, minCount, key };
    for (int i = 0; i < pods; ++i) {
        api::Pod p = pod(name + "-" + std::to_string(i));
        p.spec.containers[0].resources.requests["cpu"] = q("1");
        p.spec.schedulingGroup = name;
        n.pending.push_back(std::move(p));
    }
    return n;
}

GroupTreeNode compositeGroup(const std::string& name, bool gang, int minGroupCount, const std::string& key,
    std::vector<GroupTreeNode> children)
{
    GroupTreeNode n;
    n.composite = true;
    n.policy = scheduler::PodGroupPolicy { "default/" + name, gang, minGroupCount, key };
    n.children = std::move(children);
    return n;
}

std::map<std::string, std::string> nodeOfBound(const Cluster& c)
{
    std::map<std::string, std::string> out;
    for (const auto& b : c.boundPods())
        out[b.key] = b.nodeName;
    return out;
}

/// The values of `key` on the nodes of every bound pod under `n`.
void valuesUnder(const Cluster& c, const GroupTreeNode& n, const std::map<std::string, std::string>& bound,
    const std::string& key, std::set<std::string>& values, int& count)
{
    for (const auto& p : n.pending)
        if (auto it = bound.find("default/" + p.meta.name); it != bound.end()) {
            values.insert(c.findNode(it->second)->meta.labels.at(key));
            ++count;
        }
    for (const auto& ch : n.children)
        valuesUnder(c, ch, bound, key, values, count);
}

/// The laws of one tree's cycle; `at` names the case in failures.
void checkTree(const Cluster& c, const GroupTreeNode& n, const std::map<std::string, std::string>& bound,
    const std::string& at)
{
    std::set<std::string> values;
    int count = 0;
    if (!n.policy.topologyKey.empty()) {
        valuesUnder(c, n, bound, n.policy.topologyKey, values, count);
        EXPECT_LE(values.size(), 1u) << at << ": " << n.policy.key << " spans " << values.size() << " "
                                     << n.policy.topologyKey << " domains";
    }
    if (!n.composite && n.policy.gang) {
        values.clear();
        count = 0;
        valuesUnder(c, n, bound, "rack", values, count);
        EXPECT_TRUE(count == 0 || count >= n.policy.minCount)
            << at << ": " << n.policy.key << " bound " << count;
    }
    for (const auto& ch : n.children)
        checkTree(c, ch, bound, at);
}

GroupTreeNode randomTree(std::mt19937_64& rng, const std::string& name, int depth)
{
    const char* keys[] = { "", "block", "rack" };
    const int childCount = 1 + int(rng() % 3);
    std::vector<GroupTreeNode> children;
    for (int k = 0; k < childCount; ++k) {
        const std::string child = name + "-" + std::to_string(k);
        if (depth < 3 && rng() % 3 == 0) {
            children.push_back(randomTree(rng, child, depth + 1));
        } else {
            const int pods = 1 + int(rng() % 4);
            const bool gang = rng() % 4 != 0;
            const int minCount = 1 + int(rng() % uint64_t(pods));
            const std::string key = keys[rng() % 3];
            children.push_back(leafGroup(child, pods, gang, minCount, key));
        }
    }
    // Keys coarser at the top: a composite group below the root keeps to racks or none.
    const std::string key = depth == 1 ? keys[rng() % 2] : (rng() % 2 ? "rack" : "");
    const bool gang = rng() % 4 != 0;
    const int minGroupCount = 1 + int(rng() % uint64_t(childCount));
    return compositeGroup(name, gang, minGroupCount, key, std::move(children));
}

/// Every group of the tree preempts workload-aware, at priority 1000 as its pending pods.
void preemptingAtPriority1000(GroupTreeNode& n)
{
    n.policy.workloadAwarePreemption = true;
    n.policy.priority = 1000;
    for (auto& p : n.pending)
        p.spec.priority = 1000;
    for (auto& child : n.children)
        preemptingAtPriority1000(child);
}

/// Four blocks of two racks (one node each), with pod `name` of `cpu` at `priority` on node-0.
Cluster blocksWithOnePodOnNode0(const std::string& name, const std::string& cpu, int32_t priority)
{
    auto o = blockCluster({ 2, 2, 2, 2 }, 2, 1);
    o.pods.push_back(priorityPod(name, cpu, priority, "node-0"));
    return Cluster(std::move(o));
}

/// A job (gang of 2, kept in one block) of two rack gangs of 2 and 3 pods, preempting at 1000.
GroupTreeNode preemptingJobOfTwoRackGangs()
{
    GroupTreeNode job = compositeGroup(
        "job", true, 2, "block", { leafGroup("a", 2, true, 2, "rack"), leafGroup("b", 3, true, 3, "rack") });
    preemptingAtPriority1000(job);
    return job;
}

/// Three nodes of 4 cpus, one rack each, each full of a pod below the tree (low-0..2, priority 100).
Cluster threeNodesFullOfLowPods()
{
    auto o = blockCluster({ 4, 4, 4 }, 3, 1);
    for (int i = 0; i < 3; ++i)
        o.pods.push_back(priorityPod("low-" + std::to_string(i), "4", 100, "node-" + std::to_string(i)));
    return Cluster(std::move(o));
}

/// A job needing `minGroupCount` of its two children, one pod and a gang of two, each pod taking a
/// node of threeNodesFullOfLowPods; preempting at 1000.
GroupTreeNode jobOfOneAndAPair(int32_t minGroupCount)
{
    GroupTreeNode job = compositeGroup("job", true, minGroupCount, "",
        { leafGroup("one", 1, false, 1, ""), leafGroup("pair", 2, true, 2, "") });
    preemptingAtPriority1000(job);
    for (auto& leaf : job.children)
        for (auto& p : leaf.pending)
            p.spec.containers[0].resources.requests["cpu"] = q("4");
    return job;
}

} // namespace group_tree_test

using namespace group_tree_test;

TEST(CompositeFeasible, CountsChildGroupsAgainstMinGroupCount)
{
    const scheduler::PodGroupPolicy gang { "default/job", true, 2, "" };
    EXPECT_EQ(scheduler::compositeFeasible(gang, 0, 3), scheduler::Feasibility::Wait);
    EXPECT_EQ(scheduler::compositeFeasible(gang, 1, 0), scheduler::Feasibility::Unschedulable);
    EXPECT_EQ(scheduler::compositeFeasible(gang, 2, 1), scheduler::Feasibility::Success);
    EXPECT_EQ(scheduler::minGroupCountMessage(gang, 1, 0, 2),
        "minGroupCount (2) cannot be satisfied: 1 child groups scheduled, 0 remaining, 2 unschedulable");
    const scheduler::PodGroupPolicy basic { "default/job", false, 5, "" };
    EXPECT_EQ(scheduler::compositeFeasible(basic, 1, 0), scheduler::Feasibility::Success);
    EXPECT_EQ(scheduler::compositeFeasible(basic, 0, 1), scheduler::Feasibility::Wait);
}

// Three levels: a job over blocks, each replica in one rack of the job's block. Block b0 has no
// rack with room for a replica of three; both replicas land in b1, one rack each.
TEST(GroupTree, ThreeLevelsLandInOneBlockOneRackPerReplica)
{
    // b0: racks of 2 cpus; b1: racks of 3 and 4 cpus (one node per rack).
    Cluster c(blockCluster({ 2, 2, 3, 4 }, 2, 1));
    auto replica = [](const std::string& name) {
        return compositeGroup(name, true, 1, "rack", { leafGroup(name + "-workers", 3, true, 3, "") });
    };
    const GroupTreeNode job = compositeGroup("job", true, 2, "block", { replica("r0"), replica("r1") });
    const auto r = scheduler::scheduleGroupTree(c, job, true);
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.placed, 6);
    ASSERT_EQ(r.groups.size(), 5u);
    EXPECT_EQ(r.groups[0].domain, "block=b1");
    EXPECT_EQ(r.groups[1].domain, "rack=b1-r2");
    EXPECT_EQ(r.groups[3].domain, "rack=b1-r3");
    const auto bound = nodeOfBound(c);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(bound.at("default/r0-workers-" + std::to_string(i)), "node-2");
        EXPECT_EQ(bound.at("default/r1-workers-" + std::to_string(i)), "node-3");
    }
}

// A tree that does not fit binds nothing, leaves the cluster as it found it, and every member
// says why in the tree's terms: the root first, then the level that failed.
TEST(GroupTree, TreeThatDoesNotFitBindsNothingAndSaysWhere)
{
    Cluster c(blockCluster({ 2, 2, 2, 2 }, 2, 1));
    const GroupTreeNode job = compositeGroup(
        "job", true, 2, "block", { leafGroup("a", 2, true, 2, "rack"), leafGroup("b", 3, true, 3, "rack") });
    const auto r = scheduler::scheduleGroupTree(c, job, true);
    EXPECT_FALSE(r.scheduled);
    EXPECT_TRUE(c.boundPods().empty());
    EXPECT_EQ(r.message,
        "composite pod group default/job: 0/2 placements are feasible: no block domain holds minGroupCount "
        "(2) "
        "child groups: b0 1, b1 1 (in block=b0: minGroupCount (2) cannot be satisfied: 1 child groups "
        "scheduled, 0 remaining, 1 unschedulable (pod group default/b: 0/2 placements are feasible: no rack "
        "domain holds minCount (3) pods: b0-r1 2, b0-r0 0))");
    ASSERT_EQ(r.groups.size(), 3u);
    for (const auto& g : r.groups)
        EXPECT_FALSE(g.scheduled) << g.key;
    for (const auto& m : r.groups[2].members) {
        EXPECT_FALSE(m.scheduled);
        EXPECT_EQ(m.message.rfind(r.message, 0), 0u) << m.message;
    }
}

// A hierarchy's root preempts as a PodGroup does (kubernetes/kubernetes#140634): with nothing of
// lower priority running it says what upstream's PodGroupPostFilter says, and evicts nothing.
TEST(GroupTree, ARootWithNothingBelowItSaysNoVictimsWereFound)
{
    Cluster c = blocksWithOnePodOnNode0("high", "2", 2000);
    GroupTreeNode job = preemptingJobOfTwoRackGangs();
    const auto r = scheduler::scheduleGroupTree(c, job, true);
    EXPECT_FALSE(r.scheduled);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(
        r.preemption->message, "pod group preemption: No preemption victims found for incoming preemptor");
    EXPECT_TRUE(r.preemption->victims.empty());
    EXPECT_FALSE(c.findBoundPod("default/high")->terminating);
}

// The root's dry run, with the low-priority pod removed, still finds no block for the tree: the
// status is that run's own message behind the plugin's lead, without drasim's "composite pod group
// <key>: " lead (upstream's status is the root's, whose condition carries no such lead).
TEST(GroupTree, ARootThatDoesNotFitEvenWithoutItsVictimsSaysWhatItsDryRunFound)
{
    Cluster c = blocksWithOnePodOnNode0("low", "1", 100);
    GroupTreeNode job = preemptingJobOfTwoRackGangs();
    const auto r = scheduler::scheduleGroupTree(c, job, true);
    EXPECT_FALSE(r.scheduled);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->message,
        "pod group preemption: 0/2 placements are feasible: no block domain holds minGroupCount (2) child "
        "groups: "
        "b0 1, b1 1 (in block=b0: minGroupCount (2) cannot be satisfied: 1 child groups scheduled, 0 "
        "remaining, "
        "1 unschedulable (pod group default/b: 0/2 placements are feasible: no rack domain holds minCount "
        "(3) "
        "pods: b0-r1 2, b0-r0 0))");
    EXPECT_TRUE(r.preemption->victims.empty());
    EXPECT_FALSE(c.findBoundPod("default/low")->terminating);
}

// A hierarchy nominated by its root's preemption whose later cycle fails with nothing to wait for:
// as for a PodGroup, every member that fitted in that cycle loses its nomination and a member that
// did not fit keeps its own (submitPodGroupAlgorithmResult for each PodGroup of the tree). A leaf
// that held its quorum in the failed tree counts as well: 1.37 keeps its members' results and only
// gives it the root's failure (completeCompositePodGroupAlgorithmResultMap).
TEST(GroupTree, AFailedLaterCycleTakesBackTheNominationsOfTheMembersItPlaced)
{
    Cluster c = threeNodesFullOfLowPods();
    // A job that needs both its children.
    const GroupTreeNode job = jobOfOneAndAPair(2);

    const auto first = scheduler::scheduleGroupTree(c, job, false);
    ASSERT_FALSE(first.scheduled);
    ASSERT_TRUE(first.preemption);
    ASSERT_EQ(first.preemption->victims.size(), 3u) << first.preemption->message;
    ASSERT_EQ(first.groups.size(), 3u);
    std::vector<std::string> nominated;
    for (size_t k : { 1u, 2u })
        for (const auto& m : first.groups[k].members) {
            ASSERT_TRUE(m.preemption);
            nominated.push_back(m.preemption->nominatedNode);
        }
    ASSERT_EQ(nominated.size(), 3u);
    EXPECT_EQ(first.nominationsCleared, 0); // the tree waits on its preemption
    for (int i = 0; i < 3; ++i)
        c.podFinished("default/low-" + std::to_string(i));
    // A pod above the tree takes pair-1's node (nominations hold room only for pods not above them).
    api::Pod high = priorityPod("high", "4", 2000);
    high.spec.nodeSelector["rack"] = "b0-r" + nominated[2].substr(5);
    ASSERT_TRUE(c.schedule(high).scheduled);

    // one-0 fits (its leaf holds its quorum), pair-0 fits, pair-1 nowhere: the pair's gang fails,
    // so does the root, and nothing runs below the tree to preempt.
    const auto later = scheduler::scheduleGroupTree(c, job, false);
    EXPECT_FALSE(later.scheduled);
    ASSERT_TRUE(later.preemption);
    EXPECT_EQ(later.preemption->message,
        "pod group preemption: No preemption victims found for incoming preemptor");
    ASSERT_EQ(later.groups.size(), 3u);
    EXPECT_EQ(later.groups[1].fitted, (std::vector<bool> { true }));
    EXPECT_EQ(later.groups[2].fitted, (std::vector<bool> { true, false }));
    EXPECT_EQ(later.nominationsCleared, 2);

    // The nodes of one-0 and pair-0 are free again for pods below the tree; pair-1 still holds its
    // node once the pod above it is gone.
    for (const std::string name : { "l0", "l1" }) {
        const auto r = c.schedule(priorityPod(name, "4", 500));
        ASSERT_TRUE(r.scheduled) << name << ": " << r.message;
        EXPECT_NE(r.nodeName, nominated[2]);
    }
    c.podFinished("default/high");
    EXPECT_FALSE(c.schedule(priorityPod("l2", "4", 500)).scheduled);
}

// The same when the root holds but a child does not: upstream hands each PodGroup of the tree to
// submitPodGroupAlgorithmResult whatever the root's outcome, so the member that fitted in the
// failed gang loses its nomination while its sibling group binds; the one that did not fit keeps
// its own.
TEST(GroupTree, AChildThatFailsUnderARootThatHoldsTakesBackItsFittedMembersNominations)
{
    Cluster c = threeNodesFullOfLowPods();
    // One child is enough for the job.
    const GroupTreeNode job = jobOfOneAndAPair(1);

    const auto first = scheduler::scheduleGroupTree(c, job, false);
    ASSERT_FALSE(first.scheduled);
    ASSERT_TRUE(first.preemption);
    ASSERT_EQ(first.preemption->victims.size(), 3u) << first.preemption->message;
    ASSERT_EQ(first.groups.size(), 3u);
    ASSERT_EQ(first.groups[2].members.size(), 2u);
    ASSERT_TRUE(first.groups[2].members[0].preemption && first.groups[2].members[1].preemption);
    const std::string pair0 = first.groups[2].members[0].preemption->nominatedNode;
    const std::string pair1 = first.groups[2].members[1].preemption->nominatedNode;
    for (int i = 0; i < 3; ++i)
        c.podFinished("default/low-" + std::to_string(i));
    api::Pod high = priorityPod("high", "4", 2000);
    high.spec.nodeSelector["rack"] = "b0-r" + pair1.substr(5);
    ASSERT_TRUE(c.schedule(high).scheduled);

    const auto later = scheduler::scheduleGroupTree(c, job, false);
    ASSERT_TRUE(later.scheduled) << later.message;
    EXPECT_EQ(later.placed, 1);
    EXPECT_FALSE(later.preemption);
    ASSERT_EQ(later.groups.size(), 3u);
    EXPECT_TRUE(later.groups[1].scheduled);
    EXPECT_FALSE(later.groups[2].scheduled);
    EXPECT_EQ(later.groups[2].fitted, (std::vector<bool> { true, false }));
    EXPECT_EQ(later.nominationsCleared, 1);

    // pair-0's node is free again for a pod below the tree; pair-1 still holds its node once the
    // pod above it is gone.
    const auto r = c.schedule(priorityPod("l0", "4", 500));
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.nodeName, pair0);
    c.podFinished("default/high");
    EXPECT_FALSE(c.schedule(priorityPod("l1", "4", 500)).scheduled);
}

// Without the gate TopologyAwareWorkloadScheduling the keys are dropped: the same tree fits.
// A root whose quorum holds through members bound before, with a pending member that fits
// nowhere: the cycle placed no pod, so it fails ("no pods were schedulable") and the root's
// PodGroupPostFilter runs, as it does for a PodGroup whose later cycle places nothing: the member
// is nominated where a pod below the tree ran.
TEST(GroupTree, ARootHeldByBoundMembersStillPreemptsForItsPendingOnes)
{
    api::ObjectSet o;
    o.nodes.push_back(node("node-0", {}, "4"));
    o.nodes.push_back(node("node-1", {}, "4"));
    o.pods.push_back(priorityPod("low", "4", 100, "node-1"));
    Cluster c(std::move(o));
    GroupTreeNode job = compositeGroup(
        "job", true, 1, "", { leafGroup("one", 1, false, 1, ""), leafGroup("two", 1, false, 1, "") });
    preemptingAtPriority1000(job);
    for (auto& leaf : job.children)
        for (auto& p : leaf.pending)
            p.spec.containers[0].resources.requests["cpu"] = q("4");

    const auto first = scheduler::scheduleGroupTree(c, job, false);
    ASSERT_TRUE(first.scheduled) << first.message;
    ASSERT_EQ(first.placed, 1);
    ASSERT_TRUE(first.groups[1].members[0].scheduled);
    EXPECT_FALSE(first.preemption) << "a cycle that binds does not preempt";

    job.children[0].boundMembers = { "default/one-0" };
    job.children[0].pending.clear();
    const auto later = scheduler::scheduleGroupTree(c, job, false);
    EXPECT_FALSE(later.scheduled);
    EXPECT_EQ(later.message, "composite pod group default/job: no pods were schedulable");
    ASSERT_TRUE(later.preemption);
    EXPECT_EQ(later.preemption->victims, (std::vector<std::string> { "default/low" }));
    ASSERT_TRUE(later.groups[2].members[0].preemption);
    EXPECT_EQ(later.groups[2].members[0].preemption->nominatedNode, "node-1");
}

TEST(GroupTree, KeysAreDroppedWithTheirGate)
{
    Cluster c(blockCluster({ 2, 2, 2, 2 }, 2, 1));
    const GroupTreeNode job = compositeGroup(
        "job", true, 2, "block", { leafGroup("a", 2, true, 2, "rack"), leafGroup("b", 3, true, 3, "rack") });
    const auto r = scheduler::scheduleGroupTree(c, job, false);
    EXPECT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.placed, 5);
}

// Law over random trees on random clusters (trees one after another on the same cluster).
TEST(GroupTreeLaws, BoundGroupsKeepToTheirDomainsAndNothingOverflows)
{
    int scheduledTrees = 0, refusedTrees = 0, fittedMembers = 0;
    for (uint64_t seed = 6'100'000; seed < 6'100'150; ++seed) {
        std::mt19937_64 rng(seed);
        std::vector<int> cpus;
        const int perRack = 1 + int(rng() % 3), racksPerBlock = 1 + int(rng() % 3);
        for (int n = 0; n < perRack * racksPerBlock * (1 + int(rng() % 3)); ++n)
            cpus.push_back(1 + int(rng() % 4));
        Cluster c(blockCluster(cpus, perRack * racksPerBlock, perRack));
        for (int t = 0; t < 4; ++t) {
            const GroupTreeNode tree = randomTree(rng, "t" + std::to_string(t), 1);
            const size_t before = c.boundPods().size();
            const auto r = scheduler::scheduleGroupTree(c, tree, true);
            const std::string at = "seed " + std::to_string(seed) + " tree " + std::to_string(t);
            const auto bound = nodeOfBound(c);
            if (!r.scheduled) {
                ++refusedTrees;
                EXPECT_EQ(c.boundPods().size(), before) << at << ": " << r.message;
            } else {
                ++scheduledTrees;
                EXPECT_EQ(c.boundPods().size(), before + size_t(r.placed)) << at;
                EXPECT_GT(r.placed, 0) << at;
            }
            checkTree(c, tree, bound, at);
            // What a cycle says fitted: members of groups left unscheduled, none of them bound;
            // nothing preempts here, so no nomination is there to take back.
            for (const auto& g : r.groups) {
                EXPECT_TRUE(g.fitted.empty() || g.fitted.size() == g.members.size()) << at << " " << g.key;
                for (size_t j = 0; j < g.fitted.size() && j < g.members.size(); ++j) {
                    EXPECT_FALSE(g.fitted[j] && (g.members[j].scheduled || (r.scheduled && g.scheduled)))
                        << at << " " << g.key;
                    fittedMembers += g.fitted[j] ? 1 : 0;
                }
            }
            EXPECT_EQ(r.nominationsCleared, 0) << at;
            std::map<std::string, int> perNode;
            for (const auto& entry : bound)
                ++perNode[entry.second];
            for (const auto& [nodeName, count] : perNode) {
                const int idx = std::stoi(nodeName.substr(5));
                EXPECT_LE(count, cpus[size_t(idx)]) << at << ": " << nodeName;
            }
        }
    }
    // Both outcomes occur often enough for the law to mean something.
    EXPECT_GT(scheduledTrees, 100);
    EXPECT_GT(refusedTrees, 50);
    EXPECT_GT(fittedMembers, 50);
}
