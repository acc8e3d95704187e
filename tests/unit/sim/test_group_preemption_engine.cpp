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

/// `perRack` > 0: the nodes are labelled rack=r<i / perRack> and the group's topology key is
/// honoured (TopologyAwareWorkloadScheduling).
GroupPreemptionLog runGangs(int nodes, std::vector<workload::JobSpec> jobs,
    bool workloadAwarePreemption = true, int perRack = 0,
    api::KubernetesVersion version = api::kDefaultKubernetesVersion)
{
    scheduler::SchedulerOptions options;
    options.kubernetesVersion = version;
    scheduler::Cluster cluster(api::ObjectSet {}, options);
    SchedulerClusterPort port(cluster);
    SimOptions o;
    o.scenarioName = "group-preemption";
    o.duration = 3000 * kSecond;
    o.metricInterval = 0;
    o.podGroups = true;
    o.workloadAwarePreemption = workloadAwarePreemption;
    o.topologyAwareGroups = perRack > 0;
    Simulator sim(port, o);
    NodePool pool = devicePluginPool(nodes);
    for (int i = 0; perRack > 0 && i < nodes; ++i)
        pool.nodes[i].node.meta.labels["rack"] = "r" + std::to_string(i / perRack);
    sim.addNodePool(pool);
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
    // A victim's DisruptionTarget names its preemptor's kind: a PodGroup (PreemptPod, preemptor.Type()).
    EXPECT_TRUE(log.has("2m10s Evicted default/batch-0 @gp-0: DisruptionTarget: PreemptionByScheduler: "
                        "preempting to accommodate a higher priority podgroup"))
        << log.dump();
    EXPECT_EQ(log.count("accommodate a higher priority podgroup"), 2) << log.dump();
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

// A gang kept in one rack (kubernetes/kubernetes#140683, 1.37): a batch gang of four holds both
// racks' GPUs; the training gang of two evicts the two batch pods of one rack only, waits through
// their grace period and binds there. 1.36 preempts nothing for it and the gang waits for the
// batch job to end.
TEST(GroupPreemptionRun, ARackConstrainedGangEvictsInOneRackFrom137)
{
    workload::JobSpec train = gangJob("train", 100, 500, 2, 1000);
    train.group->topologyKey = "rack";
    const std::vector<workload::JobSpec> jobs { gangJob("batch", 0, 1000, 4, 0), train };
    auto log = runGangs(4, jobs, true, 2);
    EXPECT_EQ(log.count("1m40s Preempted default/batch-"), 2) << log.dump();
    // Both victims in one rack, and the gang binds on the two GPUs they held.
    const int inR0 = log.count("@gp-0: preempted") + log.count("@gp-1: preempted");
    const int inR1 = log.count("@gp-2: preempted") + log.count("@gp-3: preempted");
    EXPECT_TRUE((inR0 == 2 && inR1 == 0) || (inR0 == 0 && inR1 == 2)) << log.dump();
    const std::string rackNodes = inR0 == 2 ? "01" : "23";
    int boundThere = 0;
    for (char m : std::string("01"))
        for (char n : rackNodes)
            boundThere += log.count(std::string("2m10s Scheduled default/train-") + m + " @gp-" + n);
    EXPECT_EQ(boundThere, 2) << log.dump();

    auto v136 = runGangs(4, jobs, true, 2, api::KubernetesVersion::V1_36);
    EXPECT_EQ(v136.count("Preempted"), 0) << v136.dump();
    EXPECT_EQ(v136.count("16m40s Scheduled default/train-"), 2) << v136.dump();
}

// 1.36 without the WorkloadAwarePreemption gate: each training member that does not fit runs its
// own DefaultPreemption inside the group cycle, each evicting one batch pod, and the gang waits
// nominated. When batch-1 is gone (2m10s) the next cycle places train-0 but not train-1, whose
// victim is still terminating (not eligible to preempt again): the group fails without waiting on
// preemption and train-0's nomination is taken back, as 1.36's submitPodGroupAlgorithmResult does.
// batch-1's replacement takes the node, and train-0 evicts it in turn: the needless disruption
// workload-aware preemption was made to end. The victims name a pod as their preemptor.
TEST(GroupPreemptionRun, In136WithoutTheGateEachMemberPreemptsForItself)
{
    const std::vector<workload::JobSpec> jobs { gangJob("batch", 0, 1000, 2, 0),
        gangJob("train", 100, 500, 2, 1000) };
    auto log = runGangs(2, jobs, false, 0, api::KubernetesVersion::V1_36);
    EXPECT_EQ(log.count("1m40s Preempted default/batch-"), 2) << log.dump();
    EXPECT_EQ(log.count("preempted by default/train-0 (priority 1000)"), 2) << log.dump();
    EXPECT_EQ(log.count("preempted by default/train-1 (priority 1000)"), 1) << log.dump();
    EXPECT_EQ(log.count("accommodate a higher priority podgroup"), 0) << log.dump();
    EXPECT_EQ(log.count("Evicted default/batch-"), 3) << log.dump();
    EXPECT_EQ(log.count("2m10s Scheduled default/batch-2"), 1) << log.dump();
    EXPECT_EQ(log.count("2m40s Scheduled default/train-"), 2) << log.dump();
    EXPECT_EQ(log.count("Scheduled default/train-"), 2) << log.dump();
}
