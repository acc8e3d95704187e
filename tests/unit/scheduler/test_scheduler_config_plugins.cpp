// SPDX-License-Identifier: Apache-2.0
// What a KubeSchedulerConfiguration's plugin settings change in a cycle, beyond which score terms
// run (test_scheduler_config.cpp): PodTopologySpread's and InterPodAffinity's Filter disabled,
// DefaultPreemption's candidate sample, BalancedAllocation's resources, queueSort across profiles,
// the Filter order, and a Score plugin without its PreScore.
#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/scheduler_config.h"
#include "core/scheduler/scoring.h"
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

ConfigPlugin namedPlugin(const std::string& name)
{
    return ConfigPlugin { name, std::nullopt, { SourcePos { "c.yaml", 5, 11 }, "profiles[0].plugins.x" } };
}

scheduler::ConfigPluginSet& pluginsAt(ConfigProfile& p, ExtensionPoint e)
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
    pluginsAt(p, ExtensionPoint::Filter).disabled.push_back(namedPlugin(name));
    for (const char* scored : { "NodeResourcesFit", "NodeResourcesBalancedAllocation", name.c_str() })
        pluginsAt(p, ExtensionPoint::Score).disabled.push_back(namedPlugin(scored));
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
    pluginsAt(p, ExtensionPoint::PreFilter).disabled.push_back(namedPlugin("PodTopologySpread"));
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
    q.plugins.multiPoint.disabled.push_back(namedPlugin("InterPodAffinity"));
    q.plugins.multiPoint.disabled.back().site.path = "profiles[0].plugins.multiPoint.disabled[0]";
    pluginsAt(q, ExtensionPoint::Filter).enabled.push_back(namedPlugin("InterPodAffinity"));
    Diagnostics again;
    optionsOf(q, again);
    // Enabled at filter alone, it also runs after DynamicResources (test below).
    ASSERT_EQ(again.all().size(), 2u) << again.formatAll();
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

/// The errors (not warnings), one per line.
std::string errorsOf(const Diagnostics& diags)
{
    std::string out;
    for (const auto& x : diags.all())
        if (x.severity == Severity::Error)
            out += x.format() + "\n";
    return out;
}

/// A BalancedAllocation term over the resources named.
scheduler::ScoreTerm balancedOver(std::vector<std::string> names)
{
    scheduler::FitScoring f;
    for (auto& n : names)
        f.resources.push_back({ std::move(n), 1 });
    scheduler::ScoreTerm t
        = *scheduler::defaultScoreTerm(scheduler::ScorePlugin::NodeResourcesBalancedAllocation);
    t.fit = std::make_shared<const scheduler::FitScoring>(std::move(f));
    return t;
}

/// Two nodes with four GPUs as an extended resource; b runs a pod holding one of them.
api::ObjectSet gpuNodes()
{
    api::ObjectSet o;
    for (const char* name : { "a", "b" }) {
        o.nodes.push_back(node(name, {}, "8"));
        o.nodes.back().allocatable["nvidia.com/gpu"] = q("4");
        o.nodes.back().capacity = o.nodes.back().allocatable;
    }
    api::Pod holder = pod("holder");
    holder.spec.containers[0].resources.requests["nvidia.com/gpu"] = q("1");
    holder.spec.containers[0].resources.limits["nvidia.com/gpu"] = q("1");
    holder.spec.nodeName = "b";
    o.pods.push_back(holder);
    return o;
}

api::Pod gpuPod()
{
    api::Pod p = pod("trainer");
    p.spec.containers[0].resources.requests["cpu"] = q("4");
    p.spec.containers[0].resources.requests["nvidia.com/gpu"] = q("1");
    p.spec.containers[0].resources.limits["nvidia.com/gpu"] = q("1");
    return p;
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

TEST(SchedulerConfigPlugins, BalancedAllocationScoresTheStandardDeviationOfTheListedResources)
{
    scheduler::NodeUsage u;
    u.allocatable.milliCpu = 8000;
    u.allocatable.memory = 1000;
    u.allocatable.scalar["nvidia.com/gpu"] = 4;
    u.requested.milliCpu = 2000;
    u.requested.memory = 500;
    scheduler::PodRequests req;
    req.requests.milliCpu = 2000;
    req.requests.memory = 250;
    req.requests.scalar["nvidia.com/gpu"] = 1;
    scheduler::ScoreInputs in { nullptr, &req, nullptr, &u };
    // cpu 0.5, memory 0.75, gpu 0.25: mean 0.5, σ = √((0 + 0.0625 + 0.0625) / 3) = 0.2041,
    // (1 − σ) × 100 = 79.59 → 79.
    EXPECT_EQ(scheduler::rawScore(balancedOver({ "cpu", "memory", "nvidia.com/gpu" }), in), 79);
    // Two fractions: |0.5 − 0.25| / 2 = 0.125 → 87.
    EXPECT_EQ(scheduler::rawScore(balancedOver({ "cpu", "nvidia.com/gpu" }), in), 87);
    // cpu and memory listed are the default computation.
    EXPECT_EQ(scheduler::rawScore(balancedOver({ "cpu", "memory" }), in),
        scheduler::rawScore(
            *scheduler::defaultScoreTerm(scheduler::ScorePlugin::NodeResourcesBalancedAllocation), in));
    // An extended resource the node lacks is left out (cpu and memory remain: σ = 0.125 → 87).
    u.allocatable.scalar.clear();
    EXPECT_EQ(scheduler::rawScore(balancedOver({ "cpu", "memory", "nvidia.com/gpu" }), in), 87);
    // One fraction: no deviation.
    EXPECT_EQ(scheduler::rawScore(balancedOver({ "cpu" }), in), 100);
    // A pod that requests none of the resources is skipped by PreScore: 0 on every node.
    req.requests.scalar.clear();
    EXPECT_EQ(scheduler::rawScore(balancedOver({ "nvidia.com/gpu" }), in), 0);
}

TEST(SchedulerConfigPlugins, BalancedAllocationOverGpusPicksTheNodeWithEvenUse)
{
    // Only BalancedAllocation scores. Over cpu and memory both nodes score alike (a wins by name);
    // over cpu and GPUs, b (cpu 0.5, GPUs 0.5 after binding) beats a (cpu 0.5, GPUs 0.25).
    ConfigProfile p;
    for (const char* scored : { "NodeResourcesFit", "TaintToleration", "NodeAffinity" })
        pluginsAt(p, ExtensionPoint::Score).disabled.push_back(namedPlugin(scored));
    Diagnostics diags;
    Cluster byDefault(gpuNodes(), optionsOf(p, diags));
    auto r = byDefault.schedule(gpuPod());
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.nodeName, "a");
    scheduler::FitScoring gpus;
    gpus.resources = { { "cpu", 1 }, { "nvidia.com/gpu", 1 } };
    p.balanced = std::make_shared<const scheduler::FitScoring>(gpus);
    Cluster byGpus(gpuNodes(), optionsOf(p, diags));
    auto s = byGpus.schedule(gpuPod());
    ASSERT_TRUE(s.scheduled) << s.message;
    EXPECT_EQ(s.nodeName, "b");
}

TEST(SchedulerConfigPlugins, QueueSortMustBeTheSameForAllProfiles)
{
    ConfigDocument d;
    d.profiles.resize(3);
    for (size_t i = 0; i < 3; ++i) {
        d.profiles[i].schedulerName = "p" + std::to_string(i);
        d.profiles[i].site
            = { SourcePos { "c.yaml", int(4 + 6 * i), 5 }, "profiles[" + std::to_string(i) + "]" };
    }
    // The second profile writes what the first leaves to the defaults: the sets differ as written.
    ConfigPlugin sort = namedPlugin("PrioritySort");
    sort.site.pos = SourcePos { "c.yaml", 12, 23 };
    pluginsAt(d.profiles[1], ExtensionPoint::QueueSort).enabled.push_back(sort);
    Diagnostics diags;
    EXPECT_FALSE(scheduler::buildConfiguration(d, diags));
    EXPECT_EQ(errorsOf(diags),
        "c.yaml:12:23: KubeSchedulerConfiguration: profiles[1].plugins.queueSort: Invalid value: "
        "config.PluginSet{Enabled:[]config.Plugin{config.Plugin{Name:\"PrioritySort\", Weight:0}}, "
        "Disabled:[]config.Plugin(nil)}: must be the same for all profiles\n");
    // The same set in every profile is accepted (a disabled list compares by name).
    for (auto& p : d.profiles) {
        pluginsAt(p, ExtensionPoint::QueueSort).enabled = { sort };
        pluginsAt(p, ExtensionPoint::QueueSort).disabled = { namedPlugin("*") };
    }
    Diagnostics same;
    EXPECT_TRUE(scheduler::buildConfiguration(d, same)) << same.formatAll();
    // A weight differs: the third profile's set is named, located at the profile when it is empty.
    pluginsAt(d.profiles[2], ExtensionPoint::QueueSort).enabled.clear();
    pluginsAt(d.profiles[2], ExtensionPoint::QueueSort).disabled.clear();
    pluginsAt(d.profiles[1], ExtensionPoint::QueueSort).enabled.front().weight = 3;
    Diagnostics two;
    EXPECT_FALSE(scheduler::buildConfiguration(d, two));
    EXPECT_EQ(errorsOf(two),
        "c.yaml:12:23: KubeSchedulerConfiguration: profiles[1].plugins.queueSort: Invalid value: "
        "config.PluginSet{Enabled:[]config.Plugin{config.Plugin{Name:\"PrioritySort\", Weight:3}}, "
        "Disabled:[]config.Plugin{config.Plugin{Name:\"*\", Weight:0}}}: must be the same for "
        "all profiles\n"
        "c.yaml:16:5: KubeSchedulerConfiguration: profiles[2].plugins.queueSort: Invalid value: "
        "config.PluginSet{Enabled:[]config.Plugin(nil), Disabled:[]config.Plugin(nil)}: must "
        "be the same for all profiles\n");
}

TEST(SchedulerConfigPlugins, TheFirstProfileEnablesOneQueueSortAtMost)
{
    ConfigProfile p;
    p.site = { SourcePos { "c.yaml", 4, 5 }, "profiles[0]" };
    pluginsAt(p, ExtensionPoint::QueueSort).enabled
        = { namedPlugin("PrioritySort"), namedPlugin("PrioritySort") };
    ConfigDocument d;
    d.profiles = { p };
    Diagnostics diags;
    EXPECT_FALSE(scheduler::buildConfiguration(d, diags));
    std::vector<std::string> got;
    for (const auto& x : diags.all())
        got.push_back(x.message);
    EXPECT_NE(
        std::find(got.begin(), got.end(), "Invalid value: 2: only one queue sort plugin can be enabled"),
        got.end())
        << diags.formatAll();
    EXPECT_EQ(diags.all().back().fieldPath, "profiles[0].plugins.queueSort.Enabled");
}

/// A node with an untolerated taint and too little cpu for the pod.
api::ObjectSet taintedSmallNode()
{
    api::ObjectSet o;
    o.nodes.push_back(node("n0", {}, "1"));
    o.nodes.back().taints.push_back(api::Taint { "dedicated", "gpu", "NoSchedule", "" });
    return o;
}

std::vector<std::string> reasonsOnFirstNode(const scheduler::SchedulerOptions& options)
{
    Cluster c(taintedSmallNode(), options);
    api::Pod p = pod("big");
    p.spec.containers[0].resources.requests["cpu"] = q("2");
    const auto r = c.schedule(p, true);
    EXPECT_FALSE(r.scheduled);
    return r.diagnosis ? r.diagnosis->nodes.at(0).nodeReasons : std::vector<std::string> {};
}

TEST(SchedulerConfigPlugins, FiltersRunInTheConfiguredOrderAndTheFirstRejectionNamesTheReason)
{
    // Default order: TaintToleration before NodeResourcesFit.
    EXPECT_EQ(reasonsOnFirstNode({}),
        std::vector<std::string> { "node(s) had untolerated taint {dedicated: gpu}" });
    // Enabled at filter, NodeResourcesFit overrides its multiPoint entry and runs first
    // (expandMultiPointPlugins: overrides, then multiPoint's, then the point's others).
    ConfigProfile p;
    pluginsAt(p, ExtensionPoint::Filter).enabled.push_back(namedPlugin("NodeResourcesFit"));
    Diagnostics diags;
    const auto options = optionsOf(p, diags);
    EXPECT_TRUE(diags.all().empty()) << diags.formatAll();
    ASSERT_EQ(options.profiles->front().filterOrder.front(), scheduler::FilterPlugin::NodeResourcesFit);
    EXPECT_EQ(reasonsOnFirstNode(options), std::vector<std::string> { "Insufficient cpu" });
}

TEST(SchedulerConfigPlugins, InterPodAffinityOrderedFirstNamesItsReason)
{
    // Zone a breaks both the spread constraint and the anti-affinity of the pod.
    api::Pod both = spreadPod();
    both.spec.podAntiAffinity = antiAffinityPod().spec.podAntiAffinity;
    auto reasonOnA1 = [&](const scheduler::SchedulerOptions& options) {
        Cluster c(twoZones(), options);
        const auto r = c.schedule(both, true);
        EXPECT_EQ(r.nodeName, "b1");
        for (const auto& n : r.diagnosis->nodes)
            if (n.node == "a1")
                return n.nodeReasons;
        return std::vector<std::string> {};
    };
    EXPECT_EQ(
        reasonOnA1({}), std::vector<std::string> { "node(s) didn't match pod topology spread constraints" });
    ConfigProfile p;
    pluginsAt(p, ExtensionPoint::Filter).enabled.push_back(namedPlugin("InterPodAffinity"));
    Diagnostics diags;
    EXPECT_EQ(reasonOnA1(optionsOf(p, diags)),
        std::vector<std::string> { "node(s) didn't match pod anti-affinity rules" });
    // The default order written out is the default path.
    ConfigProfile same;
    for (const char* name : { "NodeUnschedulable", "TaintToleration", "NodeAffinity", "NodeResourcesFit" })
        pluginsAt(same, ExtensionPoint::Filter).enabled.push_back(namedPlugin(name));
    EXPECT_TRUE(optionsOf(same, diags).profiles->front().filterOrder.empty());
}

TEST(SchedulerConfigPlugins, DynamicResourcesOrderedBeforeAnotherFilterIsAWarning)
{
    ConfigProfile p;
    pluginsAt(p, ExtensionPoint::Filter).enabled.push_back(namedPlugin("DynamicResources"));
    Diagnostics diags;
    optionsOf(p, diags);
    ASSERT_EQ(diags.all().size(), 1u) << diags.formatAll();
    EXPECT_EQ(diags.all()[0].format(),
        "c.yaml:5:11: warning: KubeSchedulerConfiguration: profiles[0].plugins.x: plugin "
        "\"DynamicResources\" "
        "is ordered before \"NodeUnschedulable\" at filter: drasim runs its Filter after the others, so a "
        "node both reject reports \"NodeUnschedulable\"'s reason");
}

namespace sched_config_plugins_test {

/// A pod that prefers zone a (the busier one) strongly: NodeAffinity's score decides.
api::Pod prefersZoneA()
{
    api::Pod p = web("w2");
    api::PreferredSchedulingTerm t;
    t.weight = 100;
    t.preference.matchExpressions = { { kZone, "In", { "a" } } };
    p.spec.nodeAffinity = api::NodeAffinity {};
    p.spec.nodeAffinity->preferred = { t };
    return p;
}

const char* const kNoPreScoreWarning
    = "\": its PreScore is disabled while its Score is enabled, so its Score finds no PreScore state: "
      "kube-scheduler fails every pod with two or more feasible nodes with an error";

} // namespace sched_config_plugins_test

// TaintToleration's Score reads the state its PreScore writes and fails without it
// (taint_toleration.go getPreScoreState); RunScorePlugins wraps the error (framework.go).
TEST(SchedulerConfigPlugins, ScoreWithoutItsPreScoreFailsEveryScoredPodWithAnError)
{
    ConfigProfile p;
    pluginsAt(p, ExtensionPoint::PreScore).disabled.push_back(namedPlugin("TaintToleration"));
    Diagnostics diags;
    const auto options = optionsOf(p, diags);
    ASSERT_EQ(diags.all().size(), 1u) << diags.formatAll();
    EXPECT_EQ(diags.all()[0].format(),
        std::string("c.yaml:5:11: warning: KubeSchedulerConfiguration: profiles[0].plugins.x: plugin "
                    "\"TaintToleration")
            + kNoPreScoreWarning);
    Cluster c(twoZones(), options);
    const auto r = c.schedule(web("w2"), true);
    EXPECT_FALSE(r.scheduled);
    EXPECT_EQ(r.failure, scheduler::FailureKind::AllocatorError);
    EXPECT_FALSE(r.preemption);
    EXPECT_EQ(r.message,
        "running Score plugins: plugin \"TaintToleration\" failed with: failed to read "
        "\"PreScoreTaintToleration\" from cycleState: not found");
    ASSERT_TRUE(r.diagnosis);
    EXPECT_EQ(r.diagnosis->message, r.message);
    // schedulePod binds a single feasible node without scoring it.
    api::ObjectSet one = twoZones();
    one.nodes.resize(1);
    Cluster single(one, options);
    const auto s = single.schedule(web("w2"));
    ASSERT_TRUE(s.scheduled) << s.message;
    EXPECT_EQ(s.nodeName, "a1");
}

// PodTopologySpread's and InterPodAffinity's Score fail the same way, with their own words, even
// for a pod their PreScore would have skipped (no soft constraint, no affinity).
TEST(SchedulerConfigPlugins, EachPreScoreReaderFailsInItsOwnWords)
{
    const std::pair<const char*, const char*> readers[] = {
        { "PodTopologySpread", "error reading \"PreScorePodTopologySpread\" from cycleState: not found" },
        { "InterPodAffinity", "failed to read \"PreScoreInterPodAffinity\" from cycleState: not found" },
    };
    for (const auto& [plugin, words] : readers) {
        ConfigProfile p;
        pluginsAt(p, ExtensionPoint::PreScore).disabled.push_back(namedPlugin(plugin));
        Diagnostics diags;
        Cluster c(twoZones(), optionsOf(p, diags));
        EXPECT_EQ(diags.all().size(), 1u) << diags.formatAll();
        const auto r = c.schedule(web("w2"));
        EXPECT_FALSE(r.scheduled) << plugin;
        EXPECT_EQ(
            r.message, std::string("running Score plugins: plugin \"") + plugin + "\" failed with: " + words);
    }
}

// With every PreScore disabled the first failing Score plugin in the framework's order names the
// error: multiPoint's order (TaintToleration first), unless the score point enables one of them
// itself, which puts it first (expandMultiPointPlugins).
TEST(SchedulerConfigPlugins, TheFirstFailingScorePluginInFrameworkOrderNamesTheError)
{
    ConfigProfile p;
    pluginsAt(p, ExtensionPoint::PreScore).disabled.push_back(namedPlugin("*"));
    Diagnostics diags;
    const auto options = optionsOf(p, diags);
    EXPECT_EQ(diags.all().size(), 3u) << diags.formatAll();
    Cluster c(twoZones(), options);
    EXPECT_EQ(c.schedule(web("w2")).message,
        "running Score plugins: plugin \"TaintToleration\" failed with: failed to read "
        "\"PreScoreTaintToleration\" from cycleState: not found");
    ConfigPlugin own = namedPlugin("InterPodAffinity");
    own.weight = 2;
    pluginsAt(p, ExtensionPoint::Score).enabled.push_back(own);
    Diagnostics again;
    Cluster first(twoZones(), optionsOf(p, again));
    EXPECT_EQ(first.schedule(web("w2")).message,
        "running Score plugins: plugin \"InterPodAffinity\" failed with: failed to read "
        "\"PreScoreInterPodAffinity\" from cycleState: not found");
}

// NodeAffinity, NodeResourcesFit and NodeResourcesBalancedAllocation compute their PreScore state
// again in Score when it is missing (node_affinity.go, fit.go, balanced_allocation.go): disabling
// their PreScore changes nothing.
TEST(SchedulerConfigPlugins, ScorePluginsThatRecomputeTheirStateScoreAsBefore)
{
    ConfigProfile p;
    for (const char* name : { "NodeAffinity", "NodeResourcesFit", "NodeResourcesBalancedAllocation" })
        pluginsAt(p, ExtensionPoint::PreScore).disabled.push_back(namedPlugin(name));
    Diagnostics diags;
    Cluster c(twoZones(), optionsOf(p, diags));
    EXPECT_TRUE(diags.all().empty()) << diags.formatAll();
    const auto r = c.schedule(prefersZoneA());
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.nodeName, "a1");
    Cluster defaults(twoZones());
    EXPECT_EQ(defaults.schedule(prefersZoneA()).nodeName, "a1");
    // Without the preference the emptier node wins.
    EXPECT_EQ(c.schedule(web("w3")).nodeName, "b1");
}
