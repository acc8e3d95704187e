// SPDX-License-Identifier: Apache-2.0
// The scheduling queue with and without the SchedulerPopFromBackoffQ feature gate (KEP-5142).
#include <map>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "core/sim/simulator.h"
#include "tests/unit/sim/fake_cluster.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

struct PodLog : RunRecorder
{
    struct Line
    {
        SimTime time;
        PodEventType type;
        std::string pod;
    };
    std::vector<Line> lines;
    void onPodEvent(const PodEvent& e) override { lines.push_back({ e.time, e.type, e.pod }); }
    bool has(SimTime t, PodEventType type, const std::string& pod) const
    {
        for (const auto& l : lines)
            if (l.time == t && l.type == type && l.pod == pod)
                return true;
        return false;
    }
};

SimOptions gateOpts(bool popFromBackoffQ, SimTime duration = 100 * kSecond)
{
    SimOptions o;
    o.scenarioName = "test";
    o.duration = duration;
    o.metricInterval = 0;
    o.popFromBackoffQ = popFromBackoffQ;
    return o;
}

/// A job like gpuJob whose pods tolerate `key`: a scheduling signature of its own.
workload::JobSpec distinctJob(
    const std::string& name, double at, double seconds, int32_t priority, const std::string& key)
{
    workload::JobSpec job = gpuJob(name, at, seconds, 1, priority);
    auto tmpl = std::make_shared<api::PodTemplateSpec>(*job.tasks[0].pod);
    api::Toleration t;
    t.key = key;
    t.op = "Exists";
    tmpl->spec.tolerations.push_back(t);
    job.tasks[0].pod = tmpl;
    return job;
}

PodLog runOne(bool gate, std::vector<workload::JobSpec> jobs, int nodes = 1, int gpus = 1)
{
    FakeCluster cluster;
    Simulator sim(cluster, gateOpts(gate));
    sim.addNodePool(gpuPool("n", nodes, gpus));
    sim.setArrivals(source(std::move(jobs)));
    PodLog log;
    sim.addRecorder(&log);
    sim.run();
    return log;
}

} // namespace

TEST(PopFromBackoffQ, IdleSchedulerRetriesARejectedPodAsSoonAsAnEventMayHelpIt)
{
    // b is rejected at 0.5 s; a ends at 1 s and frees the GPU. b's backoff (1 s) is not over, but
    // activeQ is empty, so the scheduler pops b from backoffQ at once.
    PodLog on = runOne(true, { gpuJob("a", 0, 1), gpuJob("b", 0.5, 1) });
    EXPECT_TRUE(on.has(500, PodEventType::Unschedulable, "default/b-0"));
    EXPECT_TRUE(on.has(1000, PodEventType::Scheduled, "default/b-0"));
    // Gate off: b waits out its backoff, to 1.5 s.
    PodLog off = runOne(false, { gpuJob("a", 0, 1), gpuJob("b", 0.5, 1) });
    EXPECT_TRUE(off.has(1500, PodEventType::Scheduled, "default/b-0"));
    EXPECT_FALSE(off.has(1000, PodEventType::Scheduled, "default/b-0"));
}

TEST(PopFromBackoffQ, BackoffQIsOrderedByExpiryWindowThenPriority)
{
    // lo is rejected at 0 s (backoff until 1 s), hi at 0.5 s (until 1.5 s). Both expiries fall in
    // the window [1 s, 2 s), so both still back off at 1 s, when the GPU frees; in one window the
    // higher priority goes first.
    std::vector<workload::JobSpec> jobs { gpuJob("a", 0, 1), distinctJob("lo", 0, 5, 0, "lo"),
        distinctJob("hi", 0.5, 5, 100, "hi") };
    PodLog on = runOne(true, jobs);
    EXPECT_TRUE(on.has(1000, PodEventType::Scheduled, "default/hi-0"));
    EXPECT_TRUE(on.has(6000, PodEventType::Scheduled, "default/lo-0"));
    // Gate off: lo's backoff is over at exactly 1 s, so it goes to activeQ and wins.
    PodLog off = runOne(false, jobs);
    EXPECT_TRUE(off.has(1000, PodEventType::Scheduled, "default/lo-0"));
    EXPECT_FALSE(off.has(1000, PodEventType::Scheduled, "default/hi-0"));
}

TEST(PopFromBackoffQ, ActiveQGoesBeforeBackoffQWhateverThePriority)
{
    // lo is rejected at 0 s; its window ends at 2 s. hi is rejected at 2.5 s; its window ends at
    // 4 s. When the GPU frees at 3 s, lo is done backing off (activeQ) and hi is not (backoffQ):
    // backoffQ is popped only when activeQ is empty, so lo gets the GPU.
    std::vector<workload::JobSpec> jobs { gpuJob("a", 0, 3), distinctJob("lo", 0, 5, 0, "lo"),
        distinctJob("hi", 2.5, 5, 100, "hi") };
    PodLog on = runOne(true, jobs);
    EXPECT_TRUE(on.has(3000, PodEventType::Scheduled, "default/lo-0"));
    EXPECT_TRUE(on.has(3000, PodEventType::Unschedulable, "default/hi-0"));
    EXPECT_TRUE(on.has(8000, PodEventType::Scheduled, "default/hi-0"));
}

// Law: with the gate on, the scheduler never sits idle while a pod backs off, so a pod that was
// not scheduled on creation is scheduled only at an instant when capacity was freed (a pod
// ended). With the gate off the law must fail somewhere (backoff expiries schedule pods), which
// shows that the check can fail.
TEST(PopFromBackoffQ, LawNoPodWaitsForABackoffWhileTheSchedulerIsIdle)
{
    int violationsOff = 0;
    for (uint32_t seed = 1; seed <= 150; ++seed) {
        std::mt19937 rng(seed);
        std::vector<workload::JobSpec> jobs;
        int n = 3 + int(rng() % 10);
        double at = 0;
        for (int i = 0; i < n; ++i) {
            at += double(rng() % 3000) / 1000.0;
            double seconds = 0.3 + double(rng() % 8000) / 1000.0;
            int gpus = 1 + int(rng() % 2);
            int32_t priority = (rng() % 3 == 0) ? 100 : 0;
            jobs.push_back(gpuJob("j" + std::to_string(i), at, seconds, gpus, priority));
        }
        for (bool gate : { true, false }) {
            PodLog log = runOne(gate, jobs, 2, 2);
            std::map<std::string, SimTime> created;
            std::set<SimTime> freed;
            for (const auto& l : log.lines) {
                if (l.type == PodEventType::Created)
                    created[l.pod] = l.time;
                if (l.type == PodEventType::Succeeded)
                    freed.insert(l.time);
            }
            for (const auto& l : log.lines) {
                if (l.type != PodEventType::Scheduled || l.time == created[l.pod])
                    continue;
                bool ok = freed.count(l.time) > 0;
                if (gate)
                    EXPECT_TRUE(ok) << "seed " << seed << ": " << l.pod << " scheduled at "
                                    << formatDuration(l.time) << " with nothing freed then";
                else if (!ok)
                    ++violationsOff;
            }
        }
    }
    EXPECT_GT(violationsOff, 0);
}
