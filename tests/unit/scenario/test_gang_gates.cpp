// SPDX-License-Identifier: Apache-2.0
// The scenario's feature gates decide whether a workload's `scheduling:` makes PodGroups the
// scheduler queues (GenericWorkload and WorkloadWithJob) and whether their topology key binds
// (TopologyAwareWorkloadScheduling), with each Kubernetes version's defaults.
#include <gtest/gtest.h>

#include "core/scenario/prepare.h"
#include "core/scenario/scenario.h"
#include "core/sim/run_prepared.h"
#include "tests/unit/temp_dir.h"

using namespace drasim;
using namespace drasim::scenario;
using namespace drasim::sim;

namespace {

const std::string kGang = DRASIM_SOURCE_DIR "/scenarios/learn/14-gang-scheduling/scenario.yaml";

Scenario load(const std::string& file)
{
    Diagnostics diags;
    auto s = loadScenario(file, diags);
    EXPECT_TRUE(s.has_value()) << diags.formatAll();
    return s.value_or(Scenario {});
}

RunSummary run(const Scenario& s)
{
    Diagnostics diags;
    auto p = prepareScenario(s, {}, diags);
    EXPECT_TRUE(p.has_value()) << diags.formatAll();
    if (!p)
        return {};
    auto summary = runPrepared(*p, RunOptions {}, diags);
    EXPECT_TRUE(summary.has_value()) << diags.formatAll();
    return summary.value_or(RunSummary {});
}

api::FeatureGates gates(api::KubernetesVersion v, std::initializer_list<std::pair<const char*, bool>> set)
{
    api::FeatureGates g(v);
    for (const auto& [name, on] : set)
        EXPECT_EQ(g.set(name, on), "") << name;
    return g;
}

} // namespace

TEST(GangGates, GenericWorkloadAndWorkloadWithJobTurnTheGroupCycleOn)
{
    Scenario s = load(kGang);
    ASSERT_TRUE(s.featureGates.enabled("GenericWorkload"));
    const RunSummary on = run(s);
    EXPECT_GT(on.gangs.groupCycles, 0u);
    EXPECT_EQ(on.gangs.idleDeviceHours, 0);

    // Either gate off (both are off by default, even in 1.37): plain pods, bound one by one.
    for (const char* only : { "GenericWorkload", "WorkloadWithJob" }) {
        s.featureGates = gates(api::KubernetesVersion::V1_37, { { only, true } });
        const RunSummary plain = run(s);
        EXPECT_EQ(plain.gangs.groupCycles, 0u) << only;
        EXPECT_GT(plain.gangs.idleDeviceHours, 0) << only;
    }
    // Kubernetes 1.35 has GenericWorkload but no WorkloadWithJob: no Job gets a PodGroup.
    s.featureGates = gates(api::KubernetesVersion::V1_35, { { "GenericWorkload", true } });
    EXPECT_EQ(run(s).gangs.groupCycles, 0u);
}

TEST(GangGates, TopologyAwareWorkloadSchedulingHonoursTheKey)
{
    Scenario s = load(kGang);
    for (auto& w : s.workloads)
        if (w.scheduling)
            w.scheduling->topologyKey = "example.com/no-such-label";
    // Without the gate the key is dropped and the gangs run; with it no node has the label.
    EXPECT_GT(run(s).gangs.started, 0);
    s.featureGates.set("TopologyAwareWorkloadScheduling", true);
    const RunSummary constrained = run(s);
    EXPECT_GT(constrained.gangs.jobs, 0);
    EXPECT_EQ(constrained.gangs.started, 0);
}

// A PodGroupMinCount event names a workload of the scenario with a gang policy; the errors say
// where, as every other event's do.
TEST(GangGates, MinCountEventNamesAGangWorkload)
{
    const std::string dir = DRASIM_SOURCE_DIR "/scenarios/learn/14-gang-scheduling/";
    auto errors = [&](const std::string& events) {
        Diagnostics diags;
        auto s = loadScenario(dir + "scenario.yaml", diags);
        EXPECT_TRUE(s.has_value()) << diags.formatAll();
        if (!s)
            return std::string();
        auto extra = parseScenario("apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: e}\n"
                                   "spec:\n  events:\n"
                + events,
            dir + "events.yaml", diags);
        EXPECT_TRUE(extra.has_value()) << diags.formatAll();
        if (!extra)
            return std::string();
        s->events = extra->events;
        EXPECT_FALSE(prepareScenario(*s, {}, diags).has_value());
        std::string text = diags.formatAll();
        for (size_t at; (at = text.find(dir)) != std::string::npos;)
            text.erase(at, dir.size());
        return text;
    };
    EXPECT_EQ(errors("    - {at: 1h, type: PodGroupMinCount, workload: nobody, minCount: 2}\n"),
        "events.yaml:6:7: Scenario gang-scheduling: spec.events[0].workload: Not found: \"nobody\": no "
        "workload of that name "
        "in spec.workloads\n");

    Diagnostics diags;
    auto s = loadScenario(dir + "scenario.yaml", diags);
    ASSERT_TRUE(s.has_value()) << diags.formatAll();
    ASSERT_TRUE(s->workloads[0].scheduling.has_value());
    s->workloads[0].scheduling->gang = false;
    ScenarioEvent e;
    e.type = InjectedEvent::Type::PodGroupMinCount;
    e.workload = s->workloads[0].name;
    e.minCount = 2;
    e.path = "spec.events[0]";
    s->events = { e };
    EXPECT_FALSE(prepareScenario(*s, {}, diags).has_value());
    EXPECT_NE(
        diags.formatAll().find("spec.events[0].workload: Invalid value: \"training\": its scheduling policy "
                               "is basic; only a gang policy has a minCount"),
        std::string::npos)
        << diags.formatAll();

    // A gang workload: prepared and run, the event lowers the training jobs' quorum to one worker.
    s = loadScenario(dir + "scenario.yaml", diags);
    ASSERT_TRUE(s.has_value());
    e.workload = "training";
    e.minCount = 1;
    s->events = { e };
    const RunSummary lowered = run(*s);
    const RunSummary base = run(load(kGang));
    EXPECT_GT(lowered.gangs.jobs, 0);
    EXPECT_EQ(lowered.gangs.jobs, base.gangs.jobs);
    // One worker is a quorum: every gang starts at least as soon, so no fewer start.
    EXPECT_GE(lowered.gangs.started, base.gangs.started);
    EXPECT_LE(lowered.gangs.secondsToStart.mean, base.gangs.secondsToStart.mean);
}

// Kubernetes 1.36's Job controller (KEP-5547 alpha) makes a gang of an Indexed Job whose every
// index runs at once (parallelism = completions > 1) without the Job asking: in a run, such Jobs
// of a workload's manifests are gangs that take group cycles and hold no idle GPUs; the same Jobs
// NonIndexed are plain pods, and on 1.37 (where a Job without spec.scheduling is basic) basic
// PodGroups.
TEST(GangGates, KubernetesOneThirtySixGangsIndexedJobsOnItsOwn)
{
    auto runWith = [](const std::string& version, const std::string& completionMode) {
        test_support::TempDir dir("drasim-indexed");
        dir.write("job.yaml",
            R"(apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: default}
spec:
  parallelism: 2
  completions: 2
  completionMode: )"
                + completionMode + R"(
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: worker
          image: x
          resources:
            requests: {cpu: "64", memory: 512Gi}
            claims: [{name: gpus}]
      resourceClaims: [{name: gpus, resourceClaimTemplateName: h100-x8}]
)");
        const std::string path = dir.write("scenario.yaml",
            R"(apiVersion: drasim.dev/v1alpha1
kind: Scenario
metadata: {name: indexed}
spec:
  seed: 7
  duration: 2d
  scheduler:
    kubernetesVersion: ")"
                + version + R"("
    featureGates: {GenericWorkload: true, WorkloadWithJob: true}
  cluster:
    nodePools:
      - {name: h100, shape: dgx-h100, count: 3}
  resources: [)" DRASIM_SOURCE_DIR R"(/scenarios/sim/default/classes.yaml]
  workloads:
    - name: training
      manifests: [job.yaml]
      arrival: {process: poisson, rate: 0.5/h, until: 2d}
      duration: {distribution: lognormal, median: 3h, sigma: 0.4}
    - name: finetune
      manifests: [)" DRASIM_SOURCE_DIR R"(/scenarios/sim/default/workloads/finetune.yaml]
      arrival: {process: poisson, rate: 2/h, until: 2d}
      duration: {distribution: lognormal, median: 40m, sigma: 0.7}
)");
        return run(load(path));
    };
    const RunSummary indexed = runWith("1.36", "Indexed");
    EXPECT_GT(indexed.gangs.jobs, 0);
    EXPECT_GT(indexed.gangs.started, 0);
    EXPECT_GT(indexed.gangs.groupCycles, 0u);
    EXPECT_EQ(indexed.gangs.idleDeviceHours, 0);
    const RunSummary nonIndexed = runWith("1.36", "NonIndexed");
    EXPECT_EQ(nonIndexed.gangs.jobs, 0);
    EXPECT_EQ(nonIndexed.gangs.groupCycles, 0u);
    // 1.37's controller gives every Job a PodGroup, basic unless spec.scheduling says gang.
    const RunSummary basic137 = runWith("1.37", "Indexed");
    EXPECT_EQ(basic137.gangs.jobs, 0);
    EXPECT_GT(basic137.gangs.groupCycles, 0u);
}
