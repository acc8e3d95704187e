// SPDX-License-Identifier: Apache-2.0
// What a run reports about preemption: preemptions, victims per preemptor, the device-hours of
// work the victims lost (since their last checkpoint), and the waits per priority class, shown
// only when there is something to show.
#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/sim/run_summary.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

/// One node with two device-plugin GPUs.
workload::JobSpec job(const std::string& name, double at, double seconds, int gpus, int32_t priority,
    const std::string& priorityClass)
{
    workload::JobSpec j = pluginGpuJob(name, at, seconds, priority, gpus);
    auto tmpl = std::make_shared<api::PodTemplateSpec>(*j.tasks[0].pod);
    tmpl->spec.priorityClassName = priorityClass;
    j.tasks[0].pod = tmpl;
    j.backoffLimit = 3;
    return j;
}

RunSummary run(std::vector<workload::JobSpec> jobs)
{
    scheduler::Cluster cluster(api::ObjectSet {});
    SchedulerClusterPort port(cluster);
    SimOptions o;
    o.scenarioName = "preemption";
    o.duration = 4000 * kSecond;
    o.metricInterval = 0;
    Simulator sim(port, o);
    sim.addNodePool(devicePluginPool(1, 2));
    sim.setArrivals(source(std::move(jobs)));
    return sim.run();
}

} // namespace

TEST(PreemptionMetrics, PreemptionsVictimsAndTheWorkTheyLost)
{
    // Two one-GPU training pods run 900 s when a two-GPU inference pod preempts both; with a
    // checkpoint every 600 s each loses 300 s of one GPU.
    auto a = job("train-a", 0, 2000, 1, 0, "training");
    auto b = job("train-b", 0, 2000, 1, 0, "training");
    a.checkpointSeconds = b.checkpointSeconds = 600;
    RunSummary s = run({ a, b, job("serve", 900, 100, 2, 1000, "inference") });
    EXPECT_EQ(s.preemption.preemptions, 1);
    EXPECT_EQ(s.preemption.victims, 2);
    EXPECT_EQ(s.preemption.maxVictimsPerPreemptor, 2);
    EXPECT_DOUBLE_EQ(s.preemption.lostDeviceHours, 600.0 / 3600.0);
    ASSERT_EQ(s.priorityClasses.size(), 2u);
    EXPECT_EQ(s.priorityClasses[0].name, "inference");
    EXPECT_EQ(s.priorityClasses[0].value, 1000);
    EXPECT_EQ(s.priorityClasses[0].waitSeconds.count, 1);
    EXPECT_DOUBLE_EQ(s.priorityClasses[0].waitSeconds.p50, 30.0); // the victims' grace period
    EXPECT_EQ(s.priorityClasses[1].name, "training");
    const std::string text = formatText(s);
    EXPECT_NE(text.find("preemption: 1 preemptions, 2 victims (2.0 per preemptor, at most 2), 0.17 "
                        "device-hours of work lost\n"
                        "wait by priority class:\n"
                        "  inference (1000): p50 30.0s  p90 30.0s  p95 30.0s  p99 30.0s  (n=1)\n"),
        std::string::npos)
        << text;
    const DataValue data = toData(s);
    ASSERT_TRUE(data.find("preemption"));
    EXPECT_EQ(data.find("preemption")->find("victims")->asInt(), 2);
    ASSERT_TRUE(data.find("priorityClasses"));
}

TEST(PreemptionMetrics, ARunWithoutPreemptionOrClassesShowsNothingNew)
{
    RunSummary s = run({ job("train-a", 0, 100, 1, 0, ""), job("train-b", 0, 100, 1, 0, "") });
    EXPECT_EQ(s.preemption.preemptions, 0);
    EXPECT_TRUE(s.priorityClasses.empty());
    const std::string text = formatText(s);
    EXPECT_EQ(text.find("\npreemption:"), std::string::npos) << text;
    EXPECT_EQ(text.find("priority class"), std::string::npos) << text;
    const DataValue data = toData(s);
    EXPECT_FALSE(data.find("preemption"));
    EXPECT_FALSE(data.find("priorityClasses"));
}
