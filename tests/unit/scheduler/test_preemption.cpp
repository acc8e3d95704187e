// SPDX-License-Identifier: Apache-2.0
// DefaultPreemption (the PostFilter of a failed cycle): which node is nominated, which pods are
// victims, what a DRA pod can and cannot preempt, and laws over random clusters. Expectations
// follow upstream's default_preemption.go / preemption.go (cited in core/scheduler/preemption.h).
#include <random>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/pod_group.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;

namespace {

api::Pod cpuPod(
    const std::string& name, const std::string& cpu, int32_t priority, const std::string& nodeName = "")
{
    api::Pod p = pod(name);
    p.spec.containers[0].resources.requests["cpu"] = q(cpu);
    p.spec.priority = priority;
    p.spec.nodeName = nodeName;
    return p;
}

api::ObjectSet cpuNodes(int count, const std::string& cpu = "4")
{
    api::ObjectSet o;
    for (int i = 0; i < count; ++i)
        o.nodes.push_back(node(numbered("n", i), {}, cpu));
    return o;
}

} // namespace

TEST(Preemption, NominatesTheNodeWhoseMostImportantVictimHasTheLowestPriority)
{
    auto o = cpuNodes(2);
    o.pods.push_back(cpuPod("a", "3", 10, "n0"));
    o.pods.push_back(cpuPod("b", "3", 5, "n1"));
    Cluster c(std::move(o));
    auto r = c.schedule(cpuPod("high", "2", 100));
    ASSERT_FALSE(r.scheduled);
    EXPECT_EQ(r.message, "0/2 nodes are available: 2 Insufficient cpu.");
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "n1");
    EXPECT_EQ(r.preemption->victims, std::vector<std::string> { "default/b" });
    EXPECT_EQ(r.preemption->message, "");
}

TEST(Preemption, ReprievesTheMostImportantPodsThatStillLeaveRoom)
{
    auto o = cpuNodes(1);
    o.pods.push_back(cpuPod("a", "2", 1, "n0"));
    o.pods.push_back(cpuPod("b", "1", 2, "n0"));
    o.pods.push_back(cpuPod("c", "1", 3, "n0"));
    Cluster c(std::move(o));
    auto r = c.schedule(cpuPod("high", "2", 100));
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "n0");
    // c then b go back onto the node and the preemptor still fits; a does not.
    EXPECT_EQ(r.preemption->victims, std::vector<std::string> { "default/a" });
}

TEST(Preemption, FewerVictimsWinWhenPrioritiesTie)
{
    auto o = cpuNodes(2);
    o.pods.push_back(cpuPod("a1", "2", 1, "n0"));
    o.pods.push_back(cpuPod("a2", "2", 1, "n0"));
    o.pods.push_back(cpuPod("b", "4", 1, "n1"));
    Cluster c(std::move(o));
    auto r = c.schedule(cpuPod("high", "4", 100));
    ASSERT_TRUE(r.preemption);
    // Same highest victim priority; n0's sum of shifted priorities is larger (two victims).
    EXPECT_EQ(r.preemption->nominatedNode, "n1");
    EXPECT_EQ(r.preemption->victims, std::vector<std::string> { "default/b" });
}

TEST(Preemption, PodsOfEqualOrHigherPriorityAreNeverVictims)
{
    auto o = cpuNodes(1);
    o.pods.push_back(cpuPod("peer", "4", 100, "n0"));
    Cluster c(std::move(o));
    auto r = c.schedule(cpuPod("high", "2", 100));
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "");
    EXPECT_EQ(r.preemption->message,
        "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.");
}

TEST(Preemption, NodesRejectedByOtherPluginsAreNotHelpful)
{
    auto o = cpuNodes(2);
    o.nodes[1].unschedulable = true;
    o.pods.push_back(cpuPod("low", "4", 0, "n0"));
    Cluster c(std::move(o));
    auto r = c.schedule(cpuPod("big", "8", 100));
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "");
    // n0 still lacks cpu with every lower-priority pod gone: its status is the filter's.
    EXPECT_EQ(r.preemption->message,
        "preemption: 0/2 nodes are available: 1 Insufficient cpu, 1 Preemption is not helpful for "
        "scheduling.");
}

TEST(Preemption, DevicePluginGpusArePreemptedButDraDevicesAreNot)
{
    // The same single-GPU node, once with the GPU as an extended resource and once as a DRA
    // device: Kubernetes up to 1.37 evicts for the first and cannot for the second, because
    // DynamicResources does not release a victim's claims in the dry run and its Filter rejects
    // with UnschedulableAndUnresolvable.
    api::ObjectSet plugin = cpuNodes(1);
    plugin.nodes[0].allocatable["nvidia.com/gpu"] = q("1");
    api::Pod low = cpuPod("low", "1", 0, "n0");
    low.spec.containers[0].resources.requests["nvidia.com/gpu"] = q("1");
    plugin.pods.push_back(low);
    api::Pod high = cpuPod("high", "1", 1000);
    high.spec.containers[0].resources.requests["nvidia.com/gpu"] = q("1");
    Cluster withPlugin(std::move(plugin));
    auto r1 = withPlugin.schedule(high);
    ASSERT_TRUE(r1.preemption);
    EXPECT_EQ(r1.preemption->nominatedNode, "n0");

    api::ObjectSet dra = cpuNodes(1);
    dra.resourceSlices.push_back(slice("n0-gpus", drasim::testing::kDrv, "n0", "n0", { device("gpu-0") }));
    addOneGpuClassAndTemplate(dra);
    Cluster withDra(std::move(dra));
    api::Pod lowDra = pod("low", {}, { { "gpu", "one-gpu" } });
    ASSERT_TRUE(withDra.schedule(lowDra).scheduled);
    api::Pod highDra = pod("high", {}, { { "gpu", "one-gpu" } });
    highDra.spec.priority = 1000;
    auto r2 = withDra.schedule(highDra);
    ASSERT_FALSE(r2.scheduled);
    ASSERT_TRUE(r2.preemption);
    EXPECT_EQ(r2.preemption->nominatedNode, "");
    EXPECT_EQ(r2.preemption->message,
        "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.");
}

TEST(Preemption, TheDraWhatIfFreesDevicesAsKep5690Proposes)
{
    // Not upstream: with the what-if on, the node that cannot allocate is a candidate and the dry
    // run releases the victim's claim, so the important pod preempts and then gets the device.
    api::ObjectSet dra = cpuNodes(1);
    dra.resourceSlices.push_back(slice("n0-gpus", drasim::testing::kDrv, "n0", "n0", { device("gpu-0") }));
    addOneGpuClassAndTemplate(dra);
    scheduler::SchedulerOptions options;
    options.whatIfDraPreemption = true;
    Cluster c(std::move(dra), options);
    api::Pod low = pod("low", {}, { { "gpu", "one-gpu" } });
    api::Pod other = pod("other", {}, {});
    ASSERT_TRUE(c.schedule(low).scheduled);
    ASSERT_TRUE(c.schedule(other).scheduled); // no claim: never a useful victim
    api::Pod high = pod("high", {}, { { "gpu", "one-gpu" } });
    high.spec.priority = 1000;
    auto r = c.schedule(high);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "n0");
    EXPECT_EQ(r.preemption->victims, std::vector<std::string> { "default/low" });
    // The dry runs left the claim allocated and the pods bound.
    EXPECT_TRUE(c.findClaim("default/low-gpu")->allocation.has_value());
    EXPECT_NE(c.findBoundPod("default/other"), nullptr);
    ASSERT_TRUE(c.podFinished("default/low"));
    auto placed = c.schedule(high);
    EXPECT_TRUE(placed.scheduled) << placed.message;
}

TEST(Preemption, TerminatingVictimsKeepTheirResourcesUntilTheyFinish)
{
    auto o = cpuNodes(1);
    o.pods.push_back(cpuPod("low", "4", 0, "n0"));
    Cluster c(std::move(o));
    auto r = c.schedule(cpuPod("high", "4", 100));
    ASSERT_TRUE(r.preemption);
    ASSERT_EQ(r.preemption->victims, std::vector<std::string> { "default/low" });
    ASSERT_TRUE(c.markTerminating("default/low"));
    EXPECT_TRUE(c.findBoundPod("default/low")->terminating);
    EXPECT_FALSE(c.schedule(cpuPod("high", "4", 100)).scheduled);
    ASSERT_TRUE(c.podFinished("default/low"));
    auto bound = c.schedule(cpuPod("high", "4", 100));
    EXPECT_TRUE(bound.scheduled);
    EXPECT_EQ(bound.nodeName, "n0");
    EXPECT_FALSE(c.markTerminating("default/nobody"));
}

TEST(Preemption, TheNominatedPodsRoomIsKeptFromLessImportantPods)
{
    auto o = cpuNodes(1);
    o.pods.push_back(cpuPod("low", "4", 0, "n0"));
    Cluster c(std::move(o));
    auto r = c.schedule(cpuPod("high", "4", 100));
    ASSERT_TRUE(r.preemption);
    ASSERT_EQ(r.preemption->nominatedNode, "n0");
    ASSERT_TRUE(c.podFinished("default/low"));
    // A pod of lower (or equal) priority counts the nominated pod on its node.
    auto mid = c.schedule(cpuPod("mid", "2", 50));
    EXPECT_FALSE(mid.scheduled);
    EXPECT_EQ(mid.message, "0/1 nodes are available: 1 Insufficient cpu.");
    // A more important one does not.
    auto top = c.schedule(cpuPod("top", "2", 200));
    EXPECT_TRUE(top.scheduled) << top.message;
    // The nominated pod then tries its node first: only 2 cpus are left, so it fails and, with
    // top's priority above its own, there is nobody to preempt.
    auto high = c.schedule(cpuPod("high", "4", 100));
    EXPECT_FALSE(high.scheduled);
}

TEST(Preemption, ASecondPreemptorDoesNotTakeTheFirstOnesVictims)
{
    auto o = cpuNodes(2);
    o.pods.push_back(cpuPod("low0", "4", 0, "n0"));
    o.pods.push_back(cpuPod("low1", "4", 0, "n1"));
    Cluster c(std::move(o));
    auto first = c.schedule(cpuPod("high1", "4", 100));
    auto second = c.schedule(cpuPod("high2", "4", 100));
    ASSERT_TRUE(first.preemption && second.preemption);
    ASSERT_FALSE(first.preemption->nominatedNode.empty());
    ASSERT_FALSE(second.preemption->nominatedNode.empty());
    EXPECT_NE(first.preemption->nominatedNode, second.preemption->nominatedNode);
    ASSERT_EQ(first.preemption->victims.size(), 1u);
    ASSERT_EQ(second.preemption->victims.size(), 1u);
    EXPECT_NE(first.preemption->victims[0], second.preemption->victims[0]);
}

TEST(Preemption, APodThatSaysNeverDoesNotPreempt)
{
    auto o = cpuNodes(1);
    o.pods.push_back(cpuPod("low", "4", 0, "n0"));
    Cluster c(std::move(o));
    api::Pod polite = cpuPod("polite", "4", 100);
    polite.spec.preemptionPolicy = api::PreemptionPolicy::Never;
    auto r = c.schedule(polite);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "");
    EXPECT_EQ(r.preemption->message, "preemption: not eligible due to preemptionPolicy=Never.");
    EXPECT_FALSE(c.findBoundPod("default/low")->terminating);
}

TEST(Preemption, OfTwoEqualVictimsTheOneThatStartedLaterGoes)
{
    // One node, two pods of the same priority: only one must go, and the pod that has run longer
    // is the more important one (util.MoreImportantPod), so it is reprieved first.
    auto o = cpuNodes(1);
    api::Pod early = cpuPod("early", "2", 0, "n0");
    early.startTime = api::PodStartTime { "2026-12-01T00:00:00Z", 1'764'547'200 };
    api::Pod late = cpuPod("late", "2", 0, "n0");
    late.startTime = api::PodStartTime { "2026-12-02T00:00:00Z", 1'764'633'600 };
    o.pods.push_back(late);
    o.pods.push_back(early);
    Cluster c(std::move(o));
    auto r = c.schedule(cpuPod("high", "2", 100));
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->victims, std::vector<std::string> { "default/late" });
}

namespace {

api::PodDisruptionBudget keepOne(const std::string& app)
{
    api::PodDisruptionBudget b;
    b.meta.name = app + "-budget";
    b.meta.namespace_ = "default";
    b.minAvailable = api::IntOrString::ofInt(1);
    b.selector = api::LabelSelector {};
    b.selector->matchLabels["app"] = app;
    return b;
}

} // namespace

TEST(Preemption, VictimsThatABudgetProtectsAreAvoidedFirst)
{
    // n0's pod has the lower priority, but a PodDisruptionBudget (minAvailable 1 of 1) allows it
    // no disruption: the node without violations wins (pickOneNodeForPreemption's first rule).
    auto o = cpuNodes(2);
    api::Pod guarded = cpuPod("guarded", "4", 1, "n0");
    guarded.meta.labels["app"] = "db";
    o.pods.push_back(guarded);
    o.pods.push_back(cpuPod("plain", "4", 50, "n1"));
    o.podDisruptionBudgets.push_back(keepOne("db"));
    Cluster c(std::move(o));
    auto r = c.schedule(cpuPod("high", "4", 100));
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "n1");
    EXPECT_EQ(r.preemption->budgetViolations, 0);
}

TEST(Preemption, ABudgetIsViolatedWhenNothingElseHelps)
{
    auto o = cpuNodes(1);
    api::Pod guarded = cpuPod("guarded", "4", 1, "n0");
    guarded.meta.labels["app"] = "db";
    o.pods.push_back(guarded);
    o.podDisruptionBudgets.push_back(keepOne("db"));
    Cluster c(std::move(o));
    auto r = c.schedule(cpuPod("high", "4", 100));
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "n0");
    EXPECT_EQ(r.preemption->budgetViolations, 1);
}

TEST(Preemption, MarkingTerminatingIsUndoneByARollback)
{
    auto o = cpuNodes(1);
    o.pods.push_back(cpuPod("low", "4", 0, "n0"));
    Cluster c(std::move(o));
    c.beginTransaction();
    c.markTerminating("default/low");
    c.rollbackTransaction();
    EXPECT_FALSE(c.findBoundPod("default/low")->terminating);
}

TEST(Preemption, MembersOfAGroupCycleDoNotPreemptOneByOne)
{
    // Upstream's PostFilter returns early for pods of a PodGroup: workload-aware preemption
    // acts for the group as a whole.
    auto o = cpuNodes(1);
    o.pods.push_back(cpuPod("low", "4", 0, "n0"));
    Cluster c(std::move(o));
    std::vector<api::Pod> members { cpuPod("m0", "2", 100), cpuPod("m1", "2", 100) };
    auto r = c.scheduleGroup(scheduler::PodGroupPolicy { "default/g", true, 2, "" }, members, {}, false);
    EXPECT_FALSE(r.scheduled);
    for (const auto& m : r.members)
        EXPECT_FALSE(m.preemption);
    // Outside a group cycle the same pod does preempt.
    auto single = c.schedule(cpuPod("m0", "2", 100));
    ASSERT_TRUE(single.preemption);
    EXPECT_EQ(single.preemption->nominatedNode, "n0");
}

// Laws over random clusters of cpu pods: every victim has a lower priority than the preemptor;
// the preemptor fits on the nominated node once the victims are gone; the dry runs leave the
// cluster as they found it (the same attempt twice gives the same answer); and each victim is
// needed (with any one of them kept, the preemptor would not fit there).
TEST(Preemption, LawsOverRandomClusters)
{
    std::mt19937_64 rng(20261204);
    int nominated = 0;
    for (int round = 0; round < 300; ++round) {
        const int nodes = 1 + int(rng() % 6);
        auto o = cpuNodes(nodes, "8");
        int k = 0;
        for (int n = 0; n < nodes; ++n) {
            int used = 0;
            while (used < 8) {
                const int cpu = 1 + int(rng() % 4);
                if (used + cpu > 8)
                    break;
                used += cpu;
                o.pods.push_back(cpuPod(
                    numbered("p", k++), std::to_string(cpu), int32_t(rng() % 5) * 10, numbered("n", n)));
            }
        }
        Cluster c(o);
        const int32_t prio = int32_t(rng() % 5) * 10 + 5;
        const api::Pod preemptor = cpuPod("preemptor", std::to_string(2 + rng() % 6), prio);
        auto r = c.schedule(preemptor);
        if (r.scheduled)
            continue;
        ASSERT_TRUE(r.preemption) << r.message;
        auto again = c.schedule(preemptor);
        ASSERT_TRUE(again.preemption);
        EXPECT_EQ(again.preemption->nominatedNode, r.preemption->nominatedNode);
        if (r.preemption->nominatedNode.empty())
            continue;
        // Nominated, with its victims terminating: it waits instead of preempting again.
        EXPECT_TRUE(again.preemption->victims.empty());
        EXPECT_EQ(again.preemption->message,
            "preemption: not eligible due to a terminating pod on the nominated node.");
        ++nominated;
        for (const auto& v : r.preemption->victims) {
            const auto* b = c.findBoundPod(v);
            ASSERT_NE(b, nullptr) << v;
            EXPECT_LT(b->priority, prio) << v;
            EXPECT_EQ(b->nodeName, r.preemption->nominatedNode) << v;
        }
        for (size_t keep = 0; keep < r.preemption->victims.size(); ++keep) {
            c.beginTransaction();
            for (size_t i = 0; i < r.preemption->victims.size(); ++i)
                if (i != keep)
                    c.podFinished(r.preemption->victims[i]);
            EXPECT_FALSE(c.schedule(preemptor).scheduled)
                << "victim " << r.preemption->victims[keep] << " was not needed";
            c.rollbackTransaction();
        }
        for (const auto& v : r.preemption->victims)
            c.podFinished(v);
        auto placed = c.schedule(preemptor);
        ASSERT_TRUE(placed.scheduled) << placed.message;
        EXPECT_EQ(placed.nodeName, r.preemption->nominatedNode);
    }
    EXPECT_GT(nominated, 50);
}
