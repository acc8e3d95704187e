// SPDX-License-Identifier: Apache-2.0
// Queueing hints in a run: an unschedulable pod is tried again only after a change that a plugin
// which rejected it says may help (a claim deallocated for DynamicResources, not a pod without
// claims ending), or by the unschedulable flush once it has waited 5 minutes. With
// SimOptions::queueingHints off, every change that frees capacity retries it.
#include <algorithm>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace queueing_hints_run {

struct AttemptLog : RunRecorder
{
    std::vector<SimTime> failures; ///< Unschedulable events of the watched pod
    SimTime scheduled = -1;
    std::string pod;
    void onPodEvent(const PodEvent& e) override
    {
        if (e.pod != pod)
            return;
        if (e.type == PodEventType::Unschedulable)
            failures.push_back(e.time);
        if (e.type == PodEventType::Scheduled)
            scheduled = e.time;
    }
};

/// A job whose pod asks for nothing: it fits anywhere, and ending frees no device.
workload::JobSpec plainJob(const std::string& name, double at, double seconds)
{
    workload::JobSpec job = gpuJob(name, at, seconds);
    auto tmpl = std::make_shared<api::PodTemplateSpec>(*job.tasks[0].pod);
    tmpl->spec.resourceClaims.clear();
    job.tasks[0].pod = tmpl;
    return job;
}

AttemptLog run(bool hints, std::vector<workload::JobSpec> jobs, const std::string& watched,
    SimTime duration = 1000 * kSecond, RunSummary* summary = nullptr)
{
    scheduler::Cluster cluster(oneAndTwoGpuTemplates());
    SchedulerClusterPort port(cluster);
    SimOptions o;
    o.scenarioName = "hints";
    o.duration = duration;
    o.metricInterval = 0;
    o.queueingHints = hints;
    Simulator sim(port, o);
    sim.addNodePool(gpuPool("n", 1, 1));
    sim.setArrivals(source(std::move(jobs)));
    AttemptLog log;
    log.pod = watched;
    sim.addRecorder(&log);
    RunSummary s = sim.run();
    if (summary)
        *summary = s;
    return log;
}

/// `gpu` holds the only GPU for 4 minutes; `waiter` wants it from 1 s; twenty pods without
/// claims come and go meanwhile.
std::vector<workload::JobSpec> gpuHeldWhilePlainPodsEnd()
{
    std::vector<workload::JobSpec> jobs { gpuJob("gpu", 0, 240), gpuJob("waiter", 1, 60) };
    for (int i = 0; i < 20; ++i)
        jobs.push_back(plainJob("plain" + std::to_string(i), 10 + 10 * i, 5));
    return jobs;
}

} // namespace queueing_hints_run

using namespace queueing_hints_run;

TEST(QueueingHintsRun, APodWithoutClaimsEndingDoesNotRetryAPodWaitingForADevice)
{
    // DynamicResources registers no Pod/Delete event, and the plain pods hold no claim whose
    // deallocation would queue the waiter: it is tried when it arrives and when `gpu` ends.
    const AttemptLog on = run(true, gpuHeldWhilePlainPodsEnd(), "default/waiter-0");
    EXPECT_EQ(on.failures, std::vector<SimTime>({ 1 * kSecond }));
    EXPECT_EQ(on.scheduled, 240 * kSecond);

    // Without hints each ending pod retries it (and it still gets the GPU at the same time).
    const AttemptLog off = run(false, gpuHeldWhilePlainPodsEnd(), "default/waiter-0");
    EXPECT_EQ(off.failures.size(), 21u);
    EXPECT_EQ(off.scheduled, 240 * kSecond);
}

TEST(QueueingHintsRun, ADeallocatedClaimRetriesAPodWaitingForADeviceAtOnce)
{
    const AttemptLog on = run(true, { gpuJob("a", 0, 100), gpuJob("b", 5, 10) }, "default/b-0");
    EXPECT_EQ(on.failures, std::vector<SimTime>({ 5 * kSecond }));
    EXPECT_EQ(on.scheduled, 100 * kSecond);
}

TEST(QueueingHintsRun, AStuckPodIsRetriedByTheFlushOnceItHasWaitedFiveMinutes)
{
    // Two GPUs on a one-GPU node never fit, and nothing changes: the flush runs every 30 s and
    // moves the pod once more than 5 minutes have passed since its last attempt.
    RunSummary withHints;
    const AttemptLog on
        = run(true, { gpuJob("big", 10, 60, 2) }, "default/big-0", 1000 * kSecond, &withHints);
    EXPECT_EQ(
        on.failures, std::vector<SimTime>({ 10 * kSecond, 330 * kSecond, 660 * kSecond, 990 * kSecond }));
    EXPECT_EQ(withHints.schedulingAttempts, 4u);

    // An attempt that ends exactly on a tick waits for the next one: 5 minutes are not "more
    // than 5 minutes".
    const AttemptLog onTick = run(true, { gpuJob("big", 30, 60, 2) }, "default/big-0");
    EXPECT_EQ(onTick.failures, std::vector<SimTime>({ 30 * kSecond, 360 * kSecond, 690 * kSecond }));

    // Without hints nothing retries it.
    const AttemptLog off = run(false, { gpuJob("big", 10, 60, 2) }, "default/big-0");
    EXPECT_EQ(off.failures, std::vector<SimTime>({ 10 * kSecond }));
}

TEST(QueueingHintsRun, HintsChangeAttemptsNotOutcomesWhenOnlyDevicesAreContested)
{
    // Pods that ask only for devices: a change skipped by the hints could not have helped, so
    // every pod binds at the same time either way; only the count of attempts differs.
    std::vector<workload::JobSpec> jobs;
    for (int i = 0; i < 12; ++i) {
        jobs.push_back(gpuJob("g" + std::to_string(i), 7.0 * i, 45 + 13 * (i % 5)));
        jobs.push_back(plainJob("p" + std::to_string(i), 3.0 + 11 * i, 9 + (i % 3)));
    }
    RunSummary on, off;
    for (int i = 0; i < 12; ++i) {
        const std::string pod = "default/g" + std::to_string(i) + "-0";
        const AttemptLog a = run(true, jobs, pod, 2000 * kSecond, &on);
        const AttemptLog b = run(false, jobs, pod, 2000 * kSecond, &off);
        EXPECT_EQ(a.scheduled, b.scheduled) << pod;
        EXPECT_GE(a.scheduled, 0) << pod;
        EXPECT_LE(a.failures.size(), b.failures.size()) << pod;
    }
    EXPECT_LT(on.schedulingAttempts, off.schedulingAttempts);
}
