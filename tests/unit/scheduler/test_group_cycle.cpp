// SPDX-License-Identifier: Apache-2.0
// The PodGroup scheduling cycle (Kubernetes 1.37), on the test cases of the workload-aware
// scheduling spec (§8: 2, 3, 4, 5, 11) and the gang plugin's PlacementFeasible, then laws over
// random gangs: a gang is never bound below minCount, a topology-constrained group lies in one
// domain, and a failed cycle leaves the cluster as it was.
#include <map>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/pod_group.h"
#include "tests/unit/allocator/fixtures.h"
#include "tests/unit/scheduler/random_bundle.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;
using scheduler::PodGroupPolicy;

namespace {

const char* kDrv = "gpu.example.com";

/// Nodes with `gpus[i]` GPUs each, node i labelled rack=<racks[i]> when racks is given, and
/// `nics[i]` NICs of another driver, which the members' class does not select.
api::ObjectSet rackCluster(const std::vector<int>& gpus, const std::vector<std::string>& racks = {},
    const std::vector<int>& nics = {})
{
    api::ObjectSet o;
    for (size_t n = 0; n < gpus.size(); ++n) {
        std::string name = numbered("node-", int(n));
        o.nodes.push_back(node(name));
        if (n < racks.size())
            o.nodes.back().meta.labels["rack"] = racks[n];
        std::vector<api::Device> devs;
        for (int d = 0; d < gpus[n]; ++d)
            devs.push_back(device(numbered("gpu-", d)));
        o.resourceSlices.push_back(slice(name + "-gpus", kDrv, name, name, devs));
        if (n < nics.size() && nics[n] > 0) {
            std::vector<api::Device> ports;
            for (int d = 0; d < nics[n]; ++d)
                ports.push_back(device(numbered("nic-", d)));
            o.resourceSlices.push_back(slice(name + "-nics", "nic.example.com", name, name, ports));
        }
    }
    addOneGpuClassAndTemplate(o);
    return o;
}

std::vector<api::Pod> members(const std::string& group, int n)
{
    std::vector<api::Pod> out;
    for (int i = 0; i < n; ++i)
        out.push_back(pod(group + "-" + std::to_string(i), {}, { { "gpu", "one-gpu" } }));
    return out;
}

PodGroupPolicy gang(const std::string& name, int32_t minCount, const std::string& key = {})
{
    return PodGroupPolicy { "default/" + name, true, minCount, key };
}

int boundCount(const Cluster& c)
{
    return int(c.boundPods().size());
}

} // namespace

TEST(PlacementFeasible, FollowsTheGangPlugin)
{
    auto g = gang("g", 4);
    EXPECT_EQ(scheduler::placementFeasible(g, 1, 2), scheduler::Feasibility::Unschedulable);
    EXPECT_EQ(scheduler::placementFeasible(g, 1, 3), scheduler::Feasibility::Wait);
    EXPECT_EQ(scheduler::placementFeasible(g, 4, 0), scheduler::Feasibility::Success);
    EXPECT_EQ(
        scheduler::minCountMessage(g, 1, 2), "minCount (4) cannot be satisfied: 1 scheduled, 2 remaining");
    EXPECT_EQ(
        scheduler::minCountMessage(g, 1, 3), "minCount (4) is not yet satisfied: 1 scheduled, 3 remaining");
    PodGroupPolicy basic { "default/b", false, 7, "" };
    EXPECT_EQ(scheduler::placementFeasible(basic, 0, 1), scheduler::Feasibility::Wait);
    EXPECT_EQ(scheduler::placementFeasible(basic, 1, 0), scheduler::Feasibility::Success);
}

// Spec case 2: gang of 4 one-GPU pods, 3 free GPUs: nothing binds, nothing stays allocated.
TEST(GroupCycle, GangThatDoesNotFitBindsNothing)
{
    Cluster c(rackCluster({ 2, 1 }));
    auto r = c.scheduleGroup(gang("g", 4), members("g", 4), {}, false);
    EXPECT_FALSE(r.scheduled);
    EXPECT_EQ(r.placed, 0);
    EXPECT_EQ(r.message, "pod group default/g: minCount (4) cannot be satisfied: 3 scheduled, 0 remaining");
    EXPECT_EQ(boundCount(c), 0);
    for (const auto* claim : c.claims())
        EXPECT_FALSE(claim->allocation) << claim->meta.name;
    ASSERT_EQ(r.members.size(), 4u);
    EXPECT_EQ(r.members[0].message, r.message);
    EXPECT_EQ(r.members[3].message, r.message + "; 0/2 nodes are available: 2 cannot allocate all claims.");
}

// Spec case 3: minCount 3, 5 pods, room for 4: four bind in one cycle, the fifth stays pending.
TEST(GroupCycle, GangAboveMinCountPlacesAsManyAsFit)
{
    Cluster c(rackCluster({ 2, 2 }));
    auto r = c.scheduleGroup(gang("g", 3), members("g", 5), {}, false);
    EXPECT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.placed, 4);
    EXPECT_EQ(boundCount(c), 4);
    EXPECT_FALSE(r.members[4].scheduled);
    EXPECT_EQ(r.members[4].message, "0/2 nodes are available: 2 cannot allocate all claims.");
}

// Spec case 4: a basic group binds what fits.
TEST(GroupCycle, BasicGroupIsNotAllOrNothing)
{
    Cluster c(rackCluster({ 3 }));
    PodGroupPolicy basic { "default/b", false, 1, "" };
    auto r = c.scheduleGroup(basic, members("b", 5), {}, false);
    EXPECT_TRUE(r.scheduled);
    EXPECT_EQ(r.placed, 3);
    EXPECT_EQ(boundCount(c), 3);
}

// Spec case 5: two gangs of 4 on 6 slots: exactly one binds, the other binds nothing.
TEST(GroupCycle, TwoGangsNeverDeadlockHalfBound)
{
    Cluster c(rackCluster({ 3, 3 }));
    auto a = c.scheduleGroup(gang("a", 4), members("a", 4), {}, false);
    auto b = c.scheduleGroup(gang("b", 4), members("b", 4), {}, false);
    EXPECT_TRUE(a.scheduled);
    EXPECT_FALSE(b.scheduled);
    EXPECT_EQ(boundCount(c), 4);
}

// Members bound in an earlier cycle count towards minCount.
TEST(GroupCycle, BoundMembersCountTowardsMinCount)
{
    Cluster c(rackCluster({ 2 }));
    auto first = c.scheduleGroup(gang("g", 2), members("g", 2), {}, false);
    ASSERT_TRUE(first.scheduled);
    c.podFinished("default/g-1");
    // g-0 is still bound: one more member reaches minCount 2.
    std::vector<api::Pod> late { pod("g-9", {}, { { "gpu", "one-gpu" } }) };
    auto r = c.scheduleGroup(gang("g", 2), late, { "default/g-0" }, false);
    EXPECT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.placed, 1);
}

// Spec case 11: topology key rack; rack a has 3 free GPUs, rack b 4: all four go to rack b.
// Without a rack that holds four the gang is unschedulable, though the cluster has 7.
TEST(GroupCycle, TopologyConstraintPicksOneRack)
{
    Cluster c(rackCluster({ 2, 1, 2, 2 }, { "a", "a", "b", "b" }));
    auto r = c.scheduleGroup(gang("g", 4, "rack"), members("g", 4), {}, true);
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.domain, "rack=b");
    EXPECT_EQ(r.placementsTried, 2);
    EXPECT_EQ(r.placementsFeasible, 1);
    for (const auto& m : r.members)
        EXPECT_TRUE(m.nodeName == "node-2" || m.nodeName == "node-3") << m.nodeName;

    Cluster tight(rackCluster({ 2, 1, 2, 1 }, { "a", "a", "b", "b" }));
    auto none = tight.scheduleGroup(gang("g", 4, "rack"), members("g", 4), {}, true);
    EXPECT_FALSE(none.scheduled);
    EXPECT_EQ(none.message,
        "pod group default/g: 0/2 placements are feasible: no rack domain holds minCount (4) pods: a 3, b 3");
    EXPECT_EQ(boundCount(tight), 0);
    // With the gate off the constraint is dropped and the cluster's 6 GPUs hold the gang of 4.
    auto off = tight.scheduleGroup(gang("g", 4, "rack"), members("g", 4), {}, false);
    EXPECT_TRUE(off.scheduled);
    EXPECT_EQ(off.domain, "");
}

// With many domains the message names the fullest four, then how many more there are.
TEST(GroupCycle, ShortfallNamesTheFullestDomains)
{
    Cluster c(rackCluster({ 1, 1, 2, 1, 1, 1, 1 }, { "a", "b", "c", "d", "e", "f", "g" }));
    auto r = c.scheduleGroup(gang("g", 3, "rack"), members("g", 3), {}, true);
    EXPECT_FALSE(r.scheduled);
    EXPECT_EQ(r.message,
        "pod group default/g: 0/7 placements are feasible: no rack domain holds minCount (3) pods: c 2, a 1, "
        "b 1, "
        "d 1, and 3 more");
}

// A topology key no node has gives no placement at all: the cycle still answers for every member
// it was given, each with the group's message.
TEST(GroupCycle, NoPlacementAnswersForEveryMember)
{
    Cluster c(rackCluster({ 2, 2 }, { "a", "b" }));
    auto r = c.scheduleGroup(gang("g", 2, "zone"), members("g", 3), {}, true);
    EXPECT_FALSE(r.scheduled);
    EXPECT_EQ(r.placementsTried, 0);
    const std::string want
        = "pod group default/g: 0/0 placements are feasible: no node has the label zone of "
          "the group's topology constraint";
    EXPECT_EQ(r.message, want);
    ASSERT_EQ(r.members.size(), 3u);
    for (const auto& m : r.members) {
        EXPECT_FALSE(m.scheduled);
        EXPECT_EQ(m.message, want);
    }
    EXPECT_EQ(boundCount(c), 0);
}

// Among feasible placements the one that places more pods wins, then the fuller one.
TEST(GroupCycle, PlacementScorePrefersMorePodsThenBinPacking)
{
    Cluster c(rackCluster({ 4, 2, 1 }, { "a", "b", "b" }));
    PodGroupPolicy basic { "default/b", false, 1, "rack" };
    auto r = c.scheduleGroup(basic, members("b", 4), {}, true);
    ASSERT_TRUE(r.scheduled);
    EXPECT_EQ(r.domain, "rack=a");
    EXPECT_EQ(r.placed, 4);
}

// Laws over random bundles: grouping any pending pods as a gang never leaves it partly bound,
// and a failed cycle changes nothing.
TEST(GroupCycleLaws, GangIsAllOrNothingOnRandomBundles)
{
    for (uint64_t seed = 5'100'000; seed < 5'100'300; ++seed) {
        RandomBundle b = makeRandomBundle(seed);
        Cluster c(b.objects);
        if (c.diagnostics().hasErrors() || b.pods.empty())
            continue;
        const size_t before = c.boundPods().size();
        const auto claimsBefore = c.claims().size();
        const int32_t minCount = int32_t(1 + seed % b.pods.size());
        auto r = c.scheduleGroup(gang("g", minCount), b.pods, {}, false);
        const size_t added = c.boundPods().size() - before;
        if (r.scheduled) {
            EXPECT_GE(int32_t(added), minCount) << "seed " << seed;
            EXPECT_EQ(int32_t(added), r.placed) << "seed " << seed;
        } else {
            EXPECT_EQ(added, 0u) << "seed " << seed;
            EXPECT_EQ(c.claims().size(), claimsBefore) << "seed " << seed;
            for (const auto& m : r.members)
                EXPECT_FALSE(m.scheduled) << "seed " << seed;
        }
    }
}

// Law: trying placements in order of their score bound, and not running those that cannot win
// or whose free GPUs cannot hold minCount, gives exactly what running every placement gives: the
// same placement, members, nodes and messages (the group's and each member's), gang after gang
// on random racks of random sizes with random per-pod cpu, as the racks fill up. Nodes also have
// NICs, which the members' class does not select and which therefore hold no member.
TEST(GroupCycleLaws, SkippingPlacementsThatCannotWinChangesNothing)
{
    for (uint64_t seed = 5'200'000; seed < 5'200'200; ++seed) {
        std::mt19937_64 rng(seed);
        const int racks = 2 + int(rng() % 5);
        std::vector<int> gpus, nics;
        std::vector<std::string> rackOf;
        for (int n = 0; n < 4 + int(rng() % 12); ++n) {
            gpus.push_back(1 + int(rng() % 4));
            rackOf.push_back("r" + std::to_string(rng() % racks));
            nics.push_back(int(rng() % 3));
        }
        scheduler::SchedulerOptions exhaustive;
        exhaustive.exhaustivePlacements = true;
        Cluster pruned(rackCluster(gpus, rackOf, nics));
        Cluster full(rackCluster(gpus, rackOf, nics), exhaustive);
        for (int g = 0; g < 10; ++g) {
            const std::string name = "g" + std::to_string(g);
            auto pods = members(name, 1 + int(rng() % 6));
            for (auto& p : pods)
                p.spec.containers[0].resources.requests["cpu"] = *Quantity::parse(std::to_string(rng() % 4));
            const bool isGang = rng() % 4 != 0;
            PodGroupPolicy policy { "default/" + name, isGang, int32_t(1 + rng() % pods.size()), "rack" };
            auto a = pruned.scheduleGroup(policy, pods, {}, true);
            auto b = full.scheduleGroup(policy, pods, {}, true);
            const std::string at = "seed " + std::to_string(seed) + " group " + name;
            ASSERT_EQ(a.scheduled, b.scheduled) << at;
            EXPECT_EQ(a.domain, b.domain) << at;
            EXPECT_EQ(a.placed, b.placed) << at;
            EXPECT_EQ(a.message, b.message) << at;
            ASSERT_EQ(a.members.size(), b.members.size()) << at;
            for (size_t i = 0; i < a.members.size(); ++i) {
                EXPECT_EQ(a.members[i].nodeName, b.members[i].nodeName) << at << " member " << i;
                EXPECT_EQ(a.members[i].message, b.members[i].message) << at << " member " << i;
            }
            EXPECT_LE(a.placementsFeasible, b.placementsFeasible) << at;
        }
        const auto boundA = pruned.boundPods(), boundB = full.boundPods();
        ASSERT_EQ(boundA.size(), boundB.size()) << "seed " << seed;
        for (size_t i = 0; i < boundA.size(); ++i)
            EXPECT_EQ(boundA[i].nodeName, boundB[i].nodeName) << "seed " << seed;
    }
}

// Law: when no placement takes a gang, the message names the same fullest domains, with the same
// counts, and each member gives the same reason, whether every placement runs or only those the
// account needs (a placement whose free GPUs cannot lift it among the domains named is not run):
// many small racks (with NICs beside the GPUs), filled by gangs of random cpu until most gangs fit
// nowhere.
TEST(GroupCycleLaws, AccountOfHopelessPlacementsNamesTheSameDomains)
{
    for (uint64_t seed = 5'300'000; seed < 5'300'150; ++seed) {
        std::mt19937_64 rng(seed);
        const int racks = 5 + int(rng() % 8);
        std::vector<int> gpus, nics;
        std::vector<std::string> rackOf;
        for (int n = 0; n < 6 + int(rng() % 25); ++n) {
            gpus.push_back(1 + int(rng() % 3));
            rackOf.push_back("r" + std::to_string(rng() % racks));
            nics.push_back(int(rng() % 3));
        }
        scheduler::SchedulerOptions exhaustive;
        exhaustive.exhaustivePlacements = true;
        Cluster pruned(rackCluster(gpus, rackOf, nics));
        Cluster full(rackCluster(gpus, rackOf, nics), exhaustive);
        for (int g = 0; g < 12; ++g) {
            const std::string name = "g" + std::to_string(g);
            auto pods = members(name, 2 + int(rng() % 7));
            // Cpu as well: a rack with GPUs enough may still fail, and is then run and counted.
            const std::string cpu = std::to_string(rng() % 6);
            for (auto& p : pods)
                p.spec.containers[0].resources.requests["cpu"] = *Quantity::parse(cpu);
            const int32_t minCount = int32_t(pods.size() - rng() % 2);
            const PodGroupPolicy policy = gang(name, minCount, "rack");
            auto a = pruned.scheduleGroup(policy, pods, {}, true);
            auto b = full.scheduleGroup(policy, pods, {}, true);
            const std::string at = "seed " + std::to_string(seed) + " group " + name;
            ASSERT_EQ(a.scheduled, b.scheduled) << at;
            EXPECT_EQ(a.domain, b.domain) << at;
            EXPECT_EQ(a.message, b.message) << at;
            ASSERT_EQ(a.members.size(), b.members.size()) << at;
            for (size_t i = 0; i < a.members.size(); ++i)
                EXPECT_EQ(a.members[i].message, b.members[i].message) << at << " member " << i;
        }
        EXPECT_EQ(pruned.boundPods().size(), full.boundPods().size()) << "seed " << seed;
    }
}
