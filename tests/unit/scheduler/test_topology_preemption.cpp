// SPDX-License-Identifier: Apache-2.0
// Workload-aware preemption for a PodGroup under a topology constraint. Kubernetes 1.36 refuses it
// ("workload aware preemption is not supported for pod groups with scheduling constraints");
// 1.37 runs it (kubernetes/kubernetes#140683) with the algorithm unchanged: one dry run of the
// whole placement search with every lower-priority unit removed, the best-scored placement kept
// as a cycle would keep it (KEP-5710: "we will only assume the best placement"), then the reprieve
// gives back every unit that does not stand in the way of the members assumed there. Victims so
// are taken in the one domain the group is placed in (a disruptionMode all unit there goes whole,
// its members elsewhere included); which domain is the placement scorers' choice,
// not the one with the fewest victims (kubernetes/kubernetes#138757: placements are preferred by
// the pods they hold "regardless of how much disruptive" they are). The expectations were written
// before the code; a law over random racks and gangs checks what any answer must satisfy.
#include <algorithm>
#include <map>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/pod_group.h"
#include "tests/unit/allocator/fixtures.h"
#include "tests/unit/scheduler/priority_pod.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;
using scheduler::PodGroupPolicy;

namespace topology_preemption {

api::Pod slotPod(const std::string& name, int32_t priority, const std::string& nodeName = "",
    const std::string& group = "", const std::string& cpu = "4")
{
    return priorityPod(name, cpu, priority, nodeName, group);
}

/// Racks of nodes "n<i>" with 4 cpu each, labelled rack=r<k>: `perRack[k]` nodes in rack k.
api::ObjectSet racks(const std::vector<int>& perRack)
{
    api::ObjectSet o;
    int i = 0;
    for (size_t k = 0; k < perRack.size(); ++k)
        for (int j = 0; j < perRack[k]; ++j)
            o.nodes.push_back(node(numbered("n", i++), { { "rack", "r" + std::to_string(k) } }, "4"));
    return o;
}

PodGroupPolicy rackGang(const std::string& name, int32_t minCount, int32_t priority)
{
    PodGroupPolicy g { "default/" + name, true, minCount, "rack" };
    g.workloadAwarePreemption = true;
    g.priority = priority;
    return g;
}

std::vector<api::Pod> members(const std::string& group, int n, int32_t priority, const std::string& cpu = "4")
{
    std::vector<api::Pod> out;
    for (int i = 0; i < n; ++i)
        out.push_back(slotPod(group + "-" + std::to_string(i), priority, "", group, cpu));
    return out;
}

scheduler::SchedulerOptions atVersion(api::KubernetesVersion v)
{
    scheduler::SchedulerOptions o;
    o.kubernetesVersion = v;
    return o;
}

std::set<std::string> terminating(const Cluster& c)
{
    std::set<std::string> out;
    for (const auto& b : c.boundPods())
        if (b.terminating)
            out.insert(b.key);
    return out;
}

std::vector<std::string> nominated(const scheduler::GroupScheduleResult& r)
{
    std::vector<std::string> out;
    for (const auto& m : r.members)
        out.push_back(m.preemption ? m.preemption->nominatedNode : "-");
    return out;
}

/// Rack r0: n0 holds a pod above the gang, n1 a batch pod, n2 and n3 are free. Rack r1: four batch
/// pods. No rack holds a gang of three 4-cpu pods as it stands.
api::ObjectSet busyRacks()
{
    api::ObjectSet o = racks({ 4, 4 });
    o.pods.push_back(slotPod("x", 2000, "n0"));
    o.pods.push_back(slotPod("b1", 100, "n1"));
    for (int i = 2; i <= 5; ++i)
        o.pods.push_back(slotPod("b" + std::to_string(i), 100, numbered("n", i + 2)));
    return o;
}

// With every batch pod removed both racks hold the gang; r0 scores higher (the same pods, packed
// tighter beside x), so the gang is assumed there and only b1 stands in its way. r1's four pods
// are reprieved. Once b1 is gone the gang binds where it was nominated.
TEST(TopologyPreemption, ARackConstrainedGangEvictsInTheRackItIsPlacedInOnly)
{
    Cluster c(busyRacks());
    const auto pods = members("t", 3, 1000);
    auto r = c.scheduleGroup(rackGang("t", 3, 1000), pods, {}, true);
    EXPECT_FALSE(r.scheduled);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(
        r.preemption->message, "pod group preemption: found a placement for podgroup, preempting 1 victims");
    EXPECT_EQ(r.preemption->victims, (std::vector<std::string> { "default/b1" }));
    EXPECT_EQ(terminating(c), (std::set<std::string> { "default/b1" }));
    EXPECT_EQ(nominated(r), (std::vector<std::string> { "n1", "n2", "n3" }));

    c.podFinished("default/b1");
    auto done = c.scheduleGroup(rackGang("t", 3, 1000), pods, {}, true);
    ASSERT_TRUE(done.scheduled) << done.message;
    EXPECT_EQ(done.domain, "rack=r0");
    EXPECT_EQ(done.members[0].nodeName, "n1");
    EXPECT_EQ(done.members[2].nodeName, "n3");
}

// Upstream keeps the best-scored placement, not the least disruptive one: r0 (two nodes, both
// held by batch pods) packs a gang of two fully, r1 (three nodes, one free) would need one
// eviction but packs two thirds. Both batch pods of r0 go; r1's stays.
TEST(TopologyPreemption, TheBestScoredRackIsChosenNotTheOneWithFewestVictims)
{
    api::ObjectSet o = racks({ 2, 3 });
    o.pods.push_back(slotPod("a0", 100, "n0"));
    o.pods.push_back(slotPod("a1", 100, "n1"));
    o.pods.push_back(slotPod("c2", 100, "n2"));
    o.pods.push_back(slotPod("c3", 100, "n3"));
    Cluster c(std::move(o));
    auto r = c.scheduleGroup(rackGang("t", 2, 1000), members("t", 2, 1000), {}, true);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->victims, (std::vector<std::string> { "default/a0", "default/a1" }));
    EXPECT_EQ(nominated(r), (std::vector<std::string> { "n0", "n1" }));
}

// After a preemption the members' nominated nodes are tried first only inside a placement that
// holds them (GetNodeInPlacement, kubernetes/kubernetes#136944). Here the victims are gone, but a
// pod above the gang took n1 meanwhile and r1 emptied: r0 holds one member, r1 both, and both
// members land in r1, not t-0 on its nominated n0 beside t-1 in r1. (1.37 ranks placements by
// score alone; preferring the nominated placement, #139472, came after it.)
TEST(TopologyPreemption, ANominatedNodeOutsideThePlacementIsNotTriedFirst)
{
    api::ObjectSet o = racks({ 2, 3 });
    o.nodes[1].meta.labels["only"] = "x";
    o.pods.push_back(slotPod("a0", 100, "n0"));
    o.pods.push_back(slotPod("a1", 100, "n1"));
    o.pods.push_back(slotPod("c2", 100, "n2"));
    o.pods.push_back(slotPod("c3", 100, "n3"));
    Cluster c(std::move(o));
    const auto pods = members("t", 2, 1000);
    auto r = c.scheduleGroup(rackGang("t", 2, 1000), pods, {}, true);
    ASSERT_EQ(nominated(r), (std::vector<std::string> { "n0", "n1" }));
    for (const char* gone : { "default/a0", "default/a1", "default/c2", "default/c3" })
        c.podFinished(gone);
    api::Pod x = slotPod("x", 2000);
    x.spec.nodeSelector["only"] = "x";
    ASSERT_EQ(c.schedule(x).nodeName, "n1");
    auto done = c.scheduleGroup(rackGang("t", 2, 1000), pods, {}, true);
    ASSERT_TRUE(done.scheduled) << done.message;
    EXPECT_EQ(done.domain, "rack=r1");
    EXPECT_EQ(done.members[0].nodeName, "n2");
    EXPECT_EQ(done.members[1].nodeName, "n3");
}

// With every lower-priority pod gone r0 holds three and r1 four: no rack holds five, although the
// cluster would hold seven. Nothing is evicted, nobody is nominated.
TEST(TopologyPreemption, NothingIsEvictedWhenNoRackHoldsTheGangEvenAfterEviction)
{
    Cluster c(busyRacks());
    auto r = c.scheduleGroup(rackGang("t", 5, 1000), members("t", 5, 1000), {}, true);
    EXPECT_FALSE(r.scheduled);
    ASSERT_TRUE(r.preemption);
    EXPECT_TRUE(r.preemption->victims.empty());
    EXPECT_EQ(r.preemption->message,
        "pod group preemption: 0/2 placements are feasible: no rack domain holds minCount (5) pods: r1 4, r0 "
        "3");
    EXPECT_TRUE(terminating(c).empty());
    EXPECT_EQ(nominated(r), std::vector<std::string>(5, "-"));
    EXPECT_NE(r.message.find("0/2 placements are feasible"), std::string::npos) << r.message;
}

// A member bound already pins the placement (only placements holding its node are generated, as
// #140683's review asked for a group scheduled before): the preemption frees room in its rack,
// although rack r0 is free.
TEST(TopologyPreemption, AGroupWithABoundMemberPreemptsInThatMembersRack)
{
    api::ObjectSet o = racks({ 2, 2 });
    o.pods.push_back(slotPod("t-0", 1000, "n2", "t"));
    o.pods.push_back(slotPod("b3", 100, "n3"));
    Cluster c(std::move(o));
    auto r
        = c.scheduleGroup(rackGang("t", 2, 1000), { slotPod("t-1", 1000, "", "t") }, { "default/t-0" }, true);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->victims, (std::vector<std::string> { "default/b3" }));
    EXPECT_EQ(nominated(r), (std::vector<std::string> { "n3" }));
}

// 1.36 runs no workload-aware preemption for a PodGroup with scheduling constraints and says so
// in the group's status (runWorkloadAwarePreemption's refusal): the gang stays unschedulable and
// nothing is touched. Without the topology gate the key is dropped and
// the same gang preempts as any other, cluster-wide.
TEST(TopologyPreemption, Kubernetes136NeverPreemptsForAConfinedGang)
{
    Cluster v136(busyRacks(), atVersion(api::KubernetesVersion::V1_36));
    auto r = v136.scheduleGroup(rackGang("t", 3, 1000), members("t", 3, 1000), {}, true);
    EXPECT_FALSE(r.scheduled);
    ASSERT_TRUE(r.preemption);
    EXPECT_TRUE(r.preemption->victims.empty());
    EXPECT_EQ(r.preemption->message,
        "workload aware preemption is not supported for pod groups with scheduling constraints");
    EXPECT_TRUE(terminating(v136).empty());
    EXPECT_EQ(nominated(r), std::vector<std::string>(3, "-"));

    Cluster gateOff(busyRacks(), atVersion(api::KubernetesVersion::V1_36));
    auto off = gateOff.scheduleGroup(rackGang("t", 3, 1000), members("t", 3, 1000), {}, false);
    ASSERT_TRUE(off.preemption);
    EXPECT_EQ(off.preemption->victims, (std::vector<std::string> { "default/b1" }));
}

/// What a random round put on the cluster: every pod's cpu (millicores) and rack of every node.
struct RackedCluster
{
    api::ObjectSet objects;
    std::map<std::string, int64_t> milliCpu; ///< pod key -> request
    std::map<std::string, std::string> rackOf; ///< node -> rack
    int64_t nodeMilliCpu = 0;
};

RackedCluster randomRacks(std::mt19937& rng)
{
    RackedCluster out;
    std::vector<int> perRack;
    for (int k = 1 + int(rng() % 3); k > 0; --k)
        perRack.push_back(1 + int(rng() % 3));
    out.objects = racks(perRack);
    out.nodeMilliCpu = 4000;
    int serial = 0;
    for (const auto& n : out.objects.nodes) {
        out.rackOf[n.meta.name] = n.meta.labels.at("rack");
        int64_t left = out.nodeMilliCpu;
        for (int k = int(rng() % 3); k > 0; --k) {
            const int64_t cpu = 1 + int64_t(rng() % 3);
            if (cpu * 1000 > left)
                break;
            left -= cpu * 1000;
            const std::string name = numbered("p", serial++);
            out.objects.pods.push_back(
                slotPod(name, int32_t(rng() % 300), n.meta.name, "", std::to_string(cpu)));
            out.milliCpu["default/" + name] = cpu * 1000;
        }
    }
    return out;
}

/// No node holds more cpu than it has, counting pods still being deleted.
void expectCapacity(const Cluster& c, const RackedCluster& rc, int round)
{
    std::map<std::string, int64_t> used;
    for (const auto& b : c.boundPods())
        used[b.nodeName] += rc.milliCpu.at(b.key);
    for (const auto& [node, cpu] : used)
        EXPECT_LE(cpu, rc.nodeMilliCpu) << round << " " << node;
}

// Laws over random racks, pods and rack-constrained gangs, at 1.37: every victim is of lower
// priority than the gang, every victim and every nominated node lies in one rack, nothing else is
// touched; once the victims are gone the gang binds, all of it in one rack; no node ever holds
// more than it has. At 1.36 the same gangs never evict anything.
TEST(TopologyPreemptionLaws, VictimsAndMembersShareOneRackOnRandomClusters)
{
    std::mt19937 rng(20261207);
    int preempted = 0;
    for (int round = 0; round < 300; ++round) {
        RackedCluster rc = randomRacks(rng);
        const int32_t prio = int32_t(50 + rng() % 250);
        const int size = 1 + int(rng() % 4);
        const std::string cpu = std::to_string(1 + rng() % 4);
        const auto pods = members("g", size, prio, cpu);
        for (const auto& p : pods)
            rc.milliCpu["default/" + p.meta.name] = std::stoll(cpu) * 1000;
        const auto group = rackGang("g", size, prio);

        Cluster v136(rc.objects, atVersion(api::KubernetesVersion::V1_36));
        auto old = v136.scheduleGroup(group, pods, {}, true);
        EXPECT_TRUE(terminating(v136).empty()) << round;
        EXPECT_TRUE(!old.preemption || old.preemption->victims.empty()) << round;

        Cluster c(rc.objects);
        auto r = c.scheduleGroup(group, pods, {}, true);
        expectCapacity(c, rc, round);
        if (r.scheduled || !r.preemption || r.preemption->victims.empty()) {
            EXPECT_TRUE(terminating(c).empty()) << round;
            continue;
        }
        ++preempted;
        std::set<std::string> rackSet;
        for (const auto& v : r.preemption->victims) {
            const auto* b = c.findBoundPod(v);
            ASSERT_TRUE(b) << round;
            EXPECT_LT(b->priority, prio) << round << " " << v;
            rackSet.insert(rc.rackOf.at(b->nodeName));
        }
        for (const auto& node : nominated(r))
            if (node != "-")
                rackSet.insert(rc.rackOf.at(node));
        EXPECT_EQ(rackSet.size(), 1u) << round;
        const std::set<std::string> victims(r.preemption->victims.begin(), r.preemption->victims.end());
        EXPECT_EQ(terminating(c), victims) << round;

        for (const auto& v : r.preemption->victims)
            c.podFinished(v);
        auto done = c.scheduleGroup(group, pods, {}, true);
        ASSERT_TRUE(done.scheduled) << round << " " << done.message;
        std::set<std::string> boundRacks;
        for (const auto& m : done.members)
            if (m.scheduled)
                boundRacks.insert(rc.rackOf.at(m.nodeName));
        EXPECT_EQ(boundRacks, rackSet) << round;
        expectCapacity(c, rc, round);
    }
    EXPECT_GT(preempted, 30);
}

} // namespace topology_preemption
