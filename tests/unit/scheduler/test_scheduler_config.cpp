// SPDX-License-Identifier: Apache-2.0
// KubeSchedulerConfiguration profiles (core/scheduler/scheduler_config.h): upstream's defaults
// and plugin merging, the framework's errors, and laws: a configuration equal to the defaults
// schedules exactly as no configuration; MostAllocated through the configuration is the
// most-allocated policy; a disabled plugin no longer filters or scores; pods pick their profile by
// spec.schedulerName.
#include <algorithm>
#include <random>
#include <set>

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

namespace sched_config_test {

ConfigPlugin plugin(const std::string& name, std::optional<int32_t> weight = std::nullopt)
{
    return ConfigPlugin { name, weight, { SourcePos { "c.yaml", 3, 7 }, "profiles[0].plugins.x" } };
}

scheduler::ConfigPluginSet& point(ConfigProfile& p, ExtensionPoint e)
{
    return p.plugins.points[size_t(e)];
}

std::optional<scheduler::SchedulerConfiguration> build(const ConfigDocument& doc, Diagnostics& diags)
{
    return scheduler::buildConfiguration(doc, diags);
}

ConfigDocument oneProfile(const ConfigProfile& p)
{
    ConfigDocument d;
    d.profiles.push_back(p);
    return d;
}

scheduler::SchedulerOptions optionsWith(const scheduler::SchedulerConfiguration& c)
{
    scheduler::SchedulerOptions o;
    o.profiles = std::make_shared<const std::vector<scheduler::SchedulerProfile>>(c.profiles);
    o.percentageOfNodesToScore = c.percentageOfNodesToScore;
    return o;
}

scheduler::SchedulerOptions optionsOf(const ConfigProfile& p)
{
    Diagnostics diags;
    auto c = build(oneProfile(p), diags);
    EXPECT_TRUE(c) << diags.formatAll();
    return optionsWith(*c);
}

/// The terms as comparable text, in a fixed order.
std::set<std::string> termsText(const scheduler::ScoringProfile& p)
{
    std::set<std::string> out;
    for (const auto& t : p.terms)
        out.insert(std::to_string(int(t.plugin)) + "/" + std::to_string(int(t.strategy)) + "/"
            + std::to_string(t.weight) + "/" + std::to_string(int(t.normalization)) + "/"
            + std::to_string(int(t.dependsOn)) + (t.fit ? "/fit" : ""));
    return out;
}

api::Pod cpuPodOf(const std::string& name, const std::string& cpu, const std::string& nodeName = "")
{
    api::Pod p = pod(name);
    p.spec.containers[0].resources.requests["cpu"] = q(cpu);
    p.spec.nodeName = nodeName;
    return p;
}

/// A random cluster that exercises every default term: 3-40 nodes (more than 100 now and then)
/// of varied size, some tainted PreferNoSchedule or NoSchedule, some unschedulable, labelled
/// by zone, some running pods; GPUs on some, the one-gpu template.
api::ObjectSet randomConfigCluster(std::mt19937_64& rng)
{
    api::ObjectSet o;
    const int count = rng() % 6 == 0 ? 101 + int(rng() % 40) : 3 + int(rng() % 38);
    for (int i = 0; i < count; ++i) {
        const std::string name = numbered("n", i);
        api::Node n = node(name, { { "zone", "z" + std::to_string(rng() % 3) } },
            std::to_string(2 + rng() % 14), std::to_string(4 + rng() % 60) + "Gi");
        if (rng() % 5 == 0)
            n.taints.push_back({ "soft", "", "PreferNoSchedule", "" });
        if (rng() % 9 == 0)
            n.taints.push_back({ "hard", "", "NoSchedule", "" });
        n.unschedulable = rng() % 15 == 0;
        o.nodes.push_back(n);
        if (rng() % 3 == 0)
            o.pods.push_back(cpuPodOf(numbered("busy", i), std::to_string(1 + rng() % 3), name));
        if (rng() % 2)
            o.resourceSlices.push_back(
                slice(numbered("s", i), kDrv, name, name, { device("gpu-0"), device("gpu-1") }));
    }
    addOneGpuClassAndTemplate(o);
    return o;
}

api::Pod randomConfigPod(std::mt19937_64& rng, int k)
{
    api::Pod p = k % 4 == 0 ? pod(numbered("p", k), {}, { { "gpu", "one-gpu" } }) : pod(numbered("p", k));
    p.spec.containers[0].resources.requests["cpu"] = q(std::to_string(100 * (1 + rng() % 30)) + "m");
    if (rng() % 2)
        p.spec.containers[0].resources.requests["memory"] = q(std::to_string(1 + rng() % 8) + "Gi");
    if (rng() % 4 == 0)
        p.spec.tolerations.push_back({ "hard", "Exists", "", "", std::nullopt });
    if (rng() % 3 == 0) {
        api::NodeAffinity a;
        api::PreferredSchedulingTerm t;
        t.weight = int32_t(1 + rng() % 100);
        t.preference.matchExpressions.push_back({ "zone", "In", { "z" + std::to_string(rng() % 3) } });
        a.preferred.push_back(t);
        p.spec.nodeAffinity = a;
    }
    return p;
}

std::string placementOf(const scheduler::ScheduleResult& r)
{
    std::string out = r.nodeName + " " + r.message;
    for (const auto& d : r.allocated)
        out += " " + d.pool + "/" + d.device;
    if (r.preemption)
        out += " nominated " + r.preemption->nominatedNode;
    return out;
}

/// Schedules the same random pods (some finishing) on both clusters; the first difference.
std::string firstDifference(Cluster& a, Cluster& b, std::mt19937_64& rng, int pods)
{
    std::vector<std::string> bound;
    for (int k = 0; k < pods; ++k) {
        if (!bound.empty() && rng() % 5 == 0) {
            const size_t i = rng() % bound.size();
            a.podFinished(bound[i]);
            b.podFinished(bound[i]);
            bound.erase(bound.begin() + std::ptrdiff_t(i));
        }
        const api::Pod p = randomConfigPod(rng, k);
        const bool explain = rng() % 7 == 0;
        const auto ra = a.schedule(p, explain);
        const auto rb = b.schedule(p, explain);
        if (placementOf(ra) != placementOf(rb))
            return "pod " + std::to_string(k) + ": " + placementOf(ra) + " | " + placementOf(rb);
        if (ra.scheduled)
            bound.push_back("default/" + p.meta.name);
    }
    return {};
}

} // namespace sched_config_test

using namespace sched_config_test;

TEST(SchedulerConfig, NothingSetIsKubeSchedulersDefaultProfile)
{
    const auto c = scheduler::defaultConfiguration();
    ASSERT_EQ(c.profiles.size(), 1u);
    const auto& p = c.profiles[0];
    EXPECT_EQ(p.schedulerName, "default-scheduler");
    EXPECT_EQ(p.filters, scheduler::kAllFilters);
    EXPECT_TRUE(p.preemption);
    EXPECT_FALSE(p.percentageOfNodesToScore);
    EXPECT_EQ(termsText(p.scoring), termsText(scheduler::scoringProfile(scheduler::ScoringPolicy::Default)));
    EXPECT_EQ(c.percentageOfNodesToScore, 0);
    EXPECT_EQ(c.podInitialBackoffSeconds, 1);
    EXPECT_EQ(c.podMaxBackoffSeconds, 10);
    EXPECT_FALSE(c.filterTimeoutSeconds);
}

TEST(SchedulerConfig, DefaultWeightsAreDefaultPluginsGo)
{
    const auto c = scheduler::defaultConfiguration();
    std::map<scheduler::ScorePlugin, int64_t> weights;
    for (const auto& t : c.profiles[0].scoring.terms)
        weights[t.plugin] = t.weight;
    using P = scheduler::ScorePlugin;
    EXPECT_EQ(weights,
        (std::map<P, int64_t> { { P::PodTopologySpread, 2 }, { P::InterPodAffinity, 2 },
            { P::NodeResourcesFit, 1 }, { P::NodeResourcesBalancedAllocation, 1 }, { P::TaintToleration, 3 },
            { P::NodeAffinity, 2 }, { P::DynamicResources, 1 } }));
    // ImageLocality has nothing to score in a simulated cluster; its weight is kept in the table.
    EXPECT_EQ(scheduler::findPlugin("PodTopologySpread")->defaultWeight, 2);
    EXPECT_EQ(scheduler::findPlugin("InterPodAffinity")->defaultWeight, 2);
    EXPECT_EQ(scheduler::findPlugin("ImageLocality")->defaultWeight, 1);
}

TEST(SchedulerConfig, ADefaultConfigurationSchedulesAsNoConfigurationOverRandomClusters)
{
    // Law: the defaults written out as a configuration are today's scheduler, byte for byte.
    for (uint64_t seed = 1; seed <= 25; ++seed) {
        std::mt19937_64 rng(seed);
        const api::ObjectSet o = randomConfigCluster(rng);
        Cluster plain(o);
        Cluster configured(o, optionsWith(scheduler::defaultConfiguration()));
        ASSERT_EQ(firstDifference(plain, configured, rng, 80), "") << "seed " << seed;
    }
}

TEST(SchedulerConfig, MostAllocatedThroughTheConfigurationIsTheMostAllocatedPolicy)
{
    // The most-allocated policy is NodeResourcesFit with MostAllocated and no
    // BalancedAllocation term: the same written as a configuration.
    ConfigProfile p;
    p.fitStrategy = scheduler::FitStrategy::MostAllocated;
    point(p, ExtensionPoint::Score).disabled.push_back(plugin("NodeResourcesBalancedAllocation"));
    const auto configured = optionsOf(p);
    EXPECT_EQ(termsText(configured.profiles->front().scoring),
        termsText(scheduler::scoringProfile(scheduler::ScoringPolicy::MostAllocated)));
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        std::mt19937_64 rng(seed);
        const api::ObjectSet o = randomConfigCluster(rng);
        scheduler::SchedulerOptions named;
        named.scoring = scheduler::ScoringPolicy::MostAllocated;
        Cluster a(o, named);
        Cluster b(o, configured);
        ASSERT_EQ(firstDifference(a, b, rng, 60), "") << "seed " << seed;
    }
}

TEST(SchedulerConfig, DisabledFiltersNoLongerReject)
{
    struct Case
    {
        const char* plugin;
        std::function<void(api::Node&, api::Pod&)> make;
    };
    const std::vector<Case> cases {
        { "NodeUnschedulable", [](api::Node& n, api::Pod&) { n.unschedulable = true; } },
        { "TaintToleration",
            [](api::Node& n, api::Pod&) {
                n.taints.push_back({ "k", "v", "NoSchedule", "" });
            } },
        { "NodeAffinity", [](api::Node&, api::Pod& p) { p.spec.nodeSelector["zone"] = "nowhere"; } },
        { "NodeResourcesFit",
            [](api::Node&, api::Pod& p) { p.spec.containers[0].resources.requests["cpu"] = q("64"); } },
    };
    for (const auto& c : cases) {
        api::ObjectSet o;
        o.nodes.push_back(node("n0"));
        api::Pod p = cpuPodOf("p", "1");
        c.make(o.nodes[0], p);
        Cluster defaults(o, optionsWith(scheduler::defaultConfiguration()));
        EXPECT_FALSE(defaults.schedule(p).scheduled) << c.plugin;
        ConfigProfile profile;
        point(profile, ExtensionPoint::Filter).disabled.push_back(plugin(c.plugin));
        Cluster without(o, optionsOf(profile));
        EXPECT_EQ(without.schedule(p).nodeName, "n0") << c.plugin << " still filters";
    }
}

TEST(SchedulerConfig, ADisabledScorePluginNoLongerScoresAndWeightsCount)
{
    // n-a has a PreferNoSchedule taint and sorts first by name: TaintToleration's score sends the
    // pod to n-b, and without it the name tie-break keeps n-a.
    api::ObjectSet o;
    o.nodes.push_back(node("n-a"));
    o.nodes.back().taints.push_back({ "soft", "", "PreferNoSchedule", "" });
    o.nodes.push_back(node("n-b"));
    Cluster defaults(o, optionsWith(scheduler::defaultConfiguration()));
    EXPECT_EQ(defaults.schedule(cpuPodOf("p", "1")).nodeName, "n-b");
    ConfigProfile off;
    point(off, ExtensionPoint::Score).disabled.push_back(plugin("TaintToleration"));
    Cluster without(o, optionsOf(off));
    EXPECT_EQ(without.schedule(cpuPodOf("p", "1")).nodeName, "n-a");
    // multiPoint disables it everywhere: it neither filters nor scores.
    ConfigProfile everywhere;
    everywhere.plugins.multiPoint.disabled.push_back(plugin("TaintToleration"));
    const auto opts = optionsOf(everywhere);
    EXPECT_FALSE(opts.profiles->front().filterEnabled(scheduler::FilterPlugin::TaintToleration));
    EXPECT_TRUE(std::none_of(opts.profiles->front().scoring.terms.begin(),
        opts.profiles->front().scoring.terms.end(),
        [](const scheduler::ScoreTerm& t) { return t.plugin == scheduler::ScorePlugin::TaintToleration; }));

    // A heavy NodeResourcesFit outweighs the taint: n-a is emptier, and its LeastAllocated score
    // times 50 beats TaintToleration's 3 × 100.
    api::ObjectSet busy = o;
    busy.pods.push_back(cpuPodOf("filler", "6", "n-b"));
    Cluster balanced(busy, optionsWith(scheduler::defaultConfiguration()));
    EXPECT_EQ(balanced.schedule(cpuPodOf("p", "1")).nodeName, "n-b");
    ConfigProfile heavy;
    point(heavy, ExtensionPoint::Score).enabled.push_back(plugin("NodeResourcesFit", 50));
    Cluster weighted(busy, optionsOf(heavy));
    EXPECT_EQ(weighted.schedule(cpuPodOf("p", "1")).nodeName, "n-a");
}

TEST(SchedulerConfig, DisabledPreemptionNominatesNobody)
{
    api::ObjectSet o;
    o.nodes.push_back(node("n0", {}, "4"));
    api::Pod low = cpuPodOf("low", "3", "n0");
    low.spec.priority = 1;
    o.pods.push_back(low);
    api::Pod high = cpuPodOf("high", "2");
    high.spec.priority = 100;
    Cluster defaults(o, optionsWith(scheduler::defaultConfiguration()));
    const auto r = defaults.schedule(high);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "n0");
    ConfigProfile p;
    point(p, ExtensionPoint::PostFilter).disabled.push_back(plugin("DefaultPreemption"));
    Cluster without(o, optionsOf(p));
    const auto s = without.schedule(high);
    EXPECT_FALSE(s.scheduled);
    EXPECT_FALSE(s.preemption);
}

TEST(SchedulerConfig, PodsPickTheirProfileBySchedulerName)
{
    ConfigDocument d;
    ConfigProfile spread, pack;
    spread.schedulerName = "default-scheduler";
    pack.schedulerName = "bin-packer";
    pack.fitStrategy = scheduler::FitStrategy::MostAllocated;
    point(pack, ExtensionPoint::Score).disabled.push_back(plugin("NodeResourcesBalancedAllocation"));
    d.profiles = { spread, pack };
    Diagnostics diags;
    const auto c = build(d, diags);
    ASSERT_TRUE(c) << diags.formatAll();
    api::ObjectSet o;
    o.nodes.push_back(node("n-a"));
    o.nodes.push_back(node("n-b"));
    o.pods.push_back(cpuPodOf("filler", "4", "n-b"));
    Cluster cluster(o, optionsWith(*c));
    EXPECT_EQ(cluster.schedule(cpuPodOf("spread", "1")).nodeName, "n-a");
    api::Pod packed = cpuPodOf("packed", "1");
    packed.spec.schedulerName = "bin-packer";
    EXPECT_EQ(cluster.schedule(packed).nodeName, "n-b");
    // A scheduler no profile has: no cycle, no status, the explanation says why.
    api::Pod other = cpuPodOf("other", "1");
    other.spec.schedulerName = "volcano";
    const auto r = cluster.schedule(other, true);
    EXPECT_FALSE(r.scheduled);
    EXPECT_EQ(r.failure, scheduler::FailureKind::NoProfile);
    EXPECT_EQ(r.message,
        "pod's schedulerName \"volcano\" is not a profile of the scheduler configuration: this scheduler "
        "never "
        "schedules it");
    ASSERT_TRUE(r.diagnosis);
    EXPECT_EQ(r.diagnosis->message, r.message);
    // Without a configuration every pod is scheduled, whatever its schedulerName (as before).
    Cluster plain(o);
    EXPECT_TRUE(plain.schedule(other).scheduled);
}

TEST(SchedulerConfig, ProfilePercentageOfNodesToScoreOverridesTheConfigurations)
{
    ConfigDocument d;
    d.percentageOfNodesToScore = 30;
    ConfigProfile a, b;
    a.schedulerName = "a";
    b.schedulerName = "b";
    b.percentageOfNodesToScore = 70;
    d.profiles = { a, b };
    Diagnostics diags;
    const auto c = build(d, diags);
    ASSERT_TRUE(c);
    const auto o = optionsWith(*c);
    EXPECT_EQ(scheduler::percentageOfNodesToScore(o, c->profiles[0]), 30);
    EXPECT_EQ(scheduler::percentageOfNodesToScore(o, c->profiles[1]), 70);
}

TEST(SchedulerConfig, FrameworkErrorsAreLocatedWhereTheNameIsWritten)
{
    struct Case
    {
        std::function<void(ConfigProfile&)> make;
        std::string message;
    };
    const std::vector<Case> cases {
        { [](ConfigProfile& p) { point(p, ExtensionPoint::Score).enabled.push_back(plugin("Coscheduling")); },
            "c.yaml:3:7: KubeSchedulerConfiguration: profiles[0].plugins.x: ScorePlugin \"Coscheduling\" "
            "does not "
            "exist" },
        { [](ConfigProfile& p) { p.plugins.multiPoint.enabled.push_back(plugin("Coscheduling")); },
            "c.yaml:3:7: KubeSchedulerConfiguration: profiles[0].plugins.x: PreFilterPlugin \"Coscheduling\" "
            "does "
            "not exist" },
        { [](ConfigProfile& p) {
             point(p, ExtensionPoint::Filter).enabled.push_back(plugin("ImageLocality"));
         },
            "c.yaml:3:7: KubeSchedulerConfiguration: profiles[0].plugins.x: plugin \"ImageLocality\" does "
            "not "
            "extend FilterPlugin plugin" },
        { [](ConfigProfile& p) {
             point(p, ExtensionPoint::Score).enabled.push_back(plugin("NodeAffinity"));
             point(p, ExtensionPoint::Score).enabled.push_back(plugin("NodeAffinity"));
         },
            "c.yaml:3:7: KubeSchedulerConfiguration: profiles[0].plugins.x: plugin \"NodeAffinity\" already "
            "registered as \"ScorePlugin\"" },
        { [](ConfigProfile& p) { point(p, ExtensionPoint::Filter).enabled.push_back(plugin("EBSLimits")); },
            "c.yaml:3:7: KubeSchedulerConfiguration: profiles[0].plugins.x: Invalid value: \"EBSLimits\": "
            "was "
            "invalid in version \"kubescheduler.config.k8s.io/v1\" (KubeSchedulerConfiguration is version "
            "\"kubescheduler.config.k8s.io/v1\")" },
        { [](ConfigProfile& p) { point(p, ExtensionPoint::Filter).disabled.push_back(plugin("*")); },
            "KubeSchedulerConfiguration: DynamicResources is not enabled at filter: drasim runs every pod "
            "through "
            "the DRA allocator and does not model a profile without it" },
    };
    for (const auto& c : cases) {
        ConfigProfile p;
        c.make(p);
        Diagnostics diags;
        EXPECT_FALSE(build(oneProfile(p), diags));
        const auto& all = diags.all();
        const auto error = std::find_if(
            all.begin(), all.end(), [](const Diagnostic& x) { return x.severity == Severity::Error; });
        ASSERT_NE(error, all.end());
        EXPECT_EQ(error->format(), c.message);
    }
}

TEST(SchedulerConfig, ProfileNamesAndBackoffsAreValidated)
{
    ConfigDocument d;
    d.profiles.resize(2);
    d.profiles[1].schedulerName = "x";
    d.profiles[1].schedulerNameSite = { SourcePos { "c.yaml", 9, 21 }, "profiles[1].schedulerName" };
    d.profiles[0].site = { SourcePos { "c.yaml", 4, 5 }, "profiles[0]" };
    d.podInitialBackoffSeconds = 5;
    d.podInitialBackoffSite = { SourcePos { "c.yaml", 2, 27 }, "podInitialBackoffSeconds" };
    d.podMaxBackoffSeconds = 2;
    d.podMaxBackoffSite = { SourcePos { "c.yaml", 3, 23 }, "podMaxBackoffSeconds" };
    Diagnostics diags;
    EXPECT_FALSE(build(d, diags));
    std::vector<std::string> got;
    for (const auto& x : diags.all())
        got.push_back(x.format());
    EXPECT_EQ(got,
        (std::vector<std::string> {
            "c.yaml:4:5: KubeSchedulerConfiguration: profiles[0].schedulerName: Required value",
            "c.yaml:3:23: KubeSchedulerConfiguration: podMaxBackoffSeconds: Invalid value: 2: must be "
            "greater than or "
            "equal to PodInitialBackoffSeconds",
        }));
    d.profiles[0].schedulerName = "x";
    d.profiles[0].schedulerNameSite = d.profiles[1].schedulerNameSite;
    d.podMaxBackoffSeconds = 10;
    d.podInitialBackoffSeconds = 0;
    Diagnostics again;
    EXPECT_FALSE(build(d, again));
    ASSERT_EQ(again.all().size(), 2u);
    EXPECT_EQ(again.all()[0].message, "Duplicate value: \"x\"");
    EXPECT_EQ(again.all()[1].message, "Invalid value: 0: must be greater than 0");
}

TEST(SchedulerConfig, PluginsDrasimDoesNotActOnAreWarnings)
{
    ConfigProfile p;
    point(p, ExtensionPoint::Score).enabled.push_back(plugin("ImageLocality", 5));
    point(p, ExtensionPoint::Score).disabled.push_back(plugin("GangScheduling"));
    point(p, ExtensionPoint::Filter).disabled.push_back(plugin("PodTopologySpread"));
    point(p, ExtensionPoint::Filter).disabled.push_back(plugin("NoSuchPlugin"));
    Diagnostics diags;
    ASSERT_TRUE(build(oneProfile(p), diags));
    EXPECT_FALSE(diags.hasErrors());
    std::vector<std::string> got;
    for (const auto& x : diags.all())
        got.push_back(x.message);
    EXPECT_EQ(got,
        (std::vector<std::string> {
            // multiPoint, then the extension points in the framework's order (filter before
            // score); disabling PodTopologySpread's Filter is honoured, so it is no warning.
            "no plugin \"NoSuchPlugin\" exists: disabling it changes nothing",
            "plugin \"ImageLocality\" is accepted and not modelled: it has nothing to act on in a simulated "
            "cluster, so this setting changes no result",
            "plugin \"GangScheduling\" is not modelled by drasim: this setting is accepted and not honoured",
        }));
}

TEST(SchedulerConfig, ZeroAndMissingWeightsScoreOneAndTheScorePointsWeightWins)
{
    ConfigProfile p;
    p.plugins.multiPoint.enabled.push_back(plugin("NodeAffinity", 0));
    p.plugins.multiPoint.enabled.push_back(plugin("TaintToleration", 7));
    point(p, ExtensionPoint::Score).enabled.push_back(plugin("TaintToleration", 9));
    const auto o = optionsOf(p);
    std::map<scheduler::ScorePlugin, int64_t> weights;
    for (const auto& t : o.profiles->front().scoring.terms)
        weights[t.plugin] = t.weight;
    EXPECT_EQ(weights[scheduler::ScorePlugin::NodeAffinity], 1);
    EXPECT_EQ(weights[scheduler::ScorePlugin::TaintToleration], 9);
}

TEST(SchedulerConfig, ResourceWeightsAndRequestedToCapacityRatioScoreAsUpstream)
{
    scheduler::NodeUsage u;
    u.allocatable.milliCpu = 8000;
    u.allocatable.memory = 1000;
    u.allocatable.scalar["example.com/gpu"] = 4;
    u.nonZeroMilliCpu = 2000;
    u.nonZeroMemory = 500;
    scheduler::PodRequests pod;
    pod.nonZeroMilliCpu = 2000;
    pod.nonZeroMemory = 250;
    pod.requests.scalar["example.com/gpu"] = 1;
    auto term = [](scheduler::FitStrategy s, scheduler::FitScoring f) {
        scheduler::ScoreTerm t = *scheduler::defaultScoreTerm(scheduler::ScorePlugin::NodeResourcesFit);
        t.strategy = s;
        t.fit = std::make_shared<const scheduler::FitScoring>(std::move(f));
        return t;
    };
    scheduler::ScoreInputs in { nullptr, &pod, nullptr, &u };
    // cpu 50 % used, memory 75 %, gpu 25 %. LeastAllocated: (50·3 + 25·1 + 75·2) / 6 = 54.
    scheduler::FitScoring weighted;
    weighted.resources = { { "cpu", 3 }, { "memory", 1 }, { "example.com/gpu", 2 } };
    EXPECT_EQ(scheduler::rawScore(term(scheduler::FitStrategy::LeastAllocated, weighted), in), 54);
    // MostAllocated: (50·3 + 75·1 + 25·2) / 6 = 45.
    EXPECT_EQ(scheduler::rawScore(term(scheduler::FitStrategy::MostAllocated, weighted), in), 45);
    // A shape from 0 at 0 % to 100 at 100 %: the used share; rounded, not truncated: (50·3 + 75 + 50) / 6
    // = 45.83 → 46.
    scheduler::FitScoring shaped = weighted;
    shaped.shape = { { 0, 0 }, { 100, 100 } };
    EXPECT_EQ(scheduler::rawScore(term(scheduler::FitStrategy::RequestedToCapacityRatio, shaped), in), 46);
    // A resource the pod does not request is left out: without the gpu request, (50·3 + 75) / 4 = 56.25 → 56.
    pod.requests.scalar.clear();
    EXPECT_EQ(scheduler::rawScore(term(scheduler::FitStrategy::RequestedToCapacityRatio, shaped), in), 56);
    // Weights 1 over cpu and memory are the named policies' computation.
    scheduler::FitScoring plain;
    plain.resources = { { "cpu", 1 }, { "memory", 1 } };
    EXPECT_EQ(scheduler::rawScore(term(scheduler::FitStrategy::LeastAllocated, plain), in),
        scheduler::rawScore(*scheduler::defaultScoreTerm(scheduler::ScorePlugin::NodeResourcesFit), in));
}
