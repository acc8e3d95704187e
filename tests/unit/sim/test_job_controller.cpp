// SPDX-License-Identifier: Apache-2.0
// The Job controller's pod-failure backoff and backoffLimit, as kube-controller-manager applies them
// (pkg/controller/job: backoff_utils.go, manageJob).
#include <gtest/gtest.h>

#include "core/sim/simulator.h"
#include "tests/unit/sim/fake_cluster.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

struct JobPodLog : RunRecorder
{
    std::vector<std::string> lines;
    void onRunStarted(const RunInfo&) override { }
    void onSample(const MetricSample&) override { }
    void onPodEvent(const PodEvent& e) override
    {
        lines.push_back(formatDuration(e.time) + " " + podEventTypeName(e.type) + " " + e.pod);
    }
    void onRunFinished(const RunSummary&) override { }
    bool has(const std::string& line) const
    {
        return std::find(lines.begin(), lines.end(), line) != lines.end();
    }
};

SimOptions jobOptions(SimTime duration)
{
    SimOptions o;
    o.scenarioName = "test";
    o.duration = duration;
    o.metricInterval = 0;
    return o;
}

// A NoExecute taint on every device of `node` at `at`, removed one second later.
void taintBriefly(Simulator& sim, const std::string& node, SimTime at)
{
    InjectedEvent taint;
    taint.at = at;
    taint.type = InjectedEvent::Type::DeviceTaint;
    taint.node = node;
    taint.taint.key = "broken";
    taint.taint.effect = "NoExecute";
    sim.addEvent(taint);
    InjectedEvent untaint = taint;
    untaint.at = at + kSecond;
    untaint.type = InjectedEvent::Type::DeviceUntaint;
    sim.addEvent(untaint);
}

} // namespace

TEST(JobController, UpstreamPodFailureBackoffDefaults)
{
    // DefaultJobPodFailureBackOff and MaxJobPodFailureBackOff of the Job controller.
    SimOptions o;
    EXPECT_EQ(o.jobBackoffBase, 10 * kSecond);
    EXPECT_EQ(o.jobBackoffMax, 10 * kMinute);
}

TEST(JobController, PodsThatFailTogetherAreReplacedTogetherAfterTheWholeBackoff)
{
    // Two failures since the last success: the controller waits 20 s after the last one before it
    // creates the missing pods, all in one sync (not one pod after 10 s and one after 20 s).
    FakeCluster cluster;
    Simulator sim(cluster, jobOptions(300 * kSecond));
    sim.addNodePool(gpuPool("n", 2, 1));
    workload::JobSpec job = gpuJob("train", 0, 200);
    job.parallelism = 2;
    job.completions = 2;
    job.backoffLimit = 5;
    sim.setArrivals(source({ job }));
    taintBriefly(sim, "n-0", 20 * kSecond);
    taintBriefly(sim, "n-1", 20 * kSecond);
    JobPodLog log;
    sim.addRecorder(&log);
    sim.run();
    EXPECT_TRUE(log.has("20s Evicted default/train-0"));
    EXPECT_TRUE(log.has("20s Evicted default/train-1"));
    EXPECT_FALSE(log.has("30s Created default/train-2"));
    EXPECT_TRUE(log.has("40s Created default/train-2"));
    EXPECT_TRUE(log.has("40s Created default/train-3"));
}

TEST(JobController, ASuccessResetsTheFailureBackoff)
{
    // failuresAfterLastSuccess goes back to 0 when a pod succeeds: the failure after it waits
    // 10 s again, not 20 s.
    FakeCluster cluster;
    Simulator sim(cluster, jobOptions(400 * kSecond));
    sim.addNodePool(gpuPool("n", 1, 1));
    workload::JobSpec job = gpuJob("train", 0, 100);
    job.completions = 2;
    job.backoffLimit = 5;
    sim.setArrivals(source({ job }));
    taintBriefly(sim, "n-0", 20 * kSecond); // train-0 evicted, train-1 at 30 s, succeeds at 130 s
    taintBriefly(sim, "n-0", 140 * kSecond); // train-2 (created at 130 s) evicted
    JobPodLog log;
    sim.addRecorder(&log);
    sim.run();
    EXPECT_TRUE(log.has("30s Created default/train-1"));
    EXPECT_TRUE(log.has("2m10s Succeeded default/train-1"));
    EXPECT_TRUE(log.has("2m10s Created default/train-2"));
    EXPECT_TRUE(log.has("2m20s Evicted default/train-2"));
    EXPECT_TRUE(log.has("2m30s Created default/train-3"));
}

TEST(JobController, ASuccessReleasesReplacementsStillWaitingForTheBackoff)
{
    // One pod fails, another succeeds before the failure's backoff ends: the next sync sees no
    // failure after the last success and creates the replacement at once.
    FakeCluster cluster;
    Simulator sim(cluster, jobOptions(400 * kSecond));
    sim.addNodePool(gpuPool("n", 2, 1));
    workload::JobSpec job = gpuJob("train", 0, 25);
    job.parallelism = 2;
    job.completions = 3;
    job.backoffLimit = 5;
    sim.setArrivals(source({ job }));
    taintBriefly(sim, "n-0", 20 * kSecond); // train-0 evicted at 20 s, train-1 succeeds at 25 s
    JobPodLog log;
    sim.addRecorder(&log);
    sim.run();
    EXPECT_TRUE(log.has("20s Evicted default/train-0"));
    EXPECT_TRUE(log.has("25s Succeeded default/train-1"));
    EXPECT_TRUE(log.has("25s Created default/train-2"));
    EXPECT_TRUE(log.has("25s Created default/train-3"));
}

TEST(JobController, NoExecuteEvictionsCountAgainstBackoffLimit)
{
    // An evicted pod gets the DisruptionTarget condition and ends Failed; without a
    // podFailurePolicy the Job controller counts it like any failure.
    FakeCluster cluster;
    Simulator sim(cluster, jobOptions(300 * kSecond));
    sim.addNodePool(gpuPool("n", 1, 1));
    workload::JobSpec job = gpuJob("train", 0, 200);
    job.backoffLimit = 1;
    sim.setArrivals(source({ job }));
    taintBriefly(sim, "n-0", 20 * kSecond);
    taintBriefly(sim, "n-0", 40 * kSecond);
    JobPodLog log;
    sim.addRecorder(&log);
    RunSummary s = sim.run();
    EXPECT_TRUE(log.has("20s Evicted default/train-0"));
    EXPECT_TRUE(log.has("30s Created default/train-1"));
    EXPECT_TRUE(log.has("40s Evicted default/train-1"));
    EXPECT_FALSE(log.has("1m Created default/train-2"));
    ASSERT_EQ(s.workloads.size(), 1u);
    EXPECT_EQ(s.workloads[0].jobsFailed, 1);
    EXPECT_EQ(s.podsEvicted, 2);
}

TEST(StatefulSetController, OrderedReadyCreatesEachPodOnceThePreviousOneRuns)
{
    // One of the two GPUs is busy until 50 s: db-0 takes the other, db-1 waits for the busy one,
    // and db-2 is created only once db-1 runs.
    FakeCluster cluster;
    Simulator sim(cluster, jobOptions(300 * kSecond));
    sim.addNodePool(gpuPool("n", 1, 2));
    workload::JobSpec busy = gpuJob("busy", 0, 50);
    workload::JobSpec db = gpuJob("db", 1, workload::kForever);
    db.kind = workload::kKindService;
    db.parallelism = 3;
    db.completions = 3;
    db.orderedStart = true;
    sim.setArrivals(source({ busy, db }));
    JobPodLog log;
    sim.addRecorder(&log);
    sim.run();
    EXPECT_TRUE(log.has("1s Created default/db-0"));
    EXPECT_TRUE(log.has("1s Scheduled default/db-0"));
    EXPECT_TRUE(log.has("1s Created default/db-1"));
    EXPECT_FALSE(log.has("1s Created default/db-2"));
    EXPECT_TRUE(log.has("50s Scheduled default/db-1"));
    EXPECT_TRUE(log.has("50s Created default/db-2"));
}
