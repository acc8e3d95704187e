// SPDX-License-Identifier: Apache-2.0
// PodGroupMinCount events: Kubernetes 1.37 lets a Job's gang minCount change (the Job controller
// patches the PodGroup). A smaller minCount lets a gated group in, sends a parked one back and
// completes a gang whose members wait for peers; a larger one holds later jobs back; jobs the
// workload creates after the event take the new value.
#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace min_count_test {

struct BindLog : RunRecorder
{
    std::map<std::string, SimTime> boundAt;
    std::map<std::string, SimTime> doneAt;
    std::vector<std::string> clusterEvents;
    void onPodEvent(const PodEvent& e) override
    {
        if (e.type == PodEventType::Scheduled)
            boundAt[e.pod] = e.time;
        if (e.type == PodEventType::Succeeded)
            doneAt[e.pod] = e.time;
    }
    void onClusterEvent(const ClusterEvent& e) override
    {
        clusterEvents.push_back(formatDuration(e.time) + " " + e.kind + " " + e.subject + " " + e.detail);
    }
    int boundBy(SimTime t) const
    {
        int n = 0;
        for (const auto& [pod, at] : boundAt)
            n += at <= t;
        return n;
    }
};

workload::JobSpec gangJob(
    const std::string& name, double at, double seconds, int32_t parallelism, int32_t minCount = 0)
{
    workload::JobSpec job = gpuJob(name, at, seconds, 1);
    job.parallelism = parallelism;
    job.completions = parallelism;
    workload::GroupSpec g;
    g.gang = true;
    g.minCount = minCount;
    job.group = g;
    return job;
}

InjectedEvent minCountAt(SimTime at, int32_t minCount, const std::string& workloadName = "w")
{
    InjectedEvent e;
    e.at = at;
    e.type = InjectedEvent::Type::PodGroupMinCount;
    e.workload = workloadName;
    e.minCount = minCount;
    return e;
}

/// `gpus` nodes of one GPU; `podGroups` as the gates GenericWorkload and WorkloadWithJob say.
BindLog runJobs(std::vector<workload::JobSpec> jobs, std::vector<InjectedEvent> events, int gpus,
    bool podGroups = true, RunSummary* summary = nullptr)
{
    SimOptions options;
    options.scenarioName = "min-count";
    options.duration = 2000 * kSecond;
    options.metricInterval = 0;
    options.podGroups = podGroups;
    scheduler::Cluster cluster(oneGpuClassAndTemplate());
    SchedulerClusterPort port(cluster);
    Simulator sim(port, options);
    sim.addNodePool(gpuPool("n", gpus, 1));
    sim.setArrivals(source(std::move(jobs)));
    for (auto& e : events)
        sim.addEvent(std::move(e));
    BindLog log;
    sim.addRecorder(&log);
    RunSummary s = sim.run();
    if (summary)
        *summary = s;
    return log;
}

} // namespace min_count_test

using namespace min_count_test;

// Four workers on three GPUs never fit; at 50 s the job settles for three, and the parked group
// goes back at once: three bind and start their work together, the fourth stays pending.
TEST(MinCountEvents, LoweringMinCountLetsAParkedGangBindWhatFits)
{
    RunSummary summary;
    const BindLog log
        = runJobs({ gangJob("train", 1, 100, 4) }, { minCountAt(50 * kSecond, 3) }, 3, true, &summary);
    EXPECT_EQ(log.boundBy(49 * kSecond), 0);
    EXPECT_EQ(log.boundBy(50 * kSecond), 3);
    EXPECT_EQ(summary.gangs.started, 1);
    EXPECT_EQ(summary.gangs.idleDeviceHours, 0);
    // Their work starts with the binding; the fourth joins the group's bound members when a GPU
    // is free again.
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(log.doneAt.at("default/train-" + std::to_string(i)), 150 * kSecond) << i;
    EXPECT_EQ(log.boundAt.at("default/train-3"), 150 * kSecond);
    ASSERT_FALSE(log.clusterEvents.empty());
    EXPECT_EQ(log.clusterEvents.front(), "50s PodGroupMinCount w minCount=3");
}

// Two pods of a gang that asks for three wait at PreEnqueue however much room there is; a
// minCount of two lets the group in.
TEST(MinCountEvents, LoweringMinCountLetsAGatedGroupIn)
{
    const BindLog gated = runJobs({ gangJob("train", 1, 100, 2, 3) }, {}, 4);
    EXPECT_TRUE(gated.boundAt.empty());
    const BindLog log = runJobs({ gangJob("train", 1, 100, 2, 3) }, { minCountAt(30 * kSecond, 2) }, 4);
    EXPECT_EQ(log.boundBy(29 * kSecond), 0);
    EXPECT_EQ(log.boundBy(30 * kSecond), 2);
}

// A larger minCount changes jobs the workload creates later (the Job template) as well as those
// that exist: the job that arrived before the event ran; the later one, four workers asking for
// five, waits at PreEnqueue. Another workload's job is untouched.
TEST(MinCountEvents, LaterJobsOfTheWorkloadTakeTheNewValue)
{
    auto other = gangJob("other", 20, 100, 2);
    other.workload = "v";
    const BindLog log = runJobs({ gangJob("early", 1, 5, 4), gangJob("late", 20, 100, 4), other },
        { minCountAt(10 * kSecond, 5) }, 8);
    EXPECT_EQ(log.boundAt.at("default/early-0"), 1 * kSecond);
    EXPECT_EQ(log.boundAt.count("default/late-0"), 0u);
    EXPECT_EQ(log.boundAt.at("default/other-0"), 20 * kSecond);
    // The same events with an unrelated workload name change nothing.
    const BindLog untouched = runJobs({ gangJob("early", 1, 5, 4), gangJob("late", 20, 100, 4), other },
        { minCountAt(10 * kSecond, 5, "nobody") }, 8);
    EXPECT_EQ(untouched.boundAt.at("default/late-0"), 20 * kSecond);
}

// Without PodGroups (gates off) the pods bind one by one and the workers wait for their peers
// doing nothing: a smaller minCount lets the three that run start working at once.
TEST(MinCountEvents, GatesOffTheWaitingWorkersStartWhenMinCountDrops)
{
    RunSummary summary;
    const BindLog log
        = runJobs({ gangJob("train", 1, 100, 4) }, { minCountAt(50 * kSecond, 3) }, 3, false, &summary);
    EXPECT_EQ(log.boundBy(1 * kSecond), 3);
    EXPECT_EQ(summary.gangs.started, 1);
    EXPECT_DOUBLE_EQ(summary.gangs.idleDeviceHours, 3 * 49 / 3600.0);
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(log.doneAt.at("default/train-" + std::to_string(i)), 150 * kSecond) << i;
}
