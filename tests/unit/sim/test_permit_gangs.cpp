// SPDX-License-Identifier: Apache-2.0
// Kubernetes 1.35's gangs in the engine (SimOptions::permitGangs): members are scheduled one at a
// time and wait at Permit holding their devices; a gang that reaches minCount binds at once; one
// that does not gives everything back when the group's 5-minute deadline passes, and binds none.
#include <algorithm>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/gang_series.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

struct PermitLog : RunRecorder
{
    std::map<std::string, SimTime> scheduledAt;
    std::vector<std::string> unschedulable; ///< "<time> <pod>: <message>"
    int preempted = 0;
    /// "<event> <pod> <group key> <minCount>" of the Created and Scheduled events naming a group.
    std::vector<std::string> groups;
    void onPodEvent(const PodEvent& e) override
    {
        if (e.group)
            groups.push_back(std::string(podEventTypeName(e.type)) + " " + e.pod + " " + e.group->key + " "
                + std::to_string(e.group->minCount));
        preempted += e.type == PodEventType::Preempted ? 1 : 0;
        if (e.type == PodEventType::Scheduled && !scheduledAt.count(e.pod))
            scheduledAt[e.pod] = e.time;
        if (e.type == PodEventType::Unschedulable)
            unschedulable.push_back(formatDuration(e.time) + " " + e.pod + ": " + e.message);
    }
    bool saw(const std::string& line) const
    {
        return std::find(unschedulable.begin(), unschedulable.end(), line) != unschedulable.end();
    }
};

workload::JobSpec gang(
    const std::string& name, double at, double seconds, int32_t pods, int32_t minCount, int32_t priority = 0)
{
    workload::JobSpec job = gpuJob(name, at, seconds, 1, priority);
    job.parallelism = pods;
    job.completions = pods;
    workload::GroupSpec g;
    g.gang = true;
    g.minCount = minCount;
    job.group = g;
    return job;
}

SimOptions permitOptions(SimTime duration)
{
    SimOptions o;
    o.scenarioName = "permit-gangs";
    o.duration = duration;
    o.metricInterval = 0;
    o.permitGangs = true;
    return o;
}

/// A simulator over the scheduler model with `nodes` nodes of one GPU each.
struct PermitRun
{
    scheduler::Cluster cluster { oneGpuClassAndTemplate() };
    SchedulerClusterPort port { cluster };
    Simulator sim;
    PermitLog log;
    PermitRun(int nodes, std::vector<workload::JobSpec> jobs, SimTime duration)
        : sim(port, permitOptions(duration))
    {
        sim.addNodePool(gpuPool("n", nodes, 1));
        sim.setArrivals(source(std::move(jobs)));
        sim.addRecorder(&log);
    }
    size_t allocatedClaims() const
    {
        const auto claims = cluster.claims();
        return size_t(
            std::count_if(claims.begin(), claims.end(), [](const auto* c) { return bool(c->allocation); }));
    }
};

} // namespace

TEST(PermitGangs, WaitingMembersHoldTheirDevicesUntilTheDeadlineThenNothingIsBound)
{
    // Two GPUs, a gang of three (the workload-scheduling notes' case 13), and a one-pod job that
    // arrives while two members wait.
    PermitRun run(2, { gang("train", 0, 100, 3, 3), gpuJob("solo", 10, 50) }, 1000 * kSecond);
    run.sim.runUntil(200 * kSecond);
    // Two members are assumed on the two nodes and wait unbound; the third found no GPU.
    EXPECT_NE(run.cluster.findBoundPod("default/train-0"), nullptr);
    EXPECT_NE(run.cluster.findBoundPod("default/train-1"), nullptr);
    EXPECT_EQ(run.allocatedClaims(), 2u);
    EXPECT_TRUE(run.log.scheduledAt.empty());
    const Simulator::PodAt waiting = run.sim.podAt("default/train-0");
    EXPECT_EQ(waiting.state, Simulator::PodAt::State::Pending);
    EXPECT_EQ(waiting.group,
        "gang default/train (minCount 3, Kubernetes 1.35: members are scheduled one at a time and wait at "
        "Permit): 2 assumed and 0 bound of minCount 3; the assumed members hold their nodes and devices "
        "unbound (waiting for minCount pods from a gang to be waiting on permit) until 5m, when the "
        "group's 5-minute deadline passes");
    // The solo pod cannot use the devices the waiting members hold.
    EXPECT_EQ(run.sim.podAt("default/solo-0").state, Simulator::PodAt::State::Pending);

    run.sim.runUntil(301 * kSecond);
    // At 5 minutes both waiting members are rejected and unreserved; the solo pod gets a GPU.
    EXPECT_TRUE(run.log.saw(
        "5m default/train-0: rejected due to timeout after waiting 5m0s at plugin GangScheduling"));
    EXPECT_TRUE(run.log.saw(
        "5m default/train-1: rejected due to timeout after waiting 5m0s at plugin GangScheduling"));
    EXPECT_EQ(run.log.scheduledAt.at("default/solo-0"), 300 * kSecond);
    for (const char* member : { "default/train-0", "default/train-1", "default/train-2" })
        EXPECT_EQ(run.log.scheduledAt.count(member), 0u) << member;

    run.sim.runUntil(1000 * kSecond);
    // Never more than two GPUs for three members: the gang binds nothing, ever.
    for (const char* member : { "default/train-0", "default/train-1", "default/train-2" })
        EXPECT_EQ(run.log.scheduledAt.count(member), 0u) << member;
}

TEST(PermitGangs, TheMemberThatCompletesTheQuorumBindsTheWaitingOnesWithIt)
{
    // Three GPUs, one held by a solo job until 50 s; the gang of three arrives at 1 s.
    PermitRun run(3, { gpuJob("solo", 0, 50), gang("train", 1, 100, 3, 3) }, 400 * kSecond);
    run.sim.runUntil(40 * kSecond);
    EXPECT_EQ(run.allocatedClaims(), 3u); // the solo pod's and two waiting members'
    EXPECT_EQ(run.log.scheduledAt.size(), 1u);
    run.sim.runUntil(400 * kSecond);
    // The solo pod's end frees a GPU: the third member is reserved there and all three bind.
    for (const char* member : { "default/train-0", "default/train-1", "default/train-2" })
        EXPECT_EQ(run.log.scheduledAt.at(member), 50 * kSecond) << member;
    for (const auto& line : run.log.unschedulable)
        EXPECT_EQ(line.find("rejected due to timeout"), std::string::npos) << line;
    // The members' events name their gang, as a PodGroup's members' do (the desktop shows it as
    // one); the solo job's name none.
    std::vector<std::string> want;
    for (const char* type : { "Created", "Scheduled" })
        for (int i = 0; i < 3; ++i)
            want.push_back(std::string(type) + " default/train-" + std::to_string(i) + " default/train 3");
    std::vector<std::string> got = run.log.groups;
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want);
}

TEST(PermitGangs, TwoHalfFittingGangsBlockEachOtherUntilTheTimeout)
{
    // Two GPUs, one held by a solo job until 20 s. Gang a (minCount 2) arrives first and reserves
    // the free GPU; gang b (minCount 2, higher priority) arrives at 2 s and finds none. When the
    // solo job ends, b's first member is tried first and takes that GPU: each gang holds one GPU
    // and waits for a second that the other holds, until a's deadline (1 s + 5 min).
    PermitRun run(
        2, { gpuJob("solo", 0, 20), gang("a", 1, 100, 2, 2), gang("b", 2, 100, 2, 2, 10) }, 1000 * kSecond);
    run.sim.runUntil(200 * kSecond);
    EXPECT_EQ(run.allocatedClaims(), 2u);
    EXPECT_EQ(run.log.scheduledAt.size(), 1u); // only the solo pod
    run.sim.runUntil(1000 * kSecond);
    EXPECT_TRUE(
        run.log.saw("5m1s default/a-0: rejected due to timeout after waiting 5m0s at plugin GangScheduling"));
    // a's timeout frees its GPU, and b binds whole at that instant; a waits for b to finish.
    EXPECT_EQ(run.log.scheduledAt.at("default/b-0"), 301 * kSecond);
    EXPECT_EQ(run.log.scheduledAt.at("default/b-1"), 301 * kSecond);
    EXPECT_EQ(run.log.scheduledAt.at("default/a-0"), run.log.scheduledAt.at("default/a-1"));
    EXPECT_GE(run.log.scheduledAt.at("default/a-0"), 401 * kSecond);
}

TEST(PermitGangs, PreEnqueueHoldsMembersBackUntilMinCountExist)
{
    // A gang whose job makes two pods but asks for three: PreEnqueue never lets them in.
    PermitRun run(4, { gang("train", 0, 100, 2, 3) }, 100 * kSecond);
    run.sim.runUntil(50 * kSecond);
    const Simulator::PodAt at = run.sim.podAt("default/train-0");
    EXPECT_EQ(at.state, Simulator::PodAt::State::Pending);
    EXPECT_EQ(at.group,
        "gang default/train (minCount 3, Kubernetes 1.35: members are scheduled one at a time and wait at "
        "Permit): 2 of minCount 3 pods exist; waiting for minCount pods from a gang to appear in scheduling "
        "queue");
    EXPECT_EQ(run.allocatedClaims(), 0u);
    EXPECT_TRUE(run.log.unschedulable.empty());
}

TEST(PermitGangs, PreemptionRejectsAWaitingMemberInsteadOfDeletingIt)
{
    // One node with two device-plugin GPUs (preemption can free those): two members of a gang of
    // three wait on it when a higher-priority pod arrives. DefaultPreemption rejects a waiting
    // victim at Permit (RejectWaitingPod, "removed") rather than deleting it.
    scheduler::Cluster cluster { api::ObjectSet {} };
    SchedulerClusterPort port { cluster };
    Simulator sim(port, permitOptions(100 * kSecond));
    sim.addNodePool(devicePluginPool(1, 2));
    workload::JobSpec train = pluginGpuJob("train", 0, 100, 0);
    train.parallelism = 3;
    train.completions = 3;
    train.group = workload::GroupSpec { true, 3, {} };
    sim.setArrivals(source({ train, pluginGpuJob("urgent", 10, 50, 1000) }));
    PermitLog log;
    sim.addRecorder(&log);
    sim.run();
    const bool removed0 = log.saw("10s default/train-0: removed");
    const bool removed1 = log.saw("10s default/train-1: removed");
    EXPECT_NE(removed0, removed1) << "exactly one waiting member is the victim";
    EXPECT_EQ(log.scheduledAt.at("default/urgent-0"), 10 * kSecond);
    EXPECT_EQ(log.preempted, 0); // nobody was deleted
    for (const char* member : { "default/train-0", "default/train-1", "default/train-2" })
        EXPECT_EQ(log.scheduledAt.count(member), 0u) << member;
}

// The gang series count the devices a 1.35 gang's members hold unbound at Permit: two of three
// members wait on the two GPUs from the first second until the 5-minute deadline.
TEST(PermitGangs, TheGangSeriesCountTheDevicesHeldAtPermit)
{
    scheduler::Cluster cluster { oneGpuClassAndTemplate() };
    SchedulerClusterPort port { cluster };
    SimOptions o = permitOptions(400 * kSecond);
    o.metricInterval = 60 * kSecond;
    Simulator sim(port, o);
    sim.addNodePool(gpuPool("n", 2, 1));
    sim.setArrivals(source({ gang("train", 0, 100, 3, 3) }));
    GangSeries series;
    sim.addRecorder(&series);
    sim.run();
    for (SimTime t : { 60 * kSecond, 120 * kSecond, 180 * kSecond, 240 * kSecond }) {
        ASSERT_TRUE(series.at.count(t)) << t;
        EXPECT_EQ(series.at.at(t), std::make_pair(1.0, 2.0)) << t;
    }
}
