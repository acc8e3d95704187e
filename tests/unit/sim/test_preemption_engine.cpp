// SPDX-License-Identifier: Apache-2.0
// Preemption in a run: the victim is Preempted when the scheduler picks it, keeps its node through
// its grace period (30 s), ends Evicted, and the preemptor binds on its nominated node then; its
// Job replaces it. On DRA devices nothing is preempted (Kubernetes up to 1.37), so the important
// pod waits for the device to be released.
#include <algorithm>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

struct PreemptionLog : RunRecorder
{
    std::vector<std::string> lines;
    void onPodEvent(const PodEvent& e) override
    {
        if (e.type == PodEventType::Unschedulable || (e.type == PodEventType::Created && e.time == 0))
            return;
        lines.push_back(formatDuration(e.time) + " " + podEventTypeName(e.type) + " " + e.pod
            + (e.node.empty() ? "" : " @" + e.node) + (e.message.empty() ? "" : ": " + e.message));
    }
};

PreemptionLog runWith(api::ObjectSet objects, NodePool pool, std::vector<workload::JobSpec> jobs)
{
    scheduler::Cluster cluster(std::move(objects));
    SchedulerClusterPort port(cluster);
    SimOptions o;
    o.scenarioName = "preemption";
    o.duration = 2000 * kSecond;
    o.metricInterval = 0;
    Simulator sim(port, o);
    sim.addNodePool(std::move(pool));
    sim.setArrivals(source(std::move(jobs)));
    PreemptionLog log;
    sim.addRecorder(&log);
    sim.run();
    return log;
}

bool has(const PreemptionLog& log, const std::string& line)
{
    return std::find(log.lines.begin(), log.lines.end(), line) != log.lines.end();
}

std::string dump(const PreemptionLog& log)
{
    std::string s;
    for (const auto& l : log.lines)
        s += l + "\n";
    return s;
}

} // namespace

TEST(PreemptionRun, TheVictimLeavesAfterItsGracePeriodAndThePreemptorTakesItsGpu)
{
    auto log = runWith(
        {}, devicePluginPool(), { pluginGpuJob("train", 0, 1000, 0), pluginGpuJob("infer", 100, 50, 1000) });
    EXPECT_TRUE(has(log,
        "1m40s Preempted default/train-0 @gp-0: preempted by default/infer-0 (priority 1000) on node gp-0"))
        << dump(log);
    EXPECT_TRUE(has(log,
        "2m10s Evicted default/train-0 @gp-0: DisruptionTarget: PreemptionByScheduler: preempting to "
        "accommodate a "
        "higher priority pod"))
        << dump(log);
    EXPECT_TRUE(has(log, "2m10s Scheduled default/infer-0 @gp-0")) << dump(log);
}

TEST(PreemptionRun, TheVictimsOwnGracePeriodIsWaited)
{
    auto train = pluginGpuJob("train", 0, 1000, 0);
    auto tmpl = std::make_shared<api::PodTemplateSpec>(*train.tasks[0].pod);
    tmpl->spec.terminationGracePeriodSeconds = 5;
    train.tasks[0].pod = tmpl;
    auto log = runWith({}, devicePluginPool(), { train, pluginGpuJob("infer", 100, 50, 1000) });
    EXPECT_TRUE(has(log, "1m45s Scheduled default/infer-0 @gp-0")) << dump(log);
}

TEST(PreemptionRun, DraDevicesAreNotPreemptedSoTheImportantPodWaits)
{
    auto log = runWith(oneGpuClassAndTemplate(), gpuPool("n", 1, 1),
        { gpuJob("train", 0, 1000, 1, 0), gpuJob("infer", 100, 50, 1, 1000) });
    for (const auto& l : log.lines)
        EXPECT_EQ(l.find("Preempted"), std::string::npos) << l;
    EXPECT_TRUE(has(log, "16m40s Scheduled default/infer-0 @n-0")) << dump(log);
}

// The Job controller and its victims (pkg/controller/job): without a podFailurePolicy a deleted pod
// is failed at once (isPodFailed), so it counts against backoffLimit and is replaced, after the
// pod-failure backoff of 10 s, while it still terminates.
TEST(PreemptionRun, AJobCountsItsVictimWhenItIsDeletedAndReplacesItAfterTheBackoff)
{
    auto train = pluginGpuJob("train", 0, 1000, 0);
    train.backoffLimit = 1;
    auto log = runWith({}, devicePluginPool(), { train, pluginGpuJob("infer", 100, 50, 1000) });
    EXPECT_TRUE(has(log, "1m50s Created default/train-1")) << dump(log);
    EXPECT_TRUE(has(log, "2m10s Scheduled default/infer-0 @gp-0")) << dump(log);
}

TEST(PreemptionRun, AJobFailedByItsVictimStillLetsTheVictimTerminate)
{
    // backoffLimit 0: the Job fails when its pod is deleted; the pod keeps its grace period.
    auto log = runWith(
        {}, devicePluginPool(), { pluginGpuJob("train", 0, 1000, 0), pluginGpuJob("infer", 100, 50, 1000) });
    EXPECT_TRUE(has(log,
        "2m10s Evicted default/train-0 @gp-0: DisruptionTarget: PreemptionByScheduler: preempting to "
        "accommodate a higher priority pod"))
        << dump(log);
    EXPECT_TRUE(has(log, "2m10s Scheduled default/infer-0 @gp-0")) << dump(log);
    for (const auto& l : log.lines)
        EXPECT_EQ(l.find("train-1"), std::string::npos) << dump(log);
}

TEST(PreemptionRun, AnIgnoreRuleOnDisruptionTargetReplacesTheVictimOnceFailedWithoutCountingIt)
{
    // podFailurePolicy: only Failed pods are replaced; Ignore keeps backoffLimit 0 intact, the
    // pod-failure backoff still applies.
    auto train = pluginGpuJob("train", 0, 1000, 0);
    train.onDisruption = api::DisruptionAction::Ignore;
    train.replaceFailedOnly = true;
    auto log = runWith({}, devicePluginPool(), { train, pluginGpuJob("infer", 100, 50, 1000) });
    EXPECT_TRUE(has(log, "2m20s Created default/train-1")) << dump(log);
    EXPECT_TRUE(has(log, "3m Scheduled default/train-1 @gp-0")) << dump(log);
}

TEST(PreemptionRun, CountAndFailJobRulesOnDisruptionTarget)
{
    auto train = pluginGpuJob("train", 0, 1000, 0);
    train.backoffLimit = 6;
    train.replaceFailedOnly = true;
    train.onDisruption = api::DisruptionAction::Count;
    auto counted = runWith({}, devicePluginPool(), { train, pluginGpuJob("infer", 100, 50, 1000) });
    EXPECT_TRUE(has(counted, "2m20s Created default/train-1")) << dump(counted);
    train.onDisruption = api::DisruptionAction::FailJob;
    auto failed = runWith({}, devicePluginPool(), { train, pluginGpuJob("infer", 100, 50, 1000) });
    for (const auto& l : failed.lines)
        EXPECT_EQ(l.find("train-1"), std::string::npos) << dump(failed);
}

// checkpointInterval (drasim's knob): the victim had worked 400 s when it was deleted; with a
// checkpoint every 300 s its replacement runs the 700 s left, without one all 1000 s again.
TEST(PreemptionRun, TheReplacementResumesFromTheVictimsLastCheckpoint)
{
    auto train = pluginGpuJob("train", 0, 1000, 0);
    train.backoffLimit = 1;
    auto infer = pluginGpuJob("infer", 400, 50, 1000);
    auto fromZero = runWith({}, devicePluginPool(), { train, infer });
    EXPECT_TRUE(has(fromZero, "8m Scheduled default/train-1 @gp-0")) << dump(fromZero);
    EXPECT_TRUE(has(fromZero, "24m40s Succeeded default/train-1 @gp-0")) << dump(fromZero);
    train.checkpointSeconds = 300;
    auto resumed = runWith({}, devicePluginPool(), { train, infer });
    EXPECT_TRUE(has(resumed, "19m40s Succeeded default/train-1 @gp-0")) << dump(resumed);
}

TEST(PreemptionRun, AVictimStopsWorkingWhenDeleted)
{
    // Its work would end within its grace period; it was told to stop, so it ends Evicted.
    auto train = pluginGpuJob("train", 0, 110, 0);
    auto log = runWith({}, devicePluginPool(), { train, pluginGpuJob("infer", 100, 50, 1000) });
    EXPECT_TRUE(has(log,
        "2m10s Evicted default/train-0 @gp-0: DisruptionTarget: PreemptionByScheduler: preempting to "
        "accommodate a higher priority pod"))
        << dump(log);
}

// A ReplicaSet counts only pods without a deletionTimestamp as replicas (IsPodActive), so it
// replaces its victim while the victim terminates; a StatefulSet waits until the pod is gone.
TEST(PreemptionRun, AReplicaSetReplacesItsVictimAtOnceAStatefulSetOnceItIsGone)
{
    auto serve = pluginGpuJob("serve", 0, workload::kForever, 0);
    serve.kind = workload::kKindService;
    auto deployment = runWith({}, devicePluginPool(), { serve, pluginGpuJob("infer", 100, 50, 1000) });
    EXPECT_TRUE(has(deployment, "1m40s Created default/serve-1")) << dump(deployment);
    serve.replaceFailedOnly = true;
    auto statefulSet = runWith({}, devicePluginPool(), { serve, pluginGpuJob("infer", 100, 50, 1000) });
    EXPECT_TRUE(has(statefulSet, "2m10s Created default/serve-1")) << dump(statefulSet);
}
