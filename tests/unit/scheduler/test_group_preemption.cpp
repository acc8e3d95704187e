// SPDX-License-Identifier: Apache-2.0
// Workload-aware preemption (KEP-5710): a PodGroup that cannot be placed evicts lower-priority
// units cluster-wide. The cases follow the KEP's algorithm (one dry run without every
// lower-priority unit, then reprieve most important first) and its disruptionMode rules; a law
// over random clusters checks what any answer must satisfy.
#include <random>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/pod_group.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;
using scheduler::PodGroupPolicy;

namespace {

api::Pod unitPod(const std::string& name, const std::string& cpu, int32_t priority,
    const std::string& nodeName = "", const std::string& group = "")
{
    api::Pod p = pod(name);
    p.spec.containers[0].resources.requests["cpu"] = q(cpu);
    p.spec.priority = priority;
    p.spec.nodeName = nodeName;
    if (!group.empty())
        p.spec.schedulingGroup = group;
    return p;
}

api::ObjectSet unitNodes(int count, const std::string& cpu = "4")
{
    api::ObjectSet o;
    for (int i = 0; i < count; ++i)
        o.nodes.push_back(node(numbered("n", i), {}, cpu));
    return o;
}

PodGroupPolicy wapGang(const std::string& name, int32_t minCount, int32_t priority)
{
    PodGroupPolicy g { "default/" + name, true, minCount, "" };
    g.workloadAwarePreemption = true;
    g.priority = priority;
    return g;
}

std::vector<api::Pod> wapMembers(const std::string& group, int n, const std::string& cpu, int32_t priority)
{
    std::vector<api::Pod> out;
    for (int i = 0; i < n; ++i)
        out.push_back(unitPod(group + "-" + std::to_string(i), cpu, priority, "", group));
    return out;
}

bool isTerminating(const Cluster& c, const std::string& key)
{
    const auto* b = c.findBoundPod(key);
    return b && b->terminating;
}

} // namespace

// KEP-5710 step 2: evicting every lower-priority unit frees one slot of the two the gang needs.
TEST(GroupPreemption, EvictsNothingWhenTheGroupWouldStillNotFit)
{
    auto o = unitNodes(2);
    o.pods.push_back(unitPod("a", "4", 100, "n0"));
    o.pods.push_back(unitPod("b", "4", 2000, "n1"));
    Cluster c(std::move(o));
    auto r = c.scheduleGroup(wapGang("g", 2, 1000), wapMembers("g", 2, "4", 1000), {}, false);
    EXPECT_FALSE(r.scheduled);
    ASSERT_TRUE(r.preemption);
    EXPECT_TRUE(r.preemption->victims.empty());
    EXPECT_EQ(r.preemption->message,
        "preemption: the pod group does not fit even with every lower-priority pod evicted");
    EXPECT_FALSE(isTerminating(c, "default/a"));
    for (const auto& m : r.members)
        EXPECT_FALSE(m.preemption);
}

// The reprieve keeps what the group does not need: c stands on a node the group cannot use.
TEST(GroupPreemption, ReprievesUnitsTheGroupDoesNotNeedAndNominatesItsMembers)
{
    auto o = unitNodes(3);
    o.nodes[0].meta.labels["pool"] = "x";
    o.nodes[1].meta.labels["pool"] = "x";
    o.pods.push_back(unitPod("a", "4", 100, "n0"));
    o.pods.push_back(unitPod("b", "4", 100, "n1"));
    o.pods.push_back(unitPod("c", "4", 100, "n2"));
    Cluster c(std::move(o));
    auto pods = wapMembers("g", 2, "4", 1000);
    for (auto& p : pods)
        p.spec.nodeSelector["pool"] = "x";
    auto r = c.scheduleGroup(wapGang("g", 2, 1000), pods, {}, false);
    EXPECT_FALSE(r.scheduled);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->victims, (std::vector<std::string> { "default/a", "default/b" }));
    EXPECT_EQ(r.preemption->message, "");
    ASSERT_EQ(r.members.size(), 2u);
    ASSERT_TRUE(r.members[0].preemption && r.members[1].preemption);
    EXPECT_EQ(r.members[0].preemption->nominatedNode, "n0");
    EXPECT_EQ(r.members[1].preemption->nominatedNode, "n1");
    EXPECT_TRUE(isTerminating(c, "default/a"));
    EXPECT_FALSE(isTerminating(c, "default/c"));

    // While the victims terminate the group waits and preempts nothing more.
    auto again = c.scheduleGroup(wapGang("g", 2, 1000), pods, {}, false);
    EXPECT_FALSE(again.scheduled);
    ASSERT_TRUE(again.preemption);
    EXPECT_EQ(again.preemption->message, "preemption: waiting for podgroup preemption to complete");
    EXPECT_FALSE(isTerminating(c, "default/c"));

    // Once they are gone the members bind where they were nominated.
    c.podFinished("default/a");
    c.podFinished("default/b");
    auto done = c.scheduleGroup(wapGang("g", 2, 1000), pods, {}, false);
    ASSERT_TRUE(done.scheduled);
    EXPECT_EQ(done.members[0].nodeName, "n0");
    EXPECT_EQ(done.members[1].nodeName, "n1");
}

// A group whose disruptionMode is all is one unit: its member on another node goes too.
TEST(GroupPreemption, AGroupWithDisruptionModeAllIsEvictedWhole)
{
    for (bool all : { false, true }) {
        auto o = unitNodes(2);
        o.pods.push_back(unitPod("l-0", "4", 100, "n0", "l"));
        o.pods.push_back(unitPod("l-1", "4", 100, "n1", "l"));
        Cluster c(std::move(o));
        PodGroupPolicy low = wapGang("l", 2, 100);
        low.disruptAll = all;
        c.registerPodGroup(low);
        auto r = c.scheduleGroup(wapGang("g", 1, 1000), wapMembers("g", 1, "4", 1000), {}, false);
        ASSERT_TRUE(r.preemption) << all;
        const std::vector<std::string> expected = all
            ? std::vector<std::string> { "default/l-0", "default/l-1" }
            : std::vector<std::string> { "default/l-0" };
        EXPECT_EQ(r.preemption->victims, expected) << all;
    }
}

TEST(GroupPreemption, NeverPreemptsWithPolicyNeverOrWithoutTheGate)
{
    for (bool never : { true, false }) {
        auto o = unitNodes(1);
        o.pods.push_back(unitPod("a", "4", 1, "n0"));
        Cluster c(std::move(o));
        PodGroupPolicy g = wapGang("g", 1, 1000);
        g.preemptionNever = never;
        g.workloadAwarePreemption = never; // the gate off in the second round
        auto r = c.scheduleGroup(g, wapMembers("g", 1, "4", 1000), {}, false);
        EXPECT_FALSE(r.scheduled);
        if (never) {
            ASSERT_TRUE(r.preemption);
            EXPECT_EQ(r.preemption->message, "preemption: not eligible due to preemptionPolicy=Never.");
        } else {
            EXPECT_FALSE(r.preemption);
        }
        EXPECT_FALSE(isTerminating(c, "default/a"));
    }
}

// Pass 1 gives back the units a PodDisruptionBudget protects, before more important ones: on one
// node with room for one of the two, the budget decides which stays.
TEST(GroupPreemption, ReprievesUnitsProtectedByABudgetFirst)
{
    for (bool budget : { false, true }) {
        auto o = unitNodes(1, "8");
        o.pods.push_back(unitPod("a", "4", 100, "n0"));
        o.pods.push_back(unitPod("b", "4", 150, "n0"));
        o.pods[0].meta.labels["app"] = "protected";
        if (budget) {
            api::PodDisruptionBudget pdb;
            pdb.meta.name = "keep-a";
            pdb.meta.namespace_ = "default";
            pdb.minAvailable = api::IntOrString::ofInt(1);
            pdb.selector = api::LabelSelector {};
            pdb.selector->matchLabels["app"] = "protected";
            o.podDisruptionBudgets.push_back(pdb);
        }
        Cluster c(std::move(o));
        auto r = c.scheduleGroup(wapGang("g", 1, 1000), wapMembers("g", 1, "4", 1000), {}, false);
        ASSERT_TRUE(r.preemption) << budget;
        EXPECT_EQ(r.preemption->victims, std::vector<std::string> { budget ? "default/b" : "default/a" })
            << budget;
        EXPECT_EQ(r.preemption->budgetViolations, 0) << budget;
    }
}

// Laws over random clusters: every victim is of lower priority than the group, the dry runs leave
// the cluster as they found it apart from the victims, and once the victims are gone the group
// schedules.
TEST(GroupPreemptionLaws, VictimsAreLowerAndMakeRoomOnRandomClusters)
{
    std::mt19937 rng(20261205);
    int preempted = 0;
    for (int round = 0; round < 200; ++round) {
        const int nodes = 2 + int(rng() % 5);
        auto o = unitNodes(nodes, "8");
        int serial = 0;
        for (int n = 0; n < nodes; ++n)
            for (int k = int(rng() % 4); k > 0; --k) {
                const std::string cpu = std::to_string(1 + rng() % 4);
                o.pods.push_back(
                    unitPod(numbered("p", serial++), cpu, int32_t(rng() % 300), numbered("n", n)));
            }
        Cluster c(std::move(o));
        const auto before = c.boundPods();
        const int32_t prio = int32_t(100 + rng() % 200);
        const int size = 1 + int(rng() % 3);
        const auto pods = wapMembers("g", size, std::to_string(2 + rng() % 6), prio);
        const auto group = wapGang("g", size, prio);
        auto r = c.scheduleGroup(group, pods, {}, false);
        if (r.scheduled || !r.preemption || r.preemption->victims.empty()) {
            for (const auto& b : c.boundPods())
                EXPECT_FALSE(b.terminating && !r.scheduled) << round;
            continue;
        }
        ++preempted;
        EXPECT_EQ(c.boundPods().size(), before.size()) << round;
        for (const auto& v : r.preemption->victims) {
            const auto* b = c.findBoundPod(v);
            ASSERT_TRUE(b) << round;
            EXPECT_LT(b->priority, prio) << round;
            EXPECT_TRUE(b->terminating) << round;
        }
        for (const auto& v : r.preemption->victims)
            c.podFinished(v);
        EXPECT_TRUE(c.scheduleGroup(group, pods, {}, false).scheduled) << round;
    }
    EXPECT_GT(preempted, 20);
}

// Topology-aware scheduling does not trigger preemption (kubernetes.io's TAS page, 1.36 and
// 1.37): a gang confined to one rack stays unschedulable; without the gate the key is dropped and
// the same gang preempts.
TEST(GroupPreemption, AGangConfinedToATopologyDomainNeverPreempts)
{
    auto o = unitNodes(2);
    for (auto& n : o.nodes)
        n.meta.labels["rack"] = "r0";
    o.pods.push_back(unitPod("a", "4", 100, "n0"));
    o.pods.push_back(unitPod("b", "4", 100, "n1"));
    PodGroupPolicy g = wapGang("g", 2, 1000);
    g.topologyKey = "rack";
    Cluster confined(o);
    auto r = confined.scheduleGroup(g, wapMembers("g", 2, "4", 1000), {}, true);
    EXPECT_FALSE(r.scheduled);
    EXPECT_FALSE(r.preemption);
    EXPECT_FALSE(isTerminating(confined, "default/a"));
    Cluster gateOff(std::move(o));
    auto off = gateOff.scheduleGroup(g, wapMembers("g", 2, "4", 1000), {}, false);
    ASSERT_TRUE(off.preemption);
    EXPECT_EQ(off.preemption->victims, (std::vector<std::string> { "default/a", "default/b" }));
}
