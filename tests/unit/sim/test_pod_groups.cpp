// SPDX-License-Identifier: Apache-2.0
// Jobs whose pods form a PodGroup, run through the 1.37 group cycle by the engine: a gang starts
// all at once or not at all, waits for its quorum, and leaves no GPU idle while it waits; basic
// groups and the gates-off run behave as plain pods.
#include <algorithm>
#include <map>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/gang_series.h"
#include "tests/unit/sim/gpu_pool_run.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

struct GroupPodLog : RunRecorder
{
    std::vector<std::string> lines;
    std::map<std::string, SimTime> scheduledAt;
    void onPodEvent(const PodEvent& e) override
    {
        lines.push_back(formatDuration(e.time) + " " + podEventTypeName(e.type) + " " + e.pod
            + (e.type == PodEventType::Scheduled ? " " + e.node : ""));
        if (e.type == PodEventType::Scheduled)
            scheduledAt[e.pod] = e.time;
    }
    int scheduledAtTime(SimTime t) const
    {
        return int(std::count_if(
            scheduledAt.begin(), scheduledAt.end(), [&](const auto& kv) { return kv.second == t; }));
    }
};

workload::JobSpec parallelJob(const std::string& name, double at, double seconds, int32_t parallelism,
    std::optional<workload::GroupSpec> group)
{
    workload::JobSpec job = gpuJob(name, at, seconds, 1);
    job.parallelism = parallelism;
    job.completions = parallelism;
    job.group = std::move(group);
    return job;
}

/// One run of the engine over the scheduler model: nodes "n-<i>" with `gpus` GPUs each.
struct GangRun : GpuPoolRun
{
    explicit GangRun(bool podGroups)
    {
        options.scenarioName = "gangs";
        options.duration = 1000 * kSecond;
        options.metricInterval = 0;
        options.podGroups = podGroups;
    }

    GroupPodLog run(std::vector<workload::JobSpec> jobs, RunSummary* summary = nullptr) const
    {
        return runAndRecord<GroupPodLog>(std::move(jobs), summary);
    }
};

GroupPodLog run(bool podGroups, std::vector<workload::JobSpec> jobs, int nodes = 3, int gpus = 1,
    RunSummary* summary = nullptr)
{
    GangRun r(podGroups);
    r.nodes = nodes;
    r.gpus = gpus;
    return r.run(std::move(jobs), summary);
}

workload::GroupSpec gang(int32_t minCount = 0)
{
    workload::GroupSpec g;
    g.gang = true;
    g.minCount = minCount;
    return g;
}

} // namespace

// The case: 4 pods on 3 free GPUs. Without groups three start and hold their GPUs doing
// nothing; as a gang none starts until the fourth GPU is free, then all four start together.
TEST(PodGroups, GangWaitsForRoomAndStartsTogether)
{
    auto blocker = gpuJob("blocker", 0, 100);
    RunSummary plainSummary, groupedSummary;
    auto plain = run(false, { blocker, parallelJob("train", 1, 200, 4, gang()) }, 4, 1, &plainSummary);
    EXPECT_EQ(plain.scheduledAt.at("default/train-0"), 1 * kSecond);
    EXPECT_EQ(plain.scheduledAt.at("default/train-3"), 100 * kSecond);
    // The three early workers wait 99 s each for the fourth: their GPUs are held doing nothing,
    // and the job's work (200 s) starts only at 100 s.
    EXPECT_EQ(plainSummary.gangs.jobs, 1);
    EXPECT_EQ(plainSummary.gangs.started, 1);
    EXPECT_DOUBLE_EQ(plainSummary.gangs.idleDeviceHours, 3 * 99 / 3600.0);
    EXPECT_EQ(plainSummary.gangs.groupCycles, 0u);
    EXPECT_NE(
        std::find(plain.lines.begin(), plain.lines.end(), "5m Succeeded default/train-0"), plain.lines.end());

    auto grouped = run(true, { blocker, parallelJob("train", 1, 200, 4, gang()) }, 4, 1, &groupedSummary);
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(grouped.scheduledAt.at("default/train-" + std::to_string(i)), 100 * kSecond) << i;
    EXPECT_DOUBLE_EQ(groupedSummary.gangs.idleDeviceHours, 0);
    EXPECT_EQ(groupedSummary.gangs.secondsToStart.max, 99);
    EXPECT_GE(groupedSummary.gangs.groupCycles, 2u);
}

// Without any `scheduling:` nothing is tracked: pods work from their binding.
TEST(PodGroups, PlainJobsAreNotGangs)
{
    RunSummary summary;
    auto log = run(
        false, { gpuJob("blocker", 0, 100), parallelJob("train", 1, 200, 4, std::nullopt) }, 4, 1, &summary);
    EXPECT_EQ(summary.gangs.jobs, 0);
    EXPECT_NE(
        std::find(log.lines.begin(), log.lines.end(), "3m21s Succeeded default/train-0"), log.lines.end());
}

// With the gate off the group is ignored: the run equals one without any group, line by line.
TEST(PodGroups, GatesOffRunEqualsPlainPods)
{
    workload::GroupSpec basic;
    auto a = run(false, { gpuJob("blocker", 0, 100), parallelJob("train", 1, 200, 4, basic) });
    auto b = run(false, { gpuJob("blocker", 0, 100), parallelJob("train", 1, 200, 4, std::nullopt) });
    EXPECT_EQ(a.lines, b.lines);
}

// A basic group binds what fits, as plain pods do.
TEST(PodGroups, BasicGroupBindsWhatFits)
{
    workload::GroupSpec basic;
    auto log = run(true, { gpuJob("blocker", 0, 100), parallelJob("train", 1, 200, 4, basic) });
    EXPECT_EQ(log.scheduledAtTime(1 * kSecond), 2); // two free GPUs at t=1 (blocker holds one)
    EXPECT_EQ(log.scheduledAt.at("default/train-2"), 100 * kSecond);
    EXPECT_EQ(log.scheduledAt.at("default/train-3"), 201 * kSecond);
}

// Two gangs of 2 on 3 GPUs: the first binds both pods, the second none, until the first ends.
TEST(PodGroups, SecondGangWaitsWholly)
{
    auto log = run(true, { parallelJob("a", 0, 50, 2, gang()), parallelJob("b", 0, 50, 2, gang()) });
    EXPECT_EQ(log.scheduledAt.at("default/a-0"), 0);
    EXPECT_EQ(log.scheduledAt.at("default/a-1"), 0);
    EXPECT_EQ(log.scheduledAt.at("default/b-0"), 50 * kSecond);
    EXPECT_EQ(log.scheduledAt.at("default/b-1"), 50 * kSecond);
}

// minCount below parallelism: the gang starts with what fits once minCount fits.
TEST(PodGroups, MinCountBelowParallelismStartsPartly)
{
    auto log = run(true, { gpuJob("blocker", 0, 100), parallelJob("train", 1, 200, 4, gang(2)) });
    EXPECT_EQ(log.scheduledAtTime(1 * kSecond), 2);
    EXPECT_EQ(log.scheduledAt.at("default/train-2"), 100 * kSecond);
}

// PreEnqueue of the gang plugin: with fewer than minCount members the group never enters the
// queue, no cycle runs, and its members say so.
TEST(PodGroups, GangBelowQuorumWaitsAtPreEnqueue)
{
    GangRun r(true);
    RunSummary summary;
    auto log = r.run({ parallelJob("train", 1, 200, 3, gang(4)) }, &summary);
    EXPECT_TRUE(log.scheduledAt.empty());
    EXPECT_EQ(summary.gangs.groupCycles, 0u);
    EXPECT_EQ(summary.podsPendingAtEnd, 3);
    // The job never started: its wait to the end is a lower bound of its time to start.
    EXPECT_EQ(summary.gangs.started, 0);
    EXPECT_EQ(summary.gangs.secondsToStart.censored, 1u);
    EXPECT_EQ(summary.gangs.secondsToStart.maxCensored, 999);
    const std::string text = formatText(summary);
    EXPECT_NE(
        text.find("gangs: 0/1 started (minCount members running), 0 group cycles; start after arrival p50 "
                  ">= 999.0s"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("(n=1, 1 never started)\n  device-hours held idle by partly started gangs: 0.00\n"),
        std::string::npos)
        << text;
    auto at = r.podAt({ parallelJob("train", 1, 200, 3, gang(4)) }, 10 * kSecond, "default/train-0");
    EXPECT_EQ(at.state, Simulator::PodAt::State::Pending);
    EXPECT_EQ(at.group,
        "pod group default/train (gang, minCount 4): 3 of minCount 4 pods exist; waiting for minCount pods "
        "from a gang to appear in scheduling queue");
}

// The sampler counts a group's waiting members under the group's reason.
TEST(PodGroups, WaitingMembersArePendingUnderTheGroupsReason)
{
    GangRun r(true);
    r.options.metricInterval = 100 * kSecond;
    struct Samples : RunRecorder
    {
        std::map<std::string, double> reasons;
        double longest = -1;
        void onSample(const MetricSample& s) override
        {
            if (s.time != 100 * kSecond)
                return;
            for (const auto& p : s.points) {
                if (p.metric == "unschedulable.reason")
                    reasons[p.key] = p.value;
                if (p.metric == "pods.pending.longest_s")
                    longest = p.value;
            }
        }
    } samples;
    scheduler::Cluster cluster(oneGpuClassAndTemplate());
    SchedulerClusterPort port(cluster);
    Simulator sim(port, r.options);
    sim.addNodePool(gpuPool("n", 3, 1));
    sim.setArrivals(
        source({ parallelJob("short", 1, 200, 3, gang(4)), parallelJob("big", 2, 200, 4, gang()) }));
    sim.addRecorder(&samples);
    sim.run();
    const std::map<std::string, double> want {
        { "minCount (4) cannot be satisfied: 3 scheduled, 0 remaining", 4 },
        { "waiting for minCount pods from a gang to appear in scheduling queue", 3 },
    };
    EXPECT_EQ(samples.reasons, want);
    EXPECT_EQ(samples.longest, 99); // short-0, waiting since 1 s
}

// A group that did not fit names its last cycle's verdict for `explain --at`.
TEST(PodGroups, UnschedulableGroupSaysWhatItsLastCycleFound)
{
    GangRun r(true);
    auto at = r.podAt({ parallelJob("train", 1, 200, 4, gang()) }, 10 * kSecond, "default/train-3");
    EXPECT_EQ(at.state, Simulator::PodAt::State::Pending);
    EXPECT_EQ(at.group,
        "pod group default/train (gang, minCount 4): last group cycle: minCount (4) cannot be satisfied: 3 "
        "scheduled, 0 remaining");
    GangRun plain(false);
    EXPECT_EQ(
        plain.podAt({ parallelJob("train", 1, 200, 4, gang()) }, 10 * kSecond, "default/train-3").group, "");
}

// A parked group goes back when capacity is freed, through backoffQ: with SchedulerPopFromBackoffQ
// the idle scheduler takes it at once, without it the group waits its 1 s backoff out.
TEST(PodGroups, ParkedGroupBacksOffLikeAPod)
{
    const std::vector<workload::JobSpec> jobs { gpuJob("blocker", 1, 0.5),
        parallelJob("train", 1, 200, 3, gang()) };
    GangRun popping(true);
    EXPECT_EQ(popping.run(jobs).scheduledAt.at("default/train-0"), 1500);
    GangRun waiting(true);
    waiting.options.popFromBackoffQ = false;
    auto log = waiting.run(jobs);
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(log.scheduledAt.at("default/train-" + std::to_string(i)), 2 * kSecond) << i;
}

// A member lost after the gang started is replaced by the Job controller; the replacement joins
// the running members in a cycle that counts them, and works at once (the job has started).
TEST(PodGroups, LostMemberRejoinsTheRunningGang)
{
    GangRun r(true);
    r.nodes = 2;
    InjectedEvent fail;
    fail.at = 10 * kSecond;
    fail.type = InjectedEvent::Type::NodeFailure;
    fail.node = "n-0";
    InjectedEvent back = fail;
    back.at = 15 * kSecond;
    back.type = InjectedEvent::Type::NodeReturn;
    r.events = { fail, back };
    auto job = parallelJob("train", 0, 100, 2, gang());
    job.backoffLimit = 3;
    RunSummary summary;
    auto log = r.run({ job }, &summary);
    EXPECT_EQ(log.scheduledAt.at("default/train-0"), 0);
    EXPECT_EQ(log.scheduledAt.at("default/train-1"), 0);
    // The Job controller replaces the lost pod after its 10 s pod-failure backoff.
    EXPECT_EQ(log.scheduledAt.at("default/train-2"), 20 * kSecond);
    EXPECT_NE(std::find(log.lines.begin(), log.lines.end(), "2m Succeeded default/train-2"), log.lines.end());
    EXPECT_EQ(summary.gangs.started, 1);
    EXPECT_DOUBLE_EQ(summary.gangs.idleDeviceHours, 0);
}

// The series behind the device-hours held idle: sampled every 50 s, the case bound one by
// one holds 3 GPUs for a gang not started at 50 s, none once the fourth bound at 100 s; as a gang
// it holds none while it waits. Before the gang arrives (1 s) there is no gang series at all.
TEST(PodGroups, TheGangSeriesShowTheDevicesHeldByAPartlyStartedGang)
{
    for (bool podGroups : { false, true }) {
        GangRun r(podGroups);
        r.nodes = 4;
        r.options.metricInterval = 50 * kSecond;
        const auto series = r.runAndRecord<GangSeries>(
            { gpuJob("blocker", 0, 100), parallelJob("train", 1, 200, 4, gang()) });
        EXPECT_EQ(series.at.count(0), 0u) << podGroups;
        ASSERT_TRUE(series.at.count(50 * kSecond)) << podGroups;
        EXPECT_EQ(series.at.at(50 * kSecond), std::make_pair(1.0, podGroups ? 0.0 : 3.0)) << podGroups;
        ASSERT_TRUE(series.at.count(150 * kSecond)) << podGroups;
        EXPECT_EQ(series.at.at(150 * kSecond), std::make_pair(0.0, 0.0)) << podGroups;
    }
}
