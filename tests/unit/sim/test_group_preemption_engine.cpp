// SPDX-License-Identifier: Apache-2.0
// Workload-aware preemption in a run (Kubernetes 1.37 with GenericWorkload): a gang that cannot be
// placed evicts lower-priority units anywhere in the cluster, waits nominated for their grace
// period, then starts whole. A victim group with disruptionMode all leaves as one unit; with
// single only the pods the gang needs leave. Without the gate the gang waits for the work to end.
#include <algorithm>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/event_lines.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

using GroupPreemptionLog = EventLines;

/// A Job of `pods` pods, one plugin GPU each, whose pods form a gang of all of them.
workload::JobSpec gangJob(const std::string& name, double at, double seconds, int32_t pods, int32_t priority,
    bool disruptAll = false)
{
    workload::JobSpec job = pluginGpuJob(name, at, seconds, priority);
    job.parallelism = pods;
    job.completions = pods;
    job.backoffLimit = 10;
    workload::GroupSpec g;
    g.gang = true;
    g.disruptAll = disruptAll;
    job.group = g;
    return job;
}

GroupPreemptionLog runGangs(
    int nodes, std::vector<workload::JobSpec> jobs, bool workloadAwarePreemption = true)
{
    scheduler::Cluster cluster(api::ObjectSet {});
    SchedulerClusterPort port(cluster);
    SimOptions o;
    o.scenarioName = "group-preemption";
    o.duration = 3000 * kSecond;
    o.metricInterval = 0;
    o.podGroups = true;
    o.workloadAwarePreemption = workloadAwarePreemption;
    Simulator sim(port, o);
    sim.addNodePool(devicePluginPool(nodes));
    sim.setArrivals(source(std::move(jobs)));
    GroupPreemptionLog log;
    sim.addRecorder(&log);
    sim.run();
    return log;
}

} // namespace

TEST(GroupPreemptionRun, AGangEvictsALowerGangAndStartsWholeAfterTheGracePeriod)
{
    auto log = runGangs(2, { gangJob("batch", 0, 1000, 2, 0), gangJob("train", 100, 500, 2, 1000) });
    EXPECT_TRUE(log.has("1m40s Preempted default/batch-0 @gp-0: preempted by pod group default/train "
                        "(priority 1000) on node gp-0"))
        << log.dump();
    EXPECT_EQ(log.count("Preempted default/batch-"), 2) << log.dump();
    EXPECT_TRUE(
        log.has("2m10s Scheduled default/train-0 @gp-0") || log.has("2m10s Scheduled default/train-0 @gp-1"))
        << log.dump();
    EXPECT_EQ(log.count("2m10s Scheduled default/train-"), 2) << log.dump();
}

TEST(GroupPreemptionRun, WithoutTheGateTheGangWaitsForTheWorkToEnd)
{
    auto log = runGangs(2, { gangJob("batch", 0, 1000, 2, 0), gangJob("train", 100, 500, 2, 1000) }, false);
    EXPECT_EQ(log.count("Preempted"), 0) << log.dump();
    EXPECT_EQ(log.count("16m40s Scheduled default/train-"), 2) << log.dump();
}

// The preemption unit: a gang of one pod needs one GPU. A victim group with disruptionMode single
// gives up one member; with all, both members leave together.
TEST(GroupPreemptionRun, DisruptionModeDecidesWhetherTheVictimGroupLeavesWhole)
{
    auto single
        = runGangs(2, { gangJob("batch", 0, 1000, 2, 0, false), gangJob("infer", 100, 500, 1, 1000) });
    EXPECT_EQ(single.count("Preempted default/batch-"), 1) << single.dump();
    auto all = runGangs(2, { gangJob("batch", 0, 1000, 2, 0, true), gangJob("infer", 100, 500, 1, 1000) });
    EXPECT_EQ(all.count("Preempted default/batch-"), 2) << all.dump();
    EXPECT_EQ(all.count("2m10s Scheduled default/infer-0"), 1) << all.dump();
}

// A group of equal or higher priority is never a victim, and neither is anything when the gang
// would not fit even with every lower-priority pod gone.
TEST(GroupPreemptionRun, OnlyLowerPriorityUnitsAndOnlyWhenThatMakesRoom)
{
    auto equal = runGangs(2, { gangJob("batch", 0, 1000, 2, 1000), gangJob("train", 100, 500, 2, 1000) });
    EXPECT_EQ(equal.count("Preempted"), 0) << equal.dump();
    auto tooBig = runGangs(2, { gangJob("batch", 0, 1000, 2, 0), gangJob("train", 100, 500, 3, 1000) });
    EXPECT_EQ(tooBig.count("Preempted"), 0) << tooBig.dump();
}
