// SPDX-License-Identifier: Apache-2.0
// What a KubeSchedulerConfiguration's plugin settings change in a cycle, beyond which score terms
// run (test_scheduler_config.cpp): PodTopologySpread's and InterPodAffinity's Filter disabled,
// DefaultPreemption's candidate sample.
#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/scheduler_config.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;
using scheduler::ConfigDocument;
using scheduler::ConfigPlugin;
using scheduler::ConfigProfile;
using scheduler::ExtensionPoint;

namespace sched_config_plugins_test {

constexpr const char* kZone = "topology.kubernetes.io/zone";
constexpr const char* kHost = "kubernetes.io/hostname";

ConfigPlugin plugin(const std::string& name)
{
    return ConfigPlugin { name, std::nullopt, { SourcePos { "c.yaml", 5, 11 }, "profiles[0].plugins.x" } };
}

scheduler::ConfigPluginSet& point(ConfigProfile& p, ExtensionPoint e)
{
    return p.plugins.points[size_t(e)];
}

scheduler::SchedulerOptions optionsOf(const ConfigProfile& p, Diagnostics& diags)
{
    ConfigDocument d;
    d.profiles.push_back(p);
    const auto c = scheduler::buildConfiguration(d, diags);
    EXPECT_TRUE(c) << diags.formatAll();
    scheduler::SchedulerOptions o;
    if (c)
        o.profiles = std::make_shared<const std::vector<scheduler::SchedulerProfile>>(c->profiles);
    return o;
}

api::Node zoned(const std::string& name, const std::string& zone)
{
    return node(name, { { kHost, name }, { kZone, zone } }, "8");
}

api::Pod web(const std::string& name, const std::string& nodeName = "")
{
    api::Pod p = pod(name);
    p.meta.labels = { { "app", "web" } };
    p.spec.nodeName = nodeName;
    return p;
}

api::LabelSelector webSelector()
{
    api::LabelSelector s;
    s.matchLabels = { { "app", "web" } };
    return s;
}

/// Zone a holds two web pods, zone b none.
api::ObjectSet twoZones()
{
    api::ObjectSet o;
    o.nodes = { zoned("a1", "a"), zoned("b1", "b") };
    o.pods = { web("w0", "a1"), web("w1", "a1") };
    return o;
}

api::Pod spreadPod()
{
    api::Pod p = web("w2");
    api::TopologySpreadConstraint c;
    c.topologyKey = kZone;
    c.maxSkew = 1;
    c.doNotSchedule = true;
    c.labelSelector = webSelector();
    p.spec.topologySpreadConstraints = { c };
    return p;
}

api::Pod antiAffinityPod()
{
    api::Pod p = web("w2");
    api::PodAffinityTerm t;
    t.topologyKey = kZone;
    t.labelSelector = webSelector();
    p.spec.podAntiAffinity = api::PodAffinityRules {};
    p.spec.podAntiAffinity->required = { t };
    return p;
}

/// A profile with the plugin's Filter disabled and no score term that could prefer b1 (a1 is the
/// busier node): every feasible node scores alike, and the node name (a1) decides once a1 passes.
ConfigProfile withoutFilterAndScore(const std::string& name)
{
    ConfigProfile p;
    point(p, ExtensionPoint::Filter).disabled.push_back(plugin(name));
    for (const char* scored : { "NodeResourcesFit", "NodeResourcesBalancedAllocation", name.c_str() })
        point(p, ExtensionPoint::Score).disabled.push_back(plugin(scored));
    return p;
}

TEST(SchedulerConfigPlugins, DisabledPodTopologySpreadFilterNoLongerRejectsNodes)
{
    // With the default profile the DoNotSchedule constraint keeps the pod out of zone a.
    Cluster defaults(twoZones());
    auto r = defaults.schedule(spreadPod());
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.nodeName, "b1");
    Diagnostics diags;
    Cluster without(twoZones(), optionsOf(withoutFilterAndScore("PodTopologySpread"), diags));
    EXPECT_TRUE(diags.all().empty()) << diags.formatAll();
    auto s = without.schedule(spreadPod(), true);
    ASSERT_TRUE(s.scheduled) << s.message;
    EXPECT_EQ(s.nodeName, "a1");
    for (const auto& n : s.diagnosis->nodes)
        EXPECT_TRUE(n.nodeReasons.empty()) << n.node;
}

TEST(SchedulerConfigPlugins, DisabledInterPodAffinityFilterNoLongerRejectsNodes)
{
    Cluster defaults(twoZones());
    auto r = defaults.schedule(antiAffinityPod(), true);
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.nodeName, "b1");
    Diagnostics diags;
    Cluster without(twoZones(), optionsOf(withoutFilterAndScore("InterPodAffinity"), diags));
    EXPECT_TRUE(diags.all().empty()) << diags.formatAll();
    auto s = without.schedule(antiAffinityPod());
    ASSERT_TRUE(s.scheduled) << s.message;
    EXPECT_EQ(s.nodeName, "a1");
}

TEST(SchedulerConfigPlugins, DisablingTheFilterKeepsTheOtherPluginsFilter)
{
    // InterPodAffinity's Filter off, PodTopologySpread's on: the spread pod still avoids zone a.
    Diagnostics diags;
    Cluster c(twoZones(), optionsOf(withoutFilterAndScore("InterPodAffinity"), diags));
    auto r = c.schedule(spreadPod());
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.nodeName, "b1");
}

TEST(SchedulerConfigPlugins, FilterWithoutItsPreFilterIsAWarningAndStillFilters)
{
    ConfigProfile p;
    point(p, ExtensionPoint::PreFilter).disabled.push_back(plugin("PodTopologySpread"));
    Diagnostics diags;
    Cluster c(twoZones(), optionsOf(p, diags));
    ASSERT_EQ(diags.all().size(), 1u) << diags.formatAll();
    EXPECT_EQ(diags.all()[0].format(),
        "c.yaml:5:11: warning: KubeSchedulerConfiguration: profiles[0].plugins.x: plugin "
        "\"PodTopologySpread\": its "
        "PreFilter is disabled while its Filter is enabled, which makes kube-scheduler's Filter fail every "
        "pod with an error; drasim runs the PreFilter for the Filter");
    auto r = c.schedule(spreadPod());
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.nodeName, "b1");
    // Disabled in multiPoint, enabled again at filter only: the multiPoint entry is named.
    ConfigProfile q;
    q.plugins.multiPoint.disabled.push_back(plugin("InterPodAffinity"));
    q.plugins.multiPoint.disabled.back().site.path = "profiles[0].plugins.multiPoint.disabled[0]";
    point(q, ExtensionPoint::Filter).enabled.push_back(plugin("InterPodAffinity"));
    Diagnostics again;
    optionsOf(q, again);
    ASSERT_EQ(again.all().size(), 1u) << again.formatAll();
    EXPECT_EQ(again.all()[0].fieldPath, "profiles[0].plugins.multiPoint.disabled[0]");
}

/// Twenty full nodes, each running one low-priority pod: every node is a preemption candidate.
api::ObjectSet fullNodes()
{
    api::ObjectSet o;
    for (int i = 0; i < 20; ++i) {
        o.nodes.push_back(node(numbered("n", i), {}, "4"));
        api::Pod low = pod(numbered("low", i));
        low.spec.containers[0].resources.requests["cpu"] = q("4");
        low.spec.priority = 1;
        low.spec.nodeName = o.nodes.back().meta.name;
        o.pods.push_back(low);
    }
    return o;
}

/// How many nodes the preemption dry run of a high-priority pod examined before it had enough
/// candidates, with the profile's DefaultPreemption args.
size_t nodesExamined(std::optional<int32_t> percentage, std::optional<int32_t> absolute)
{
    ConfigProfile p;
    p.minCandidateNodesPercentage = percentage;
    p.minCandidateNodesAbsolute = absolute;
    Diagnostics diags;
    Cluster c(fullNodes(), optionsOf(p, diags));
    api::Pod high = pod("high");
    high.spec.containers[0].resources.requests["cpu"] = q("2");
    high.spec.priority = 100;
    const auto r = c.schedule(high, true);
    EXPECT_TRUE(r.preemption && !r.preemption->nominatedNode.empty());
    size_t examined = 0;
    for (const auto& n : r.diagnosis->nodes)
        examined += n.preemption.rfind("would evict", 0) == 0;
    return examined;
}

} // namespace sched_config_plugins_test

using namespace sched_config_plugins_test;

TEST(SchedulerConfigPlugins, PreemptionSamplesTheConfiguredNumberOfCandidates)
{
    // calculateNumCandidates: max(nodes × percentage / 100, absolute), at most every node. The
    // defaults (10 %, 100) take all 20.
    EXPECT_EQ(nodesExamined(std::nullopt, std::nullopt), 20u);
    EXPECT_EQ(nodesExamined(0, 3), 3u);
    EXPECT_EQ(nodesExamined(50, 0), 10u);
    EXPECT_EQ(nodesExamined(24, 1), 4u); // 20 × 24 / 100 = 4.8, rounded down
    EXPECT_EQ(nodesExamined(10, std::nullopt), 20u); // 2, but at least 100
}
