// SPDX-License-Identifier: Apache-2.0
// What a KubeSchedulerConfiguration's PodGroup-cycle plugins change (kube-scheduler/config/v1
// Plugins: placementGenerate, placementScore, podGroupPostFilter; the topology-aware scheduling
// concepts page, 1.37): the weights of PodGroupPodsCount and NodeResourcesFit in a placement's
// score, NodeResourcesFit's resource weights in its bin packing, TopologyPlacement, and
// DefaultPreemption as workload-aware preemption. Scores worked out by hand first.
#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/pod_group.h"
#include "core/scheduler/scheduler_config.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;
using scheduler::ConfigPlugin;
using scheduler::ConfigProfile;
using scheduler::ExtensionPoint;
using scheduler::PodGroupPolicy;

namespace group_config_test {

ConfigPlugin plugin(const std::string& name, std::optional<int32_t> weight = std::nullopt)
{
    return ConfigPlugin { name, weight, { SourcePos { "c.yaml", 7, 13 }, "profiles[0].plugins.x" } };
}

scheduler::SchedulerOptions optionsOf(const ConfigProfile& p)
{
    Diagnostics diags;
    scheduler::ConfigDocument d;
    d.profiles.push_back(p);
    const auto c = scheduler::buildConfiguration(d, diags);
    EXPECT_TRUE(c) << diags.formatAll();
    EXPECT_FALSE(diags.hasErrors()) << diags.formatAll();
    scheduler::SchedulerOptions o;
    if (c)
        o.profiles = std::make_shared<const std::vector<scheduler::SchedulerProfile>>(c->profiles);
    return o;
}

/// Node i in rack racks[i] with cpus[i] cpus and mems[i] memory.
api::ObjectSet racks(const std::vector<std::string>& rackOf, const std::vector<std::string>& cpus,
    const std::vector<std::string>& mems = {})
{
    api::ObjectSet o;
    for (size_t i = 0; i < rackOf.size(); ++i)
        o.nodes.push_back(node(numbered("n", int(i)), { { "rack", rackOf[i] } }, cpus[i],
            i < mems.size() ? mems[i] : std::string("32Gi")));
    return o;
}

std::vector<api::Pod> members(int n, const std::string& cpu, const std::string& memory = "")
{
    std::vector<api::Pod> out;
    for (int i = 0; i < n; ++i) {
        api::Pod p = pod("m-" + std::to_string(i));
        p.spec.containers[0].resources.requests["cpu"] = q(cpu);
        if (!memory.empty())
            p.spec.containers[0].resources.requests["memory"] = q(memory);
        out.push_back(std::move(p));
    }
    return out;
}

const PodGroupPolicy kBasicOnRacks { "default/g", false, 1, "rack" };

/// Rack a (two 4-cpu nodes) holds 3 of the 3 members of 2 cpus, rack b (one 4-cpu node) holds 2.
/// PodGroupPodsCount: a 100, b 2*100/3 = 66. MostAllocated over the rack: a (cpu 6/8 = 75, memory
/// 600Mi/64Gi = 0) / 2 = 37; b (4/4 = 100, 400Mi/32Gi = 1) / 2 = 50.
std::string chosenRack(const ConfigProfile& profile)
{
    Cluster c(racks({ "a", "a", "b" }, { "4", "4", "4" }), optionsOf(profile));
    auto r = c.scheduleGroup(kBasicOnRacks, members(3, "2"), {}, true);
    EXPECT_TRUE(r.scheduled) << r.message;
    return r.domain;
}

} // namespace group_config_test

using namespace group_config_test;

TEST(GroupConfig, PlacementScoreWeightsDecideBetweenMorePodsAndTighterPacking)
{
    // Default weights 1 and 1: a 137, b 116.
    EXPECT_EQ(chosenRack(ConfigProfile {}), "rack=a");
    // PodGroupPodsCount disabled at placementScore: a 37, b 50.
    ConfigProfile noCount;
    noCount.plugins.points[size_t(ExtensionPoint::PlacementScore)].disabled.push_back(
        plugin("PodGroupPodsCount"));
    EXPECT_EQ(chosenRack(noCount), "rack=b");
    // NodeResourcesFit weight 2: a 100 + 74 = 174, b 66 + 100 = 166; weight 3: a 211, b 216.
    for (const auto& [weight, want] : { std::pair { 2, "rack=a" }, std::pair { 3, "rack=b" } }) {
        ConfigProfile weighted;
        weighted.plugins.points[size_t(ExtensionPoint::PlacementScore)].enabled.push_back(
            plugin("NodeResourcesFit", weight));
        EXPECT_EQ(chosenRack(weighted), want) << "weight " << weight;
    }
    // multiPoint's weight counts where placementScore names no weight of its own, as for Score.
    ConfigProfile viaMultiPoint;
    viaMultiPoint.plugins.multiPoint.enabled.push_back(plugin("NodeResourcesFit", 3));
    EXPECT_EQ(chosenRack(viaMultiPoint), "rack=b");
}

// Two members of 2 cpus and 2Gi each; both racks hold both. Rack a: two nodes of 4 cpus and 8Gi
// (cpu 4/8 = 50, memory 4/16 = 25), rack b: one of 4 cpus and 32Gi (100, 4/32 = 12). Cpu and
// memory at 1 each: a 37, b 56. Memory weighed 5: a (50 + 125) / 6 = 29, b (100 + 60) / 6 = 26.
TEST(GroupConfig, NodeResourcesFitResourceWeightsApplyToPlacements)
{
    auto run = [](const ConfigProfile& profile) {
        Cluster c(racks({ "a", "a", "b" }, { "4", "4", "4" }, { "8Gi", "8Gi", "32Gi" }), optionsOf(profile));
        auto r = c.scheduleGroup(kBasicOnRacks, members(2, "2", "2Gi"), {}, true);
        EXPECT_TRUE(r.scheduled) << r.message;
        return r.domain;
    };
    EXPECT_EQ(run(ConfigProfile {}), "rack=b");
    ConfigProfile memoryHeavy;
    auto fit = std::make_shared<scheduler::FitScoring>();
    fit->resources = { { "cpu", 1 }, { "memory", 5 } };
    memoryHeavy.fit = fit;
    // The strategy is the per-pod one; placements always score MostAllocated.
    memoryHeavy.fitStrategy = scheduler::FitStrategy::LeastAllocated;
    EXPECT_EQ(run(memoryHeavy), "rack=a");
}

// Racks of 6 cpus each cannot hold four members of 2 cpus; the cluster can. Without
// TopologyPlacement nothing acts on the group's topology constraint.
TEST(GroupConfig, WithoutTopologyPlacementTheGroupIsNotConfinedToADomain)
{
    const auto cluster = racks({ "a", "a", "b", "b" }, { "4", "2", "4", "2" });
    const PodGroupPolicy gang { "default/g", true, 4, "rack" };
    Cluster confined(cluster, optionsOf(ConfigProfile {}));
    auto none = confined.scheduleGroup(gang, members(4, "2"), {}, true);
    EXPECT_FALSE(none.scheduled);
    EXPECT_EQ(none.message,
        "pod group default/g: 0/2 placements are feasible: no rack domain holds minCount (4) pods: a 3, b 3");

    ConfigProfile noTopology;
    noTopology.plugins.points[size_t(ExtensionPoint::PlacementGenerate)].disabled.push_back(
        plugin("TopologyPlacement"));
    Cluster free(cluster, optionsOf(noTopology));
    auto r = free.scheduleGroup(gang, members(4, "2"), {}, true);
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.domain, "");
    EXPECT_EQ(r.placed, 4);
}

// The gang needs both nodes; a lower-priority pod holds each. DefaultPreemption disabled at
// podGroupPostFilter leaves the group unschedulable with nothing evicted, though DefaultPreemption
// still runs for single pods at postFilter.
TEST(GroupConfig, DefaultPreemptionDisabledAtPodGroupPostFilterPreemptsNothingForAGroup)
{
    auto cluster = [] {
        api::ObjectSet o = racks({ "a", "a" }, { "4", "4" });
        for (int i = 0; i < 2; ++i) {
            api::Pod low = pod("low-" + std::to_string(i));
            low.spec.containers[0].resources.requests["cpu"] = q("4");
            low.spec.priority = 100;
            low.spec.nodeName = numbered("n", i);
            o.pods.push_back(std::move(low));
        }
        return o;
    };
    PodGroupPolicy gang { "default/g", true, 2, "" };
    gang.workloadAwarePreemption = true;
    gang.priority = 1000;
    auto pods = members(2, "4");
    for (auto& p : pods) {
        p.spec.priority = 1000;
        p.spec.schedulingGroup = "g";
    }
    Cluster preempting(cluster(), optionsOf(ConfigProfile {}));
    auto r = preempting.scheduleGroup(gang, pods, {}, false);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->victims, (std::vector<std::string> { "default/low-0", "default/low-1" }));

    ConfigProfile noGroupPreemption;
    noGroupPreemption.plugins.points[size_t(ExtensionPoint::PodGroupPostFilter)].disabled.push_back(
        plugin("DefaultPreemption"));
    const auto options = optionsOf(noGroupPreemption);
    ASSERT_TRUE(options.profiles);
    EXPECT_TRUE(options.profiles->front().preemption);
    Cluster c(cluster(), options);
    auto none = c.scheduleGroup(gang, pods, {}, false);
    EXPECT_FALSE(none.scheduled);
    EXPECT_FALSE(none.preemption);
    for (const auto& b : c.boundPods())
        EXPECT_FALSE(b.terminating) << b.key;
}
