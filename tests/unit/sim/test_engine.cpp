// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/sim/run_summary.h"
#include "core/sim/series_writer.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/fake_cluster.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

struct EventLog : RunRecorder
{
    std::vector<std::string> lines;
    int started = 0;
    int finished = 0;
    int samples = 0;
    void onRunStarted(const RunInfo&) override { ++started; }
    void onSample(const MetricSample&) override { ++samples; }
    void onPodEvent(const PodEvent& e) override
    {
        lines.push_back(formatDuration(e.time) + " " + podEventTypeName(e.type) + " " + e.pod
            + (e.node.empty() ? "" : " @" + e.node));
    }
    void onRunFinished(const RunSummary&) override { ++finished; }
    bool has(const std::string& line) const
    {
        return std::find(lines.begin(), lines.end(), line) != lines.end();
    }
};

SimOptions opts(SimTime duration, SimTime interval = 10 * kSecond)
{
    SimOptions o;
    o.scenarioName = "test";
    o.duration = duration;
    o.metricInterval = interval;
    return o;
}

const WorkloadSummary& workloadOf(const RunSummary& s, const std::string& name)
{
    for (const auto& w : s.workloads)
        if (w.name == name)
            return w;
    throw std::runtime_error("no workload " + name);
}

} // namespace

TEST(Simulator, CompletionFreesDevicesForWaitingPods)
{
    FakeCluster cluster;
    Simulator sim(cluster, opts(100 * kSecond));
    sim.addNodePool(gpuPool("n", 2, 1));
    sim.setArrivals(source({ gpuJob("a", 0, 10), gpuJob("b", 0, 10), gpuJob("c", 0, 10) }));
    EventLog log;
    sim.addRecorder(&log);
    RunSummary s = sim.run();

    EXPECT_EQ(log.started, 1);
    EXPECT_EQ(log.finished, 1);
    EXPECT_TRUE(log.has("0s Scheduled default/a-0 @n-0"));
    EXPECT_TRUE(log.has("0s Scheduled default/b-0 @n-1"));
    EXPECT_TRUE(log.has("0s Unschedulable default/c-0"));
    EXPECT_TRUE(log.has("10s Succeeded default/a-0 @n-0"));
    EXPECT_TRUE(log.has("10s Scheduled default/c-0 @n-0"));
    EXPECT_EQ(s.podsSucceeded, 3);
    EXPECT_EQ(s.podsPendingAtEnd, 0);
    EXPECT_DOUBLE_EQ(s.waitSeconds.max, 10);
    EXPECT_DOUBLE_EQ(s.waitSeconds.p50, 0);
    const WorkloadSummary& w = workloadOf(s, "w");
    EXPECT_EQ(w.jobsSucceeded, 3);
    EXPECT_DOUBLE_EQ(w.jobCompletionSeconds.max, 20);
    // Every device was released at the end.
    for (const auto& f : { "default/a-0", "default/b-0", "default/c-0" })
        EXPECT_NE(std::find(cluster.finished.begin(), cluster.finished.end(), f), cluster.finished.end())
            << f;
}

TEST(Simulator, RetriesPendingPodsOnlyWhenCapacityChanges)
{
    // 1 GPU, 100 ten-second jobs at t=0: the queue must not try every pending pod on every event.
    FakeCluster cluster;
    Simulator sim(cluster, opts(2000 * kSecond, 0));
    sim.addNodePool(gpuPool("n", 1, 1));
    std::vector<workload::JobSpec> jobs;
    for (int i = 0; i < 100; ++i)
        jobs.push_back(gpuJob(std::string("j").append(std::to_string(100 + i)), 0, 10));
    sim.setArrivals(source(jobs));
    RunSummary s = sim.run();
    EXPECT_EQ(s.podsSucceeded, 100);
    // One success and one failed probe per completion at most, plus the first two attempts.
    EXPECT_LE(s.schedulingAttempts, 2u + 2u * 100u);
    EXPECT_EQ(uint64_t(cluster.scheduleCalls), s.schedulingAttempts);
    // FIFO: the k-th job waits 10*(k-1) seconds.
    EXPECT_DOUBLE_EQ(s.waitSeconds.max, 990);
    EXPECT_DOUBLE_EQ(s.waitSeconds.p50, 490);
    EXPECT_DOUBLE_EQ(s.waitSeconds.p99, 980);
    // Exact from the events although no sample was taken (interval 0): 99 wait behind the first.
    EXPECT_EQ(s.peakPendingPods, 99);
}

TEST(Simulator, HigherPriorityGetsFreedDeviceFirst)
{
    FakeCluster cluster;
    Simulator sim(cluster, opts(100 * kSecond));
    sim.addNodePool(gpuPool("n", 1, 1));
    sim.setArrivals(
        source({ gpuJob("first", 0, 10), gpuJob("low", 1, 10, 1, 0), gpuJob("high", 2, 10, 1, 100) }));
    EventLog log;
    sim.addRecorder(&log);
    sim.run();
    EXPECT_TRUE(log.has("10s Scheduled default/high-0 @n-0"));
    EXPECT_TRUE(log.has("20s Scheduled default/low-0 @n-0"));
}

TEST(Simulator, BackoffDelaysTheRetryOfARecentlyFailedPodWithoutPopFromBackoffQ)
{
    // The pod fails at t=0.5s; capacity frees at t=1s but its 1 s backoff runs until 1.5 s.
    // (With SchedulerPopFromBackoffQ, test_backoff_queue.cpp, it is retried at 1 s.)
    FakeCluster cluster;
    SimOptions o = opts(100 * kSecond);
    o.popFromBackoffQ = false;
    Simulator sim(cluster, o);
    sim.addNodePool(gpuPool("n", 1, 1));
    sim.setArrivals(source({ gpuJob("a", 0, 1), gpuJob("b", 0.5, 1) }));
    EventLog log;
    sim.addRecorder(&log);
    sim.run();
    EXPECT_TRUE(log.has("500ms Unschedulable default/b-0"));
    EXPECT_TRUE(log.has("1s500ms Scheduled default/b-0 @n-0"));
}

TEST(Simulator, NoExecuteTaintEvictsAndJobReplacesThePod)
{
    FakeCluster cluster;
    Simulator sim(cluster, opts(200 * kSecond));
    sim.addNodePool(gpuPool("n", 2, 1));
    workload::JobSpec job = gpuJob("train", 0, 100);
    job.backoffLimit = 1;
    sim.setArrivals(source({ job }));
    InjectedEvent taint;
    taint.at = 20 * kSecond;
    taint.type = InjectedEvent::Type::DeviceTaint;
    taint.node = "n-0";
    taint.taint.key = "broken";
    taint.taint.effect = "NoExecute";
    sim.addEvent(taint);
    EventLog log;
    sim.addRecorder(&log);
    RunSummary s = sim.run();
    EXPECT_TRUE(log.has("0s Scheduled default/train-0 @n-0"));
    EXPECT_TRUE(log.has("20s Evicted default/train-0 @n-0"));
    // Job controller backoff: 10 s after the first failure.
    EXPECT_TRUE(log.has("30s Created default/train-1"));
    EXPECT_TRUE(log.has("30s Scheduled default/train-1 @n-1"));
    EXPECT_EQ(s.podsEvicted, 1);
    EXPECT_EQ(workloadOf(s, "w").jobsSucceeded, 1);
}

TEST(Simulator, JobFailsWhenBackoffLimitIsExceeded)
{
    FakeCluster cluster;
    Simulator sim(cluster, opts(200 * kSecond));
    sim.addNodePool(gpuPool("n", 1, 1));
    sim.setArrivals(source({ gpuJob("train", 0, 100) })); // backoffLimit 0
    InjectedEvent fail;
    fail.at = 5 * kSecond;
    fail.type = InjectedEvent::Type::NodeFailure;
    fail.node = "n-0";
    sim.addEvent(fail);
    RunSummary s = sim.run();
    EXPECT_EQ(workloadOf(s, "w").jobsFailed, 1);
    EXPECT_EQ(s.podsFailed, 1);
    EXPECT_EQ(s.podsPendingAtEnd, 0);
}

TEST(Simulator, NodeFailureAndReturn)
{
    FakeCluster cluster;
    Simulator sim(cluster, opts(300 * kSecond, 50 * kSecond));
    sim.addNodePool(gpuPool("n", 1, 2, 3.6));
    workload::JobSpec job = gpuJob("svc", 0, 1000, 2);
    job.backoffLimit = 3;
    sim.setArrivals(source({ job }));
    InjectedEvent fail;
    fail.at = 50 * kSecond;
    fail.type = InjectedEvent::Type::NodeFailure;
    fail.node = "n-0";
    InjectedEvent back = fail;
    back.at = 100 * kSecond;
    back.type = InjectedEvent::Type::NodeReturn;
    sim.addEvent(fail);
    sim.addEvent(back);
    EventLog log;
    sim.addRecorder(&log);
    SeriesWriter series;
    sim.addRecorder(&series);
    RunSummary s = sim.run();
    EXPECT_TRUE(log.has("50s Failed default/svc-0 @n-0"));
    EXPECT_TRUE(log.has("1m Unschedulable default/svc-1"));
    EXPECT_TRUE(log.has("1m40s Scheduled default/svc-1 @n-0"));
    // Utilization of the model: 100% until the failure, the node is down (0 devices) at 50s.
    EXPECT_NE(series.csv().find("0,utilization.model,A100,1\n"), std::string::npos);
    EXPECT_NE(series.csv().find("50,utilization.model,A100,0\n"), std::string::npos);
    EXPECT_NE(series.csv().find("150,utilization.model,A100,1\n"), std::string::npos);
    // A failed machine is still paid for: 300 s at $3.60/h.
    EXPECT_NEAR(s.costUsd, 0.3, 1e-9);
    ASSERT_EQ(s.placement.size(), 1u);
    EXPECT_EQ(s.placement[0].key, "NV");
    EXPECT_EQ(s.placement[0].value, 2);
}

TEST(Simulator, PipelineTasksStartWhenUpstreamSucceeded)
{
    FakeCluster cluster;
    Simulator sim(cluster, opts(100 * kSecond));
    sim.addNodePool(gpuPool("n", 2, 1));
    workload::JobSpec run;
    run.name = "run";
    run.workload = "kfp";
    run.kind = workload::kKindPipelineRun;
    auto tmpl = std::make_shared<api::PodTemplateSpec>();
    auto task = [&](std::string name, double secs, std::vector<std::string> deps) {
        workload::TaskSpec t;
        t.name = std::move(name);
        t.pod = tmpl;
        t.durationSeconds = secs;
        t.dependsOn = std::move(deps);
        return t;
    };
    run.tasks = { task("prep", 5, {}), task("train-a", 10, { "prep" }), task("train-b", 20, { "prep" }),
        task("eval", 5, { "train-a", "train-b" }) };
    sim.setArrivals(source({ run }));
    EventLog log;
    sim.addRecorder(&log);
    RunSummary s = sim.run();
    EXPECT_TRUE(log.has("0s Created default/run-prep"));
    EXPECT_TRUE(log.has("5s Created default/run-train-a"));
    EXPECT_TRUE(log.has("5s Created default/run-train-b"));
    EXPECT_TRUE(log.has("25s Created default/run-eval"));
    const WorkloadSummary& w = workloadOf(s, "kfp");
    EXPECT_EQ(w.jobsSucceeded, 1);
    EXPECT_DOUBLE_EQ(w.pipelineCompletionSeconds.max, 30);
}

TEST(Simulator, SameInputGivesByteIdenticalOutputs)
{
    auto once = [] {
        FakeCluster cluster;
        Simulator sim(cluster, opts(500 * kSecond, 7 * kSecond));
        sim.addNodePool(gpuPool("a", 3, 4, 2.5));
        sim.addNodePool(gpuPool("b", 2, 8, 9));
        std::vector<workload::JobSpec> jobs;
        for (int i = 0; i < 200; ++i)
            jobs.push_back(gpuJob(
                std::string("j").append(std::to_string(i)), i * 1.7, 5 + (i * 37) % 60, 1 + i % 4, i % 3));
        sim.setArrivals(source(jobs));
        InjectedEvent fail;
        fail.at = 100 * kSecond;
        fail.type = InjectedEvent::Type::NodeFailure;
        fail.node = "b-1";
        sim.addEvent(fail);
        SeriesWriter series;
        sim.addRecorder(&series);
        RunSummary s = sim.run();
        return toJson(toData(s)) + series.csv();
    };
    std::string first = once();
    std::string second = once();
    EXPECT_EQ(first, second);
    EXPECT_NE(first.find("\"scenario\": \"test\""), std::string::npos);
}

TEST(Simulator, CancelStopsTheRun)
{
    struct CancelAtFirstSample : RunRecorder
    {
        CancelToken* token;
        void onSample(const MetricSample&) override { token->cancel(); }
    };
    FakeCluster cluster;
    Simulator sim(cluster, opts(100 * kDay, kSecond));
    sim.addNodePool(gpuPool("n", 1, 1));
    CancelToken token;
    CancelAtFirstSample r;
    r.token = &token;
    sim.addRecorder(&r);
    RunSummary s = sim.run(nullptr, &token);
    EXPECT_TRUE(s.cancelled);
    EXPECT_LT(s.simulatedTime, 100 * kDay);
}

TEST(Simulator, ARecorderThatDecidesTheRunStopsItRightAfterThatEvent)
{
    // A job arrives every second; the recorder cancels when it sees the pod of 100 s. The run ends
    // with that event (and the scheduling it caused): no further event is processed.
    struct CancelAtPod : RunRecorder
    {
        CancelToken* token = nullptr;
        std::string lastPod;
        void onPodEvent(const PodEvent& e) override
        {
            lastPod = e.pod;
            if (e.pod == "default/j100-0" && e.type == PodEventType::Created)
                token->cancel();
        }
    };
    FakeCluster cluster;
    Simulator sim(cluster, opts(kDay, kHour));
    sim.addNodePool(gpuPool("n", 1, 1));
    std::vector<workload::JobSpec> jobs;
    for (int i = 1; i <= 5000; ++i)
        jobs.push_back(gpuJob("j" + std::to_string(i), i, 0.5));
    sim.setArrivals(source(jobs));
    CancelToken token;
    CancelAtPod r;
    r.token = &token;
    sim.addRecorder(&r);
    RunSummary s = sim.run(nullptr, &token);
    EXPECT_TRUE(s.cancelled);
    EXPECT_EQ(s.simulatedTime, 100 * kSecond);
    EXPECT_EQ(r.lastPod, "default/j100-0"); // created, then scheduled in the same event
    EXPECT_LT(s.events, 400u);
}

TEST(Simulator, NodePoolsCanBeAddedAndRemovedAtATime)
{
    FakeCluster cluster;
    Simulator sim(cluster, opts(300 * kSecond, 100 * kSecond));
    sim.addNodePool(gpuPool("base", 1, 1, 1.0));
    sim.setArrivals(source({ gpuJob("a", 0, 250), gpuJob("b", 0, 250) }));
    InjectedEvent add;
    add.at = 50 * kSecond;
    add.type = InjectedEvent::Type::AddNodePool;
    add.newPool = std::make_shared<NodePool>(gpuPool("burst", 1, 1, 36.0));
    InjectedEvent remove;
    remove.at = 150 * kSecond;
    remove.type = InjectedEvent::Type::RemoveNodePool;
    remove.pool = "burst";
    sim.addEvent(add);
    sim.addEvent(remove);
    EventLog log;
    sim.addRecorder(&log);
    SeriesWriter series;
    sim.addRecorder(&series);
    RunSummary s = sim.run();
    EXPECT_TRUE(log.has("50s Scheduled default/b-0 @burst-0"));
    EXPECT_TRUE(log.has("2m30s Failed default/b-0 @burst-0"));
    EXPECT_NE(series.csv().find("100,nodes.up,burst,1\n"), std::string::npos);
    EXPECT_NE(series.csv().find("200,nodes.up,burst,0\n"), std::string::npos);
    // base: 300 s at $1/h; burst: 100 s at $36/h.
    EXPECT_NEAR(s.costUsd, 300.0 / 3600 + 1.0, 1e-9);
}

TEST(Simulator, FailedJobReleasesItsOtherRunningPods)
{
    FakeCluster cluster;
    Simulator sim(cluster, opts(200 * kSecond));
    sim.addNodePool(gpuPool("n", 2, 1));
    workload::JobSpec job = gpuJob("par", 0, 100);
    job.parallelism = 2;
    job.completions = 2;
    sim.setArrivals(source({ job }));
    InjectedEvent fail;
    fail.at = 10 * kSecond;
    fail.type = InjectedEvent::Type::NodeFailure;
    fail.node = "n-0";
    sim.addEvent(fail);
    EventLog log;
    sim.addRecorder(&log);
    RunSummary s = sim.run();
    EXPECT_TRUE(log.has("10s Failed default/par-0 @n-0"));
    EXPECT_TRUE(log.has("10s Failed default/par-1 @n-1"));
    EXPECT_EQ(workloadOf(s, "w").jobsFailed, 1);
    // The surviving pod was deleted in the cluster too: its device is free again.
    EXPECT_NE(
        std::find(cluster.finished.begin(), cluster.finished.end(), "default/par-1"), cluster.finished.end());
    EXPECT_TRUE(cluster.nodes["n-1"][0].holder.empty());
}

TEST(Simulator, ScheduledPodEventsCarryTheDevicesAndPlacementOfTheBinding)
{
    struct Capture : RunRecorder
    {
        std::vector<PodEvent> events;
        void onPodEvent(const PodEvent& e) override { events.push_back(e); }
    } capture;
    FakeCluster cluster;
    Simulator sim(cluster, opts(100 * kSecond));
    sim.addNodePool(gpuPool("n", 1, 3));
    sim.setArrivals(source({ gpuJob("pair", 0, 10, 2), gpuJob("one", 1, 10) }));
    sim.addRecorder(&capture);
    sim.run();

    std::vector<const PodEvent*> scheduled;
    for (const auto& e : capture.events) {
        if (e.type == PodEventType::Scheduled)
            scheduled.push_back(&e);
        else
            EXPECT_TRUE(e.devices.empty() && e.placements.empty())
                << podEventTypeName(e.type) << " " << e.pod;
    }
    ASSERT_EQ(scheduled.size(), 2u);
    EXPECT_EQ(scheduled[0]->pod, "default/pair-0");
    EXPECT_EQ(scheduled[0]->devices,
        (std::vector<HeldDevice> { { "default/pair-0-gpu", "gpu.example.com", "n-0", "gpu-0", "gpu" },
            { "default/pair-0-gpu", "gpu.example.com", "n-0", "gpu-1", "gpu" } }));
    EXPECT_EQ(scheduled[0]->placements, std::vector<std::string> { "NV" });
    EXPECT_EQ(scheduled[1]->pod, "default/one-0");
    ASSERT_EQ(scheduled[1]->devices.size(), 1u);
    EXPECT_EQ(scheduled[1]->devices[0].device, "gpu-2");
    EXPECT_TRUE(scheduled[1]->placements.empty());
}
