// SPDX-License-Identifier: Apache-2.0
// The feasible-node search limit: kube-scheduler stops filtering once it has found
// numFeasibleNodesToFind feasible nodes, walking its node tree (zones in turn) from where the
// previous cycle stopped, and scores only those (schedule_one.go, backend/cache/node_tree.go).
// Expectations come from upstream's rules and its TestNumFeasibleNodesToFind cases.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <random>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/node_tree.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;

namespace feasible_search_test {

std::string padded(const std::string& prefix, int i)
{
    char digits[8];
    std::snprintf(digits, sizeof digits, "%03d", i);
    return prefix + digits;
}

api::Pod smallPod(const std::string& name, const std::string& nodeName = "")
{
    api::Pod p = pod(name);
    p.spec.containers[0].resources.requests["cpu"] = q("100m");
    p.spec.nodeName = nodeName;
    return p;
}

/// `count` nodes n000, n001, ... with 8 cpu; the first `busy` of them run a 4-cpu pod.
api::ObjectSet nodesWithBusyPrefix(int count, int busy, const std::function<std::string(int)>& zoneOf = {})
{
    api::ObjectSet o;
    for (int i = 0; i < count; ++i) {
        std::map<std::string, std::string> labels;
        if (zoneOf)
            labels["topology.kubernetes.io/zone"] = zoneOf(i);
        o.nodes.push_back(node(padded("n", i), labels));
    }
    for (int i = 0; i < busy; ++i) {
        api::Pod p = smallPod(padded("busy", i), padded("n", i));
        p.spec.containers[0].resources.requests["cpu"] = q("4");
        o.pods.push_back(p);
    }
    return o;
}

Cluster clusterOf(api::ObjectSet objects, int32_t percentage = 0)
{
    scheduler::SchedulerOptions options;
    options.percentageOfNodesToScore = percentage;
    return Cluster(std::move(objects), options);
}

} // namespace feasible_search_test

using namespace feasible_search_test;

TEST(FeasibleSearch, NumFeasibleNodesToFindFollowsUpstreamsCases)
{
    using scheduler::numFeasibleNodesToFind;
    // Up to 99 nodes: all of them, whatever the percentage.
    EXPECT_EQ(numFeasibleNodesToFind(0, 10), 10u);
    EXPECT_EQ(numFeasibleNodesToFind(40, 10), 10u);
    EXPECT_EQ(numFeasibleNodesToFind(0, 99), 99u);
    // The adaptive share: 50 % minus 1 % per 125 nodes, at least 5 %, never below 100 nodes.
    EXPECT_EQ(numFeasibleNodesToFind(0, 100), 100u);
    EXPECT_EQ(numFeasibleNodesToFind(0, 150), 100u);
    EXPECT_EQ(numFeasibleNodesToFind(0, 500), 230u);
    EXPECT_EQ(numFeasibleNodesToFind(0, 1000), 420u);
    EXPECT_EQ(numFeasibleNodesToFind(0, 1213), 497u);
    EXPECT_EQ(numFeasibleNodesToFind(0, 5000), 500u);
    EXPECT_EQ(numFeasibleNodesToFind(0, 6000), 300u);
    EXPECT_EQ(numFeasibleNodesToFind(0, 10000), 500u);
    // A configured share.
    EXPECT_EQ(numFeasibleNodesToFind(40, 1000), 400u);
    EXPECT_EQ(numFeasibleNodesToFind(40, 6000), 2400u);
    EXPECT_EQ(numFeasibleNodesToFind(5, 1000), 100u);
    EXPECT_EQ(numFeasibleNodesToFind(100, 1213), 1213u);

    EXPECT_EQ(scheduler::percentageOfNodesToScoreText(0, 1213), "adaptive 41 %");
    EXPECT_EQ(scheduler::percentageOfNodesToScoreText(30, 1213), "30 %");
}

TEST(FeasibleSearch, ZoneKeysJoinRegionAndZoneAndFallBackToTheBetaLabels)
{
    EXPECT_EQ(scheduler::zoneKeyOf(node("a")), "");
    EXPECT_EQ(scheduler::zoneKeyOf(node("a", { { "topology.kubernetes.io/zone", "z1" } })),
        std::string(":\0:z1", 5));
    EXPECT_EQ(scheduler::zoneKeyOf(node("a",
                  { { "topology.kubernetes.io/region", "r" },
                      { "failure-domain.beta.kubernetes.io/zone", "z2" } })),
        std::string("r:\0:z2", 6));
    // The GA label wins over the beta one.
    EXPECT_EQ(scheduler::zoneKeyOf(node("a",
                  { { "topology.kubernetes.io/zone", "ga" },
                      { "failure-domain.beta.kubernetes.io/zone", "beta" } })),
        std::string(":\0:ga", 5));
}

TEST(FeasibleSearch, TheNodeTreeTakesOneNodeFromEachZoneInTurn)
{
    scheduler::NodeTree tree;
    tree.add("a1", "A");
    tree.add("b1", "B");
    tree.add("a2", "A");
    tree.add("c1", "C");
    tree.add("a3", "A");
    tree.add("b2", "B");
    EXPECT_EQ(tree.list(), (std::vector<std::string> { "a1", "b1", "c1", "a2", "b2", "a3" }));
    // Removing the last node of a zone removes the zone: it comes back last.
    tree.remove("c1", "C");
    tree.remove("b1", "B");
    tree.remove("b2", "B");
    tree.add("b3", "B");
    EXPECT_EQ(tree.list(), (std::vector<std::string> { "a1", "b3", "a2", "a3" }));
    // A node whose zone changes goes to the end of its new zone; an unchanged zone moves nothing.
    tree.update("a1", "A", "A");
    tree.update("a2", "A", "B");
    EXPECT_EQ(tree.list(), (std::vector<std::string> { "a1", "b3", "a3", "a2" }));
    EXPECT_EQ(tree.size(), 4u);
    tree.remove("missing", "A");
    EXPECT_EQ(tree.size(), 4u);
}

TEST(FeasibleSearch, ANodeTreeOfNewNamesListsAsOneBuiltByAdd)
{
    scheduler::NodeTree added;
    scheduler::NodeTree fresh;
    const std::pair<const char*, const char*> nodes[]
        = { { "a1", "A" }, { "a2", "A" }, { "b1", "B" }, { "a3", "A" }, { "c1", "C" }, { "b2", "B" } };
    for (const auto& [name, zone] : nodes) {
        added.add(name, zone);
        fresh.addNew(name, zone);
    }
    EXPECT_EQ(fresh.list(), (std::vector<std::string> { "a1", "b1", "c1", "a2", "b2", "a3" }));
    EXPECT_EQ(fresh.list(), added.list());
    EXPECT_EQ(fresh.size(), 6u);
    // add still ignores a name its zone has.
    added.add("a2", "A");
    EXPECT_EQ(added.size(), 6u);
    EXPECT_EQ(added.list(), fresh.list());
}

TEST(FeasibleSearch, OnlyTheFirstFeasibleNodesAreScored)
{
    // 150 nodes: the search stops at 100 feasible ones. n000-n099 are half full, n100-n149 empty.
    // Every node examining n000 first stops before the empty ones, so the first pod goes to the
    // least allocated node it saw (n000, ties by name); scoring every node would pick n100.
    Cluster limited = clusterOf(nodesWithBusyPrefix(150, 100));
    EXPECT_EQ(limited.schedule(smallPod("p1")).nodeName, "n000");
    // The next cycle starts at n100, where the previous one stopped.
    EXPECT_EQ(limited.schedule(smallPod("p2")).nodeName, "n100");

    Cluster everyNode = clusterOf(nodesWithBusyPrefix(150, 100), 100);
    EXPECT_EQ(everyNode.schedule(smallPod("p1")).nodeName, "n100");
    EXPECT_EQ(everyNode.schedule(smallPod("p2")).nodeName, "n101");
}

TEST(FeasibleSearch, ZonesAreWalkedInTurn)
{
    // 200 nodes in two zones: n000-n099 in a, n100-n199 in b. The first 100 nodes of the tree's
    // list alternate a and b: n000, n100, n001, n101, ..., n049, n149. Every node but n050 and n149
    // is half full, so the search (100 feasible nodes) sees n149 and not n050.
    api::ObjectSet o = nodesWithBusyPrefix(200, 0, [](int i) { return i < 100 ? "a" : "b"; });
    for (int i = 0; i < 200; ++i) {
        if (i == 50 || i == 149)
            continue;
        api::Pod p = smallPod(padded("busy", i), padded("n", i));
        p.spec.containers[0].resources.requests["cpu"] = q("4");
        o.pods.push_back(p);
    }
    Cluster zoned = clusterOf(o);
    EXPECT_EQ(zoned.schedule(smallPod("p1")).nodeName, "n149");
    Cluster everyNode = clusterOf(o, 100);
    EXPECT_EQ(everyNode.schedule(smallPod("p1")).nodeName, "n050");
}

TEST(FeasibleSearch, EachCycleStartsWhereThePreviousOneStopped)
{
    // 250 identical nodes, all feasible: every cycle examines 120 of them (48 %), starting where
    // the previous one stopped, wrapping around the end of the list.
    Cluster c = clusterOf(nodesWithBusyPrefix(250, 0));
    for (int cycle = 0; cycle < 5; ++cycle) {
        const auto r = c.schedule(smallPod(padded("p", cycle)), /*explain=*/true);
        ASSERT_TRUE(r.scheduled);
        ASSERT_TRUE(r.diagnosis);
        std::vector<std::string> examined;
        for (const auto& n : r.diagnosis->nodes)
            if (n.examined)
                examined.push_back(n.node);
        std::vector<std::string> expected;
        for (int k = 0; k < 120; ++k)
            expected.push_back(padded("n", (120 * cycle + k) % 250));
        std::sort(expected.begin(), expected.end());
        EXPECT_EQ(examined, expected) << "cycle " << cycle;
        EXPECT_EQ(r.diagnosis->search,
            "examined 120 of 250 nodes: the search stops at 120 feasible nodes (percentageOfNodesToScore "
            "adaptive 48 %) and scores only those");
    }
}

TEST(FeasibleSearch, InfeasibleNodesAreExaminedButNotCounted)
{
    // 150 nodes, every other one full: the search looks for 100 feasible nodes, finds only 75, and
    // so examines every node; nothing is reported as cut short.
    api::ObjectSet o = nodesWithBusyPrefix(150, 0);
    for (int i = 0; i < 150; i += 2) {
        api::Pod p = smallPod(padded("full", i), padded("n", i));
        p.spec.containers[0].resources.requests["cpu"] = q("8");
        o.pods.push_back(p);
    }
    Cluster c = clusterOf(o);
    const auto r = c.schedule(smallPod("p1"), true);
    ASSERT_TRUE(r.scheduled);
    EXPECT_EQ(r.nodeName, "n001");
    EXPECT_EQ(r.diagnosis->search, "");
    for (const auto& n : r.diagnosis->nodes)
        EXPECT_TRUE(n.examined) << n.node;
    EXPECT_EQ(scheduler::formatText(*r.diagnosis).find("not examined"), std::string::npos);
}

TEST(FeasibleSearch, ExplainShowsWhatWasNotExamined)
{
    Cluster c = clusterOf(nodesWithBusyPrefix(150, 0));
    const auto r = c.schedule(smallPod("p1"), true);
    const std::string text = scheduler::formatText(*r.diagnosis);
    EXPECT_NE(
        text.find(
            "Pod default/p1: schedulable, chosen node n000\n  examined 100 of 150 nodes: the search stops "
            "at 100 feasible nodes (percentageOfNodesToScore adaptive 49 %) and scores only those\n"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("node n099: fits\n"), std::string::npos);
    EXPECT_NE(text.find("node n100: not examined\n"), std::string::npos);
    const DataValue data = scheduler::toData(*r.diagnosis);
    EXPECT_EQ(data.find("search")->asString(), r.diagnosis->search);
}

TEST(FeasibleSearch, ExplainAndScheduleChooseAlikeOverRandomClusters)
{
    // Law: the explain path and the plain path run the same search, so two copies of a cluster,
    // one explained at every cycle, place a random sequence of pods identically.
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        std::mt19937_64 rng(seed);
        const int count = 100 + int(rng() % 200);
        const int zones = 1 + int(rng() % 4);
        api::ObjectSet o
            = nodesWithBusyPrefix(count, 0, [&](int i) { return "z" + std::to_string(i % zones); });
        for (int i = 0; i < count; ++i)
            if (rng() % 3 == 0) {
                api::Pod p = smallPod(padded("busy", i), padded("n", i));
                p.spec.containers[0].resources.requests["cpu"] = q(std::to_string(1 + rng() % 8));
                o.pods.push_back(p);
            }
        const int32_t percentage = rng() % 2 ? 0 : int32_t(rng() % 101);
        Cluster plain = clusterOf(o, percentage);
        Cluster explained = clusterOf(o, percentage);
        for (int k = 0; k < 60; ++k) {
            api::Pod p = smallPod(padded("p", k));
            p.spec.containers[0].resources.requests["cpu"] = q(std::to_string(100 * (1 + rng() % 30)) + "m");
            const auto a = plain.schedule(p);
            const auto b = explained.schedule(p, true);
            ASSERT_EQ(a.nodeName, b.nodeName) << "seed " << seed << " pod " << k;
            ASSERT_EQ(a.message, b.message) << "seed " << seed << " pod " << k;
        }
    }
}

namespace feasible_search_test {

api::ResourceClaimTemplate gpuTemplate(
    const std::string& name, int64_t count, std::vector<std::string> selectors = {})
{
    api::ResourceClaimTemplate t;
    t.meta.name = name;
    t.meta.namespace_ = "default";
    t.spec.requests.push_back(exactRequest("gpu", requestSpec("gpu", count, std::move(selectors))));
    return t;
}

/// A random cluster of more than 100 nodes with 0-4 GPUs each (model a or b), sometimes a GPU
/// every node sees, and three templates.
api::ObjectSet randomGpuCluster(std::mt19937_64& rng)
{
    const int count = 101 + int(rng() % 160);
    api::ObjectSet o = nodesWithBusyPrefix(count, 0, [](int i) { return "z" + std::to_string(i % 3); });
    for (int i = 0; i < count; ++i) {
        std::vector<api::Device> gpus;
        const int n = int(rng() % 5);
        for (int g = 0; g < n; ++g)
            gpus.push_back(
                device("gpu-" + std::to_string(g), { { "model", strAttr(rng() % 2 ? "a" : "b") } }));
        if (!gpus.empty())
            o.resourceSlices.push_back(
                slice(padded("s", i), drasim::testing::kDrv, padded("n", i), padded("n", i), gpus));
        // Half the nodes start with some of their 8 cpus taken, so that nodes fill up.
        if (rng() % 2) {
            api::Pod p = smallPod(padded("busy", i), padded("n", i));
            p.spec.containers[0].resources.requests["cpu"] = q(std::to_string(1 + rng() % 7));
            o.pods.push_back(p);
        }
    }
    if (rng() % 2)
        o.resourceSlices.push_back(
            slice("shared", drasim::testing::kDrv, "shared", "", { device("gpu-net") }));
    o.deviceClasses.push_back(deviceClass("gpu", { "device.driver == \"gpu.example.com\"" }));
    o.resourceClaimTemplates.push_back(gpuTemplate("one", 1));
    o.resourceClaimTemplates.push_back(gpuTemplate("two", 2));
    o.resourceClaimTemplates.push_back(
        gpuTemplate("model-b", 1, { "device.attributes[\"gpu.example.com\"].model == \"b\"" }));
    return o;
}

std::string placement(const scheduler::ScheduleResult& r)
{
    std::string out = r.nodeName + " " + r.message;
    for (const auto& d : r.allocated)
        out += " " + d.pool + "/" + d.device;
    return out;
}

} // namespace feasible_search_test

TEST(FeasibleSearch, RememberedDraVerdictsChooseAsTheAllocatorWould)
{
    // Law: the plain path remembers the allocator's verdicts per template and node between cycles
    // (dra_verdicts.h); the explain path runs the allocator on every node it examines. Two copies
    // of a random GPU cluster, pods created and finished alike, must see the same placements and
    // devices throughout, as devices are tainted and untainted.
    for (uint64_t seed = 1; seed <= 12; ++seed) {
        std::mt19937_64 rng(seed);
        const api::ObjectSet o = randomGpuCluster(rng);
        const int32_t percentage = rng() % 3 ? 0 : int32_t(1 + rng() % 60);
        Cluster plain = clusterOf(o, percentage);
        Cluster explained = clusterOf(o, percentage);
        std::vector<std::string> bound;
        const char* templates[] = { "one", "two", "model-b" };
        for (int k = 0; k < 400; ++k) {
            if (rng() % 12 == 0) {
                // A device taint (or its removal) changes what a node can allocate.
                const scheduler::DeviceRef gpu { drasim::testing::kDrv, padded("n", int(rng() % 101)),
                    "gpu-0" };
                if (rng() % 2) {
                    api::DeviceTaint taint;
                    taint.key = "broken";
                    taint.effect = "NoSchedule";
                    plain.setDeviceTaint(gpu, taint);
                    explained.setDeviceTaint(gpu, taint);
                } else {
                    plain.removeDeviceTaint(gpu, "broken");
                    explained.removeDeviceTaint(gpu, "broken");
                }
                continue;
            }
            if (!bound.empty() && rng() % 4 == 0) {
                const size_t victim = rng() % bound.size();
                plain.podFinished(bound[victim]);
                explained.podFinished(bound[victim]);
                bound.erase(bound.begin() + long(victim));
                continue;
            }
            api::Pod p = rng() % 5 ? pod(padded("p", k), {}, { { "gpu", templates[rng() % 3] } })
                                   : pod(padded("p", k));
            // Few shapes, so that pods share remembered verdicts; whole cpus, so that nodes fill.
            p.spec.containers[0].resources.requests["cpu"] = q(std::to_string(1 << (rng() % 3)));
            const auto a = plain.schedule(p);
            const auto b = explained.schedule(p, true);
            ASSERT_EQ(placement(a), placement(b)) << "seed " << seed << " pod " << k;
            if (a.scheduled)
                bound.push_back("default/" + p.meta.name);
        }
    }
}

namespace feasible_search_test {

/// Everything a cycle's outcome says: where, why not, with which devices, what preemption did.
std::string outcome(const scheduler::ScheduleResult& r)
{
    std::string out = placement(r) + " plugins " + std::to_string(r.unschedulablePlugins);
    if (r.preemption) {
        out += " | " + r.preemption->message + " nominated " + r.preemption->nominatedNode;
        for (const auto& v : r.preemption->victims)
            out += " " + v;
    }
    return out;
}

} // namespace feasible_search_test

TEST(FeasibleSearch, RememberedFailuresTellWhyAsFilteringAfreshWould)
{
    // Law: a pod that fits nowhere is told why from the nodes' remembered Filter failures (their
    // reasons, DynamicResources' and the nodes preemption may help), refiltering only the nodes
    // that changed; the explain path filters every node afresh. On small clusters (every node
    // examined) that fill up, with tainted nodes, pods that tolerate them or not, and pods of a
    // higher priority that may preempt, both copies must give the same outcome every time.
    for (uint64_t seed = 1; seed <= 16; ++seed) {
        std::mt19937_64 rng(seed);
        const int count = 5 + int(rng() % 96);
        api::ObjectSet o = nodesWithBusyPrefix(count, 0);
        for (int i = 0; i < count; ++i) {
            if (rng() % 4 == 0)
                o.nodes[size_t(i)].taints.push_back(api::Taint { "dedicated", "x", "NoSchedule", "" });
            std::vector<api::Device> gpus;
            const int n = int(rng() % 3);
            for (int g = 0; g < n; ++g)
                gpus.push_back(device("gpu-" + std::to_string(g), { { "model", strAttr("a") } }));
            if (!gpus.empty())
                o.resourceSlices.push_back(
                    slice(padded("s", i), drasim::testing::kDrv, padded("n", i), padded("n", i), gpus));
        }
        o.deviceClasses.push_back(deviceClass("gpu", { "device.driver == \"gpu.example.com\"" }));
        o.resourceClaimTemplates.push_back(gpuTemplate("one", 1));
        Cluster plain = clusterOf(o);
        Cluster explained = clusterOf(o);
        std::vector<std::string> bound;
        int failures = 0;
        // About twice what the cluster holds, so that it fills up and stays full.
        for (int k = 0; k < 40 + 8 * count; ++k) {
            if (!bound.empty() && rng() % 5 == 0) {
                const size_t victim = rng() % bound.size();
                plain.podFinished(bound[victim]);
                explained.podFinished(bound[victim]);
                bound.erase(bound.begin() + long(victim));
                continue;
            }
            api::Pod p = rng() % 2 ? pod(padded("p", k), {}, { { "gpu", "one" } }) : pod(padded("p", k));
            p.spec.containers[0].resources.requests["cpu"] = q(std::to_string(1 << (rng() % 3)));
            if (rng() % 3 == 0)
                p.spec.tolerations.push_back(api::Toleration { "dedicated", "Exists", "", "", std::nullopt });
            if (rng() % 6 == 0)
                p.spec.priority = 100;
            const auto a = plain.schedule(p);
            const auto b = explained.schedule(p, true);
            ASSERT_EQ(outcome(a), outcome(b)) << "seed " << seed << " pod " << k;
            if (a.scheduled)
                bound.push_back("default/" + p.meta.name);
            else
                ++failures;
        }
        EXPECT_GT(failures, 20) << "seed " << seed << ": the law needs pods that fit nowhere";
    }
}
