// SPDX-License-Identifier: Apache-2.0
// Pods of another scheduler in a run: with a KubeSchedulerConfiguration whose profiles do not
// name a pod's spec.schedulerName, kube-scheduler never queues the pod (eventhandlers.go,
// responsibleForPod), so the simulation makes no attempt for it and gives it no status: it stays
// pending until the run ends, and its own scheduler's pods go on as before. A gang's pods of
// another scheduler are no members its PodGroup cycle sees.
#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/scheduler_config.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace foreign_scheduler_test {

struct EventLog : RunRecorder
{
    std::map<std::string, std::vector<PodEventType>> byPod;
    void onPodEvent(const PodEvent& e) override { byPod[e.pod].push_back(e.type); }
};

workload::JobSpec jobFor(const std::string& name, double at, const std::string& schedulerName)
{
    workload::JobSpec job = gpuJob(name, at, 30);
    auto tmpl = std::make_shared<api::PodTemplateSpec>(*job.tasks[0].pod);
    tmpl->spec.schedulerName = schedulerName;
    job.tasks[0].pod = tmpl;
    return job;
}

struct Outcome
{
    EventLog log;
    RunSummary summary;
    Simulator::PodAt foreign;
};

/// `jobs` on `nodes` nodes of three GPUs, with the default configuration's profiles (`configured`)
/// or none, and PodGroups on (`podGroups`).
Outcome runForeign(
    std::vector<workload::JobSpec> jobs, bool configured, int nodes = 1, bool podGroups = false)
{
    scheduler::SchedulerOptions options;
    if (configured)
        options.profiles = std::make_shared<const std::vector<scheduler::SchedulerProfile>>(
            scheduler::defaultConfiguration().profiles);
    scheduler::Cluster cluster(oneAndTwoGpuTemplates(), options);
    SchedulerClusterPort port(cluster);
    SimOptions o;
    o.scenarioName = "foreign";
    o.duration = 600 * kSecond;
    o.metricInterval = 0;
    o.podGroups = podGroups;
    Simulator sim(port, o);
    sim.addNodePool(gpuPool("n", nodes, 3));
    sim.setArrivals(source(std::move(jobs)));
    Outcome out;
    sim.addRecorder(&out.log);
    out.summary = sim.run();
    out.foreign = sim.podAt("default/volcano-job-0");
    return out;
}

Outcome run(bool configured)
{
    // `ours` ends at 31 s and frees its GPU: before, that retried the foreign pod too.
    return runForeign({ jobFor("volcano-job", 0, "volcano"), jobFor("ours", 1, ""),
                          jobFor("also-ours", 2, "default-scheduler") },
        configured);
}

} // namespace foreign_scheduler_test

using namespace foreign_scheduler_test;

using Events = std::vector<PodEventType>;

TEST(ForeignSchedulerPods, AreNeverQueuedAttemptedOrGivenAStatus)
{
    const Outcome out = run(true);
    EXPECT_EQ(out.log.byPod.at("default/volcano-job-0"), Events { PodEventType::Created });
    EXPECT_EQ(out.summary.schedulingAttempts, 2u); // ours and also-ours, once each
    EXPECT_EQ(out.summary.podsPendingAtEnd, 1);
    EXPECT_EQ(out.foreign.state, Simulator::PodAt::State::Pending);
    EXPECT_TRUE(out.foreign.node.empty());
    const Events ran { PodEventType::Created, PodEventType::Scheduled, PodEventType::Succeeded };
    EXPECT_EQ(out.log.byPod.at("default/ours-0"), ran);
    EXPECT_EQ(out.log.byPod.at("default/also-ours-0"), ran);
}

TEST(ForeignSchedulerPods, WithoutAConfigurationEverySchedulerNameIsScheduled)
{
    // No configuration: one profile takes every pod whatever its schedulerName (as before).
    const Outcome out = run(false);
    EXPECT_EQ(out.log.byPod.at("default/volcano-job-0"),
        (Events { PodEventType::Created, PodEventType::Scheduled, PodEventType::Succeeded }));
    EXPECT_EQ(out.summary.schedulingAttempts, 3u);
    EXPECT_EQ(out.summary.podsPendingAtEnd, 0);
}

// A gang of two whose pods name another scheduler: the PodGroup cycle never sees them, so no group
// cycle runs and nothing binds, though the cluster has room; our own job runs as before.
TEST(ForeignSchedulerPods, AGangOfAnotherSchedulerGetsNoGroupCycle)
{
    workload::JobSpec gang = jobFor("volcano-train", 0, "volcano");
    gang.parallelism = 2;
    gang.completions = 2;
    workload::GroupSpec g;
    g.gang = true;
    g.minCount = 2;
    gang.group = g;
    const Outcome out = runForeign({ gang, jobFor("ours", 1, "") }, true, 2, true);
    EXPECT_EQ(out.log.byPod.at("default/volcano-train-0"), Events { PodEventType::Created });
    EXPECT_EQ(out.log.byPod.at("default/volcano-train-1"), Events { PodEventType::Created });
    EXPECT_EQ(out.summary.gangs.groupCycles, 0u);
    EXPECT_EQ(out.summary.gangs.started, 0);
    EXPECT_EQ(out.summary.podsPendingAtEnd, 2);
    EXPECT_EQ(out.log.byPod.at("default/ours-0"),
        (Events { PodEventType::Created, PodEventType::Scheduled, PodEventType::Succeeded }));
}
