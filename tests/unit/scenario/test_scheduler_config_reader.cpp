// SPDX-License-Identifier: Apache-2.0
// Reading KubeSchedulerConfiguration files (core/scenario/scheduler_config_reader.h) and a
// Scenario's spec.scheduler.config / configFile: strict decoding with located errors in the API
// server's words, upstream's argument validation, and what a scenario does with the result.
#include <gtest/gtest.h>

#include "core/scenario/prepare.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenario_writer.h"
#include "core/scenario/scheduler_config_reader.h"
#include "core/scenario/yaml_raw_json.h"
#include "core/yamlio/yaml_tree.h"
#include "tests/unit/temp_dir.h"

using namespace drasim;
using namespace drasim::scenario;

namespace sched_config_reader_test {

const char* const kConfigHead
    = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

std::optional<scheduler::SchedulerConfiguration> readConfig(const std::string& text, Diagnostics& diags)
{
    auto docs = yamlio::parseYamlDocuments(text, "sched.yaml", diags);
    EXPECT_EQ(docs.size(), 1u);
    if (docs.empty())
        return std::nullopt;
    return readSchedulerConfiguration(docs.front(), "", diags);
}

/// The errors (not warnings) of a configuration that must fail, one per line.
std::string configErrors(const std::string& text)
{
    Diagnostics diags;
    EXPECT_FALSE(readConfig(std::string(kConfigHead) + text, diags));
    std::string out;
    for (const auto& d : diags.all())
        if (d.severity == Severity::Error)
            out += d.format() + "\n";
    return out;
}

const char* const kScenarioHead = "apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: t\n";

} // namespace sched_config_reader_test

using namespace sched_config_reader_test;

TEST(SchedulerConfigReader, ReadsProfilesPluginsAndArgs)
{
    Diagnostics diags;
    const auto c = readConfig(std::string(kConfigHead) + R"(percentageOfNodesToScore: 40
podInitialBackoffSeconds: 2
podMaxBackoffSeconds: 30
leaderElection: {leaderElect: false}
profiles:
  - schedulerName: default-scheduler
  - schedulerName: packer
    percentageOfNodesToScore: 100
    plugins:
      score:
        disabled: [{name: NodeResourcesBalancedAllocation}]
        enabled: [{name: NodeResourcesFit, weight: 5}]
    pluginConfig:
      - name: NodeResourcesFit
        args:
          scoringStrategy:
            type: RequestedToCapacityRatio
            resources: [{name: cpu, weight: 2}, {name: nvidia.com/gpu}]
            requestedToCapacityRatio:
              shape: [{utilization: 0, score: 0}, {utilization: 100, score: 10}]
      - name: DynamicResources
        args: {filterTimeout: 5s}
      - name: DefaultPreemption
        args: {minCandidateNodesPercentage: 20, minCandidateNodesAbsolute: 5}
)",
        diags);
    ASSERT_TRUE(c) << diags.formatAll();
    EXPECT_TRUE(diags.all().empty()) << diags.formatAll();
    EXPECT_EQ(c->percentageOfNodesToScore, 40);
    EXPECT_EQ(c->podInitialBackoffSeconds, 2);
    EXPECT_EQ(c->podMaxBackoffSeconds, 30);
    EXPECT_EQ(c->filterTimeoutSeconds, std::optional<double>(5));
    ASSERT_EQ(c->profiles.size(), 2u);
    EXPECT_EQ(c->profiles[1].schedulerName, "packer");
    EXPECT_EQ(c->profiles[1].percentageOfNodesToScore, std::optional<int32_t>(100));
    EXPECT_EQ(c->profiles[1].minCandidateNodesPercentage, 20);
    EXPECT_EQ(c->profiles[1].minCandidateNodesAbsolute, 5);
    EXPECT_EQ(c->profiles[0].minCandidateNodesPercentage, 10); // DefaultPreemptionArgs defaults
    EXPECT_EQ(c->profiles[0].minCandidateNodesAbsolute, 100);
    const scheduler::ScoreTerm* fit = nullptr;
    for (const auto& t : c->profiles[1].scoring.terms) {
        EXPECT_NE(t.plugin, scheduler::ScorePlugin::NodeResourcesBalancedAllocation);
        if (t.plugin == scheduler::ScorePlugin::NodeResourcesFit)
            fit = &t;
    }
    ASSERT_TRUE(fit);
    EXPECT_EQ(fit->weight, 5);
    EXPECT_EQ(fit->strategy, scheduler::FitStrategy::RequestedToCapacityRatio);
    ASSERT_TRUE(fit->fit);
    ASSERT_EQ(fit->fit->resources.size(), 2u);
    EXPECT_EQ(fit->fit->resources[1].name, "nvidia.com/gpu");
    EXPECT_EQ(fit->fit->resources[1].weight, 1); // unset: 1
    ASSERT_EQ(fit->fit->shape.size(), 2u);
    EXPECT_EQ(fit->fit->shape[1].score, 100); // 10 scaled to MaxNodeScore
    // A resource beyond cpu and memory: the profile scores every feasible node.
    EXPECT_EQ(fit->dependsOn, scheduler::ScoreInput::PodAndNode);
}

// The example of Kubernetes' topology-aware scheduling page (1.37): placementScore weights, and
// NodeResourcesFit's resource weights shared by pod and placement scoring. A plugin that has no
// such point is refused there with the framework's words.
TEST(SchedulerConfigReader, ReadsThePodGroupCyclePlugins)
{
    Diagnostics diags;
    const auto c = readConfig(std::string(kConfigHead) + R"(profiles:
  - schedulerName: default-scheduler
    plugins:
      placementScore:
        enabled:
          - name: NodeResourcesFit
            weight: 2
          - name: PodGroupPodsCount
            weight: 5
      podGroupPostFilter:
        disabled: [{name: DefaultPreemption}]
    pluginConfig:
      - name: NodeResourcesFit
        args:
          scoringStrategy:
            type: LeastAllocated
            resources: [{name: cpu, weight: 2}, {name: memory, weight: 3}]
)",
        diags);
    ASSERT_TRUE(c) << diags.formatAll();
    EXPECT_TRUE(diags.all().empty()) << diags.formatAll();
    const scheduler::SchedulerProfile& p = c->profiles.at(0);
    EXPECT_EQ(p.placementFitWeight, 2);
    EXPECT_EQ(p.placementPodsCountWeight, 5);
    ASSERT_TRUE(p.placementFit);
    ASSERT_EQ(p.placementFit->resources.size(), 2u);
    EXPECT_EQ(p.placementFit->resources[1].weight, 3);
    EXPECT_TRUE(p.topologyPlacement);
    EXPECT_FALSE(p.groupPreemption);
    EXPECT_TRUE(p.preemption); // postFilter keeps DefaultPreemption for single pods

    const auto defaults = readConfig(std::string(kConfigHead) + "profiles:\n  - schedulerName: x\n", diags);
    ASSERT_TRUE(defaults);
    EXPECT_TRUE(defaults->profiles.at(0).defaultPlacementScoring());
    EXPECT_TRUE(defaults->profiles.at(0).groupPreemption);

    EXPECT_EQ(configErrors("profiles:\n  - plugins:\n      placementScore:\n        enabled: [{name: "
                           "TaintToleration}]\n"),
        "sched.yaml:6:26: KubeSchedulerConfiguration: profiles[0].plugins.placementScore.enabled[0].name: "
        "plugin \"TaintToleration\" does not extend PlacementScorePlugin plugin\n");
}

TEST(SchedulerConfigReader, BalancedAllocationResourcesReachTheScoreTerm)
{
    auto balancedTerm = [](const std::string& resources) {
        Diagnostics diags;
        const auto c = readConfig(std::string(kConfigHead)
                + "profiles:\n  - pluginConfig:\n      - {name: NodeResourcesBalancedAllocation, args: "
                  "{resources: "
                + resources + "}}\n",
            diags);
        EXPECT_TRUE(c && diags.all().empty()) << diags.formatAll();
        for (const auto& t : c->profiles[0].scoring.terms)
            if (t.plugin == scheduler::ScorePlugin::NodeResourcesBalancedAllocation)
                return t;
        ADD_FAILURE() << "no BalancedAllocation term";
        return scheduler::ScoreTerm {};
    };
    const auto gpus = balancedTerm("[{name: cpu}, {name: memory}, {name: nvidia.com/gpu, weight: 1}]");
    ASSERT_TRUE(gpus.fit);
    ASSERT_EQ(gpus.fit->resources.size(), 3u);
    EXPECT_EQ(gpus.fit->resources[2].name, "nvidia.com/gpu");
    // The pod's extended requests decide the score: not the score cache's key.
    EXPECT_EQ(gpus.dependsOn, scheduler::ScoreInput::PodAndNode);
    // The defaults, written out or left out, keep the default computation.
    EXPECT_FALSE(balancedTerm("[{name: cpu}, {name: memory}]").fit);
    EXPECT_FALSE(balancedTerm("[]").fit);
    EXPECT_EQ(balancedTerm("[{name: memory}, {name: cpu}]").dependsOn, scheduler::ScoreInput::NodeUsage);
}

TEST(SchedulerConfigReader, UnknownFieldsAndBadValuesAreLocatedErrors)
{
    EXPECT_EQ(configErrors("profiles:\n  - schedulerName: a\n    plugins:\n      scor: {}\n"),
        "sched.yaml:6:7: KubeSchedulerConfiguration: profiles[0].plugins.scor: unknown field \"scor\"\n");
    EXPECT_EQ(configErrors("percentageOfNodesToScore: 101\n"),
        "sched.yaml:3:27: KubeSchedulerConfiguration: percentageOfNodesToScore: Invalid value: 101: not in "
        "valid "
        "range [0-100]\n");
    EXPECT_EQ(configErrors("profiles: [{schedulerName: a, percentageOfNodesToScore: -1}]\n"),
        "sched.yaml:3:57: KubeSchedulerConfiguration: profiles[0].percentageOfNodesToScore: Invalid value: "
        "-1: not "
        "in valid range [0-100]\n");
    EXPECT_EQ(configErrors("parallelism: 0\n"),
        "sched.yaml:3:14: KubeSchedulerConfiguration: parallelism: Invalid value: 0: should be an integer "
        "value "
        "greater than zero\n");
    EXPECT_EQ(configErrors("profiles:\n  - plugins: {score: {enabled: [{weight: 2}]}}\n"),
        "sched.yaml:4:33: KubeSchedulerConfiguration: profiles[0].plugins.score.enabled[0].name: Required "
        "value\n");
}

TEST(SchedulerConfigReader, TheHeadMustBeAV1KubeSchedulerConfiguration)
{
    Diagnostics diags;
    EXPECT_FALSE(readConfig(
        "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n", diags));
    EXPECT_EQ(diags.formatAll(),
        "sched.yaml:1:13: KubeSchedulerConfiguration: apiVersion: Unsupported value: "
        "\"kubescheduler.config.k8s.io/v1beta3\": supported values: \"kubescheduler.config.k8s.io/v1\"\n");
    Diagnostics missing;
    EXPECT_FALSE(readConfig("profiles: []\n", missing));
    EXPECT_EQ(missing.formatAll(),
        "sched.yaml:1:1: KubeSchedulerConfiguration: apiVersion: Required value\n"
        "sched.yaml:1:1: KubeSchedulerConfiguration: kind: Required value\n");
}

TEST(SchedulerConfigReader, PluginArgsAreValidatedAsUpstreamValidatesThem)
{
    const std::string fit = "profiles:\n  - pluginConfig:\n      - name: NodeResourcesFit\n        args:\n";
    EXPECT_EQ(configErrors(fit + "          scoringStrategy: {type: Fancy}\n"),
        "sched.yaml:7:35: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.scoringStrategy.type: "
        "Unsupported value: \"Fancy\": supported values: \"LeastAllocated\", \"MostAllocated\", "
        "\"RequestedToCapacityRatio\"\n");
    EXPECT_EQ(
        configErrors(fit
            + "          scoringStrategy: {type: MostAllocated, resources: [{name: cpu, weight: 101}]}\n"),
        "sched.yaml:7:82: KubeSchedulerConfiguration: "
        "profiles[0].pluginConfig[0].args.scoringStrategy.resources[0]"
        ".weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]\n");
    EXPECT_EQ(configErrors(fit + "          scoringStrategy: {type: RequestedToCapacityRatio}\n"),
        "sched.yaml:7:28: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.scoringStrategy"
        ".requestedToCapacityRatio: Required value: must be specified when type is "
        "RequestedToCapacityRatio\n");
    EXPECT_EQ(
        configErrors(fit
            + "          scoringStrategy:\n            type: RequestedToCapacityRatio\n"
              "            requestedToCapacityRatio:\n              shape: [{utilization: 50, score: 11}, "
              "{utilization: 40, score: 1}]\n"),
        "sched.yaml:10:48: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.scoringStrategy"
        ".requestedToCapacityRatio.shape[0].score: Invalid value: 11: not in valid range [0, 10]\n"
        "sched.yaml:10:67: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.scoringStrategy"
        ".requestedToCapacityRatio.shape[1].utilization: Invalid value: 40: values must be sorted in "
        "increasing "
        "order\n");
    EXPECT_EQ(
        configErrors(fit
            + "          scoringStrategy: {type: MostAllocated, requestedToCapacityRatio: {shape: []}}\n"),
        "sched.yaml:7:76: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.scoringStrategy"
        ".requestedToCapacityRatio: Forbidden: must be nil when type is not RequestedToCapacityRatio\n");
    EXPECT_EQ(configErrors("profiles:\n  - pluginConfig:\n      - {name: DefaultPreemption, args: "
                           "{minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 0}}\n"),
        "sched.yaml:5:71: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args"
        ".minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as "
        "minCandidateNodesAbsolute\n"
        "sched.yaml:5:101: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args"
        ".minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as "
        "minCandidateNodesPercentage\n");
    EXPECT_EQ(configErrors("profiles:\n  - pluginConfig:\n      - {name: DefaultPreemption, args: "
                           "{minCandidateNodesPercentage: 101, minCandidateNodesAbsolute: -1}}\n"),
        "sched.yaml:5:71: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args"
        ".minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]\n"
        "sched.yaml:5:103: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args"
        ".minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)\n");
    EXPECT_EQ(
        configErrors(
            "profiles:\n  - pluginConfig:\n      - {name: DynamicResources, args: {filterTimeout: -1s}}\n"),
        "sched.yaml:5:56: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.filterTimeout: "
        "Invalid value: "
        "\"-1s\": must be zero or positive\n");
    EXPECT_EQ(
        configErrors("profiles:\n  - pluginConfig:\n      - {name: NodeResourcesBalancedAllocation, args: "
                     "{resources: [{name: cpu, weight: 2}, {name: cpu}]}}\n"),
        "sched.yaml:5:88: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.resources[0].weight: "
        "Invalid "
        "value: 2: must be 1\n"
        "sched.yaml:5:99: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.resources[1].name: "
        "Duplicate "
        "value: \"cpu\"\n");
    EXPECT_EQ(configErrors("profiles:\n  - pluginConfig:\n      - {name: NodeResourcesFit}\n      - {name: "
                           "NodeResourcesFit}\n      - {name: Coscheduling}\n"),
        "sched.yaml:6:9: KubeSchedulerConfiguration: profiles[0].pluginConfig[1]: Duplicate value: "
        "\"NodeResourcesFit\"\n"
        "sched.yaml:7:16: KubeSchedulerConfiguration: profiles[0].pluginConfig[2].name: Invalid value: "
        "\"Coscheduling\": no such plugin\n");
}

TEST(SchedulerConfigReader, ArgsDrasimCannotHonourAreWarnings)
{
    Diagnostics diags;
    const auto c = readConfig(std::string(kConfigHead) + R"(extenders: [{urlPrefix: "http://x"}]
profiles:
  - pluginConfig:
      - {name: InterPodAffinity, args: {hardPodAffinityWeight: 5}}
)",
        diags);
    ASSERT_TRUE(c) << diags.formatAll();
    std::vector<std::string> got;
    for (const auto& d : diags.all())
        got.push_back(d.format());
    EXPECT_EQ(got,
        (std::vector<std::string> {
            "sched.yaml:3:12: warning: KubeSchedulerConfiguration: extenders: a scheduler extender is not "
            "modelled "
            "by drasim: accepted and not honoured",
            "sched.yaml:6:40: warning: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args: "
            "InterPodAffinity "
            "args is not modelled by drasim: accepted and not honoured",
        }));
}

TEST(SchedulerConfigReader, AScenarioTakesItInlineOrFromAFileAndNotBesideTheFieldsItSets)
{
    test_support::TempDir dir("drasim-sched-config");
    dir.write("sched.yaml",
        std::string(kConfigHead)
            + "podMaxBackoffSeconds: 20\npercentageOfNodesToScore: 25\nprofiles:\n"
              "  - plugins: {score: {disabled: [{name: TaintToleration}]}}\n");
    const std::string path
        = dir.write("s.yaml", std::string(kScenarioHead) + "spec:\n  scheduler: {configFile: sched.yaml}\n");
    Diagnostics diags;
    auto s = loadScenario(path, diags);
    ASSERT_TRUE(s) << diags.formatAll();
    ASSERT_TRUE(s->schedulerConfig);
    EXPECT_EQ(s->podMaxBackoff, 20 * sim::kSecond);
    EXPECT_EQ(s->percentageOfNodesToScore, std::optional<int32_t>(25));
    EXPECT_EQ(s->schedulerConfigFile, "sched.yaml");
    // The writer keeps the reference and leaves out what the configuration sets.
    const std::string written = writeScenario(*s);
    EXPECT_NE(written.find("configFile: sched.yaml"), std::string::npos) << written;
    EXPECT_EQ(written.find("podMaxBackoff"), std::string::npos) << written;
    EXPECT_EQ(written.find("scoring"), std::string::npos) << written;
    Diagnostics again;
    EXPECT_TRUE(parseScenario(written, path, again)) << again.formatAll();

    // Inline, with errors located in the scenario under spec.scheduler.config.
    Diagnostics bad;
    EXPECT_FALSE(parseScenario(std::string(kScenarioHead)
            + "spec:\n  scheduler:\n    scoring: most-allocated\n    config:\n"
              "      apiVersion: kubescheduler.config.k8s.io/v1\n      kind: KubeSchedulerConfiguration\n"
              "      profiles: [{schedulerName: a, plugin: {}}]\n",
        "dir/s.yaml", bad));
    EXPECT_EQ(bad.formatAll(),
        "dir/s.yaml:11:37: KubeSchedulerConfiguration: spec.scheduler.config.profiles[0].plugin: unknown "
        "field "
        "\"plugin\"\n"
        "dir/s.yaml:7:14: Scenario t: spec.scheduler.scoring: Forbidden: set by the scheduler configuration "
        "(config); not both\n");
}

TEST(SchedulerConfigReader, APreparedScenarioCarriesTheProfiles)
{
    Diagnostics diags;
    auto s = parseScenario(std::string(kScenarioHead)
            + "spec:\n  duration: 1h\n  scheduler:\n    config:\n      apiVersion: "
              "kubescheduler.config.k8s.io/v1\n"
              "      kind: KubeSchedulerConfiguration\n      profiles: [{schedulerName: a}, {schedulerName: "
              "b}]\n",
        "s.yaml", diags);
    ASSERT_TRUE(s) << diags.formatAll();
    auto prepared = prepareScenario(*s, {}, diags);
    ASSERT_TRUE(prepared) << diags.formatAll();
    ASSERT_TRUE(prepared->profiles);
    ASSERT_EQ(prepared->profiles->size(), 2u);
    EXPECT_EQ(prepared->profiles->at(1).schedulerName, "b");
}

TEST(SchedulerConfigReader, FileAndProfileErrorsHaveTheirMessages)
{
    test_support::TempDir dir("drasim-sched-config-errors");
    dir.write("two.yaml", std::string(kConfigHead) + "---\n" + kConfigHead);
    Diagnostics two;
    EXPECT_FALSE(loadSchedulerConfiguration(dir.file("two.yaml"), two));
    EXPECT_EQ(two.formatAll(),
        dir.file("two.yaml")
            + ":4: KubeSchedulerConfiguration: expected one KubeSchedulerConfiguration document, "
              "found 2\n");
    Diagnostics missing;
    EXPECT_FALSE(loadSchedulerConfiguration(dir.file("absent.yaml"), missing));
    EXPECT_EQ(missing.formatAll(),
        dir.file("absent.yaml")
            + ": KubeSchedulerConfiguration: cannot read scheduler configuration: No such file or "
              "directory\n");

    // DynamicResources' filterTimeout is one value for every profile in drasim; bindingTimeout
    // has upstream's lower bound.
    const std::string twoProfiles
        = "profiles:\n  - schedulerName: a\n    pluginConfig: [{name: DynamicResources, args: "
          "{filterTimeout: 5s}}]\n  - schedulerName: b\n    pluginConfig: [{name: "
          "DynamicResources, args: ";
    EXPECT_EQ(configErrors(twoProfiles + "{filterTimeout: 7s}}]\n"),
        "sched.yaml:7:67: KubeSchedulerConfiguration: profiles[1].pluginConfig[0].args.filterTimeout: "
        "Invalid value: "
        "differs from another profile's: drasim applies one DynamicResources filterTimeout to every "
        "profile\n");
    EXPECT_EQ(configErrors(twoProfiles + "{filterTimeout: 5s, bindingTimeout: 500ms}}]\n"),
        "sched.yaml:7:87: KubeSchedulerConfiguration: profiles[1].pluginConfig[0].args.bindingTimeout: "
        "Invalid value: "
        "must be at least 1 second\n");

    // A scenario names its configuration once.
    Diagnostics both;
    EXPECT_FALSE(parseScenario(std::string(kScenarioHead)
            + "spec:\n  scheduler:\n    configFile: sched.yaml\n    config: {apiVersion: "
              "kubescheduler.config.k8s.io/v1, kind: KubeSchedulerConfiguration}\n",
        "dir/s.yaml", both));
    EXPECT_EQ(both.formatAll(),
        "dir/s.yaml:7:17: Scenario t: spec.scheduler.configFile: Forbidden: may not be set together with "
        "config\n");
}

// validateCommonQueueSort compares the args of the first profile's queue sort plugin one way: each
// later profile's pluginConfig entry of that plugin must hold the same data as the first
// profile's (none when it has no entry); a later profile without an entry is not compared.
TEST(SchedulerConfigReader, QueueSortArgsAreComparedWithTheFirstProfiles)
{
    auto twoProfiles = [](const std::string& firstConfig, const std::string& secondConfig) {
        return "profiles:\n"
               "  - schedulerName: first\n"
               "    plugins: {queueSort: {enabled: [{name: PrioritySort}]}}\n"
               "    pluginConfig:\n"
            + firstConfig
            + "  - schedulerName: second\n"
              "    plugins: {queueSort: {enabled: [{name: PrioritySort}]}}\n"
              "    pluginConfig:\n"
            + secondConfig;
    };
    const std::string withArgs = "      - name: PrioritySort\n        args: {b: 1, a: x}\n";
    const std::string other = "      - name: DefaultPreemption\n";
    // The same data in another order and form is the same JSON text.
    Diagnostics same;
    EXPECT_TRUE(readConfig(std::string(kConfigHead)
            + twoProfiles(withArgs,
                "      - name: PrioritySort\n        args:\n          a: \"x\"\n          b: 1.0\n"),
        same))
        << same.formatAll();
    // Other data: the later profile's args are named, as runtime.Unknown prints.
    EXPECT_EQ(configErrors(twoProfiles(withArgs, "      - name: PrioritySort\n        args: {a: x, b: 2}\n")),
        "sched.yaml:13:15: KubeSchedulerConfiguration: profiles[1].pluginConfig.args: Invalid value: "
        "runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:\"\", Kind:\"\"}, Raw:[]uint8{0x7b, 0x22, "
        "0x61, 0x22, 0x3a, 0x22, 0x78, 0x22, 0x2c, 0x22, 0x62, 0x22, 0x3a, 0x32, 0x7d}, "
        "ContentEncoding:\"\", ContentType:\"application/json\"}: queueSort must be the same for all "
        "profiles\n");
    // An entry without args differs from one with args; it is located at the entry.
    EXPECT_EQ(configErrors(twoProfiles(withArgs, other + "      - name: PrioritySort\n")),
        "sched.yaml:13:9: KubeSchedulerConfiguration: profiles[1].pluginConfig.args: Invalid value: null: "
        "queueSort must be the same for all profiles\n");
    // The first profile has no entry: none is the args every later entry must have ({} is some).
    EXPECT_EQ(configErrors(twoProfiles(other, "      - name: PrioritySort\n        args: {}\n")),
        "sched.yaml:12:15: KubeSchedulerConfiguration: profiles[1].pluginConfig.args: Invalid value: "
        "runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:\"\", Kind:\"\"}, Raw:[]uint8{0x7b, 0x7d}, "
        "ContentEncoding:\"\", ContentType:\"application/json\"}: queueSort must be the same for all "
        "profiles\n");
    Diagnostics bothNone;
    EXPECT_TRUE(
        readConfig(std::string(kConfigHead) + twoProfiles(other, "      - name: PrioritySort\n"), bothNone))
        << bothNone.formatAll();
    // One way only: a later profile without an entry is not compared.
    Diagnostics oneWay;
    EXPECT_TRUE(readConfig(std::string(kConfigHead) + twoProfiles(withArgs, other), oneWay))
        << oneWay.formatAll();
}

// The name compared is the first profile's first enabled queueSort plugin: a first profile that
// leaves queueSort to multiPoint names none, and no args are compared.
TEST(SchedulerConfigReader, QueueSortArgsNeedTheFirstProfileToNameItsQueueSort)
{
    Diagnostics diags;
    EXPECT_TRUE(readConfig(std::string(kConfigHead)
            + "profiles:\n"
              "  - schedulerName: first\n"
              "    pluginConfig: [{name: PrioritySort, args: {a: 1}}]\n"
              "  - schedulerName: second\n"
              "    pluginConfig: [{name: PrioritySort, args: {a: 2}}]\n",
        diags))
        << diags.formatAll();
    // The sets themselves still must match: the second profile's differs from the first's.
    EXPECT_EQ(configErrors("profiles:\n"
                           "  - schedulerName: first\n"
                           "  - schedulerName: second\n"
                           "    plugins: {queueSort: {enabled: [{name: PrioritySort}]}}\n"),
        "sched.yaml:6:26: KubeSchedulerConfiguration: profiles[1].plugins.queueSort: Invalid value: "
        "config.PluginSet{Enabled:[]config.Plugin{config.Plugin{Name:\"PrioritySort\", Weight:0}}, "
        "Disabled:[]config.Plugin(nil)}: must be the same for all profiles\n");
}

// YAMLToJSON re-encodes with encoding/json: keys sorted, compact, Go's number and string forms.
TEST(SchedulerConfigReader, RawArgsAreTheJsonTextKubernetesKeeps)
{
    auto raw = [](const std::string& yaml) {
        Diagnostics diags;
        auto docs = yamlio::parseYamlDocuments(yaml, "v.yaml", diags);
        EXPECT_EQ(docs.size(), 1u) << diags.formatAll();
        return docs.empty() ? std::string() : rawJsonOf(docs.front());
    };
    EXPECT_EQ(raw("{z: [1, 2.50, null, true], a: {b: '3', x: ~}}\n"),
        "{\"a\":{\"b\":\"3\",\"x\":null},\"z\":[1,2.5,null,true]}");
    // A plain y is YAML 1.1's true, and a boolean key is named by its value.
    EXPECT_EQ(raw("{y: 1, x: 2}\n"), "{\"true\":1,\"x\":2}");
    EXPECT_EQ(raw("[1.0, 1e21, 0.0000001, 123456789.0, -0.5, 0x1F]\n"), "[1,1e+21,1e-7,123456789,-0.5,31]");
    EXPECT_EQ(raw("[\"<a & b>\", \"tab\\there\", \"\\u2028\", \"caf\\u00e9\", \"\\u0001\"]\n"),
        "[\"\\u003ca \\u0026 b\\u003e\",\"tab\\there\",\"\\u2028\",\"caf\u00e9\",\"\\u0001\"]");
    EXPECT_EQ(raw("{10: a, true: b, 9: c}\n"), "{\"10\":\"a\",\"9\":\"c\",\"true\":\"b\"}");
}
