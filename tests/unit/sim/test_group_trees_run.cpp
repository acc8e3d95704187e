// SPDX-License-Identifier: Apache-2.0
// CompositePodGroup hierarchies run by the engine (Kubernetes 1.37 alpha, KEP-6012): the root is
// the queue entity, queued once the hierarchical quorum holds; one cycle binds the whole tree or
// nothing, and a tree that does not fit waits whole until capacity is freed.
#include <algorithm>
#include <map>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/gpu_pool_run.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

struct TreeLog : RunRecorder
{
    std::map<std::string, SimTime> scheduledAt;
    std::vector<std::string> unschedulable; ///< "pod: message"
    void onPodEvent(const PodEvent& e) override
    {
        if (e.type == PodEventType::Scheduled)
            scheduledAt[e.pod] = e.time;
        if (e.type == PodEventType::Unschedulable)
            unschedulable.push_back(e.pod + ": " + e.message);
    }
};

api::GroupPolicy gangOf(int32_t count)
{
    api::GroupPolicy p;
    p.scheduling.gang = true;
    p.scheduling.minCount = count;
    return p;
}

/// Composite group "job" (gang of both children) over PodGroups "a" and "b" (gangs of 2).
std::shared_ptr<const workload::ManifestGroups> jobTree()
{
    auto m = std::make_shared<workload::ManifestGroups>();
    api::CompositePodGroup job;
    job.meta.name = "job";
    job.meta.namespace_ = "default";
    job.policy = gangOf(2);
    m->composites.push_back(job);
    for (const char* name : { "a", "b" }) {
        api::PodGroup g;
        g.meta.name = name;
        g.meta.namespace_ = "default";
        g.parentCompositePodGroupName = "job";
        g.policy = gangOf(2);
        m->groups.push_back(g);
    }
    return m;
}

/// `pods` one-GPU pods naming PodGroup `group` of jobTree(), arriving at `at`.
workload::JobSpec member(const std::string& name, const std::string& group, double at, int32_t pods = 2)
{
    workload::JobSpec job = gpuJob(name, at, 100);
    job.parallelism = pods;
    job.completions = pods;
    auto tmpl = std::make_shared<api::PodTemplateSpec>(*job.tasks[0].pod);
    tmpl->spec.schedulingGroup = group;
    job.tasks[0].pod = tmpl;
    job.hierarchy = jobTree();
    return job;
}

struct TreeRun : GpuPoolRun
{
    TreeRun()
    {
        nodes = 4;
        options.scenarioName = "trees";
        options.duration = 1000 * kSecond;
        options.metricInterval = 0;
    }

    TreeLog run(std::vector<workload::JobSpec> jobs, RunSummary* summary = nullptr) const
    {
        return runAndRecord<TreeLog>(std::move(jobs), summary);
    }
};

} // namespace

// The hierarchy's quorum: both children must have their two pods. While b's second pod does not
// exist nothing is tried and nothing binds, though three GPUs of four are free; once it exists
// the whole tree binds at once.
TEST(GroupTrees, NothingBindsBeforeTheHierarchicalQuorum)
{
    TreeRun r;
    RunSummary summary;
    const auto jobs = std::vector<workload::JobSpec> { member("a", "a", 0), member("b0", "b", 0, 1),
        member("b1", "b", 50, 1) };
    const TreeLog log = r.run(jobs, &summary);
    ASSERT_EQ(log.scheduledAt.size(), 4u);
    for (const auto& [pod, at] : log.scheduledAt)
        EXPECT_EQ(at, 50 * kSecond) << pod;
    EXPECT_TRUE(log.unschedulable.empty()); // PreEnqueue holds it: no cycle, no status

    const Simulator::PodAt waiting = r.podAt(jobs, 10 * kSecond, "default/a-0");
    EXPECT_EQ(waiting.state, Simulator::PodAt::State::Pending);
    EXPECT_EQ(waiting.group,
        "composite pod group default/job: waiting for the hierarchy's quorum to appear in scheduling queue: "
        "1 "
        "of minGroupCount 2 child groups have their quorum (pod group default/b: 1 of minCount 2 pods "
        "exist)");
}

// A tree that does not fit binds nothing (no partial binding: three of its four pods would fit),
// every member says why in the tree's terms, and the whole tree binds together once the blocker
// frees its GPU.
TEST(GroupTrees, ATreeThatDoesNotFitWaitsWholeAndBindsWhenCapacityIsFreed)
{
    TreeRun r;
    r.options.metricInterval = 10 * kSecond;
    RunSummary summary;
    const auto jobs = std::vector<workload::JobSpec> { gpuJob("blocker", 0, 100), member("a", "a", 1),
        member("b", "b", 1) };
    const TreeLog log = r.run(jobs, &summary);
    ASSERT_EQ(log.scheduledAt.size(), 5u);
    for (const char* pod : { "default/a-0", "default/a-1", "default/b-0", "default/b-1" })
        EXPECT_EQ(log.scheduledAt.at(pod), 100 * kSecond) << pod;
    ASSERT_FALSE(log.unschedulable.empty());
    for (const auto& line : log.unschedulable)
        EXPECT_NE(line.find(": composite pod group default/job: "), std::string::npos) << line;
    EXPECT_EQ(summary.podsPendingAtEnd, 0);

    const Simulator::PodAt pending = r.podAt(jobs, 50 * kSecond, "default/b-1");
    EXPECT_EQ(pending.state, Simulator::PodAt::State::Pending);
    EXPECT_EQ(pending.group.rfind("composite pod group default/job: last group cycle: ", 0), 0u)
        << pending.group;
    // What the samples count it under: the tree's reason, not a pod's.
    ASSERT_FALSE(summary.unschedulablePodHours.empty());
    for (const auto& kv : summary.unschedulablePodHours)
        EXPECT_EQ(kv.key.find("composite pod group"), std::string::npos) << kv.key;
}

// Two trees that each need all four GPUs: the first (earlier) binds, the second waits whole and
// binds when the first's pods end.
TEST(GroupTrees, ASecondTreeWaitsForTheFirst)
{
    TreeRun r;
    auto other = [](const std::string& name, const std::string& group) {
        workload::JobSpec j = member(name, group, 0);
        auto m = std::make_shared<workload::ManifestGroups>(*j.hierarchy);
        m->composites[0].meta.name = "job2";
        for (auto& g : m->groups) {
            g.parentCompositePodGroupName = "job2";
            g.meta.name += "2";
        }
        j.hierarchy = m;
        auto tmpl = std::make_shared<api::PodTemplateSpec>(*j.tasks[0].pod);
        tmpl->spec.schedulingGroup = group + "2";
        j.tasks[0].pod = tmpl;
        return j;
    };
    const TreeLog log = r.run({ member("a", "a", 0), member("b", "b", 0), other("c", "a"), other("d", "b") });
    for (const char* pod : { "default/a-0", "default/a-1", "default/b-0", "default/b-1" })
        EXPECT_EQ(log.scheduledAt.at(pod), 0) << pod;
    for (const char* pod : { "default/c-0", "default/c-1", "default/d-0", "default/d-1" })
        EXPECT_EQ(log.scheduledAt.at(pod), 100 * kSecond) << pod;
}

// The run's gang figures take the hierarchy as one job, whatever Jobs its pods come from: it
// arrives with its first pod (0 s), is whole when its quorum is bound (b's second pod appears at
// 50 s and the one cycle binds all four), and ends with its last pod (100 s of work later). Its
// pods bind together, so nothing was held idle.
TEST(GroupTrees, TheGangFiguresTakeTheHierarchyAsOneJob)
{
    TreeRun r;
    RunSummary summary;
    r.run({ member("a", "a", 0), member("b0", "b", 0, 1), member("b1", "b", 50, 1) }, &summary);
    EXPECT_EQ(summary.gangs.jobs, 1);
    EXPECT_EQ(summary.gangs.started, 1);
    EXPECT_EQ(summary.gangs.groupCycles, 1u);
    EXPECT_EQ(summary.gangs.secondsToStart.count, 1u);
    EXPECT_DOUBLE_EQ(summary.gangs.secondsToStart.p50, 50);
    EXPECT_EQ(summary.gangs.secondsToComplete.censored, 0u);
    EXPECT_DOUBLE_EQ(summary.gangs.secondsToComplete.p50, 150);
    EXPECT_DOUBLE_EQ(summary.gangs.idleDeviceHours, 0);
}

// A hierarchy that waits for a blocker (a plain pod, not counted) arrives at 1 s, fails its first
// cycle, and binds whole in its second when the blocker ends at 100 s: 99 s to start, 199 s to
// its end.
TEST(GroupTrees, AWaitingHierarchyCountsItsWaitAsOneJob)
{
    TreeRun r;
    RunSummary summary;
    r.run({ gpuJob("blocker", 0, 100), member("a", "a", 1), member("b", "b", 1) }, &summary);
    EXPECT_EQ(summary.gangs.jobs, 1);
    EXPECT_EQ(summary.gangs.started, 1);
    EXPECT_EQ(summary.gangs.groupCycles, 2u);
    EXPECT_DOUBLE_EQ(summary.gangs.secondsToStart.p50, 99);
    EXPECT_DOUBLE_EQ(summary.gangs.secondsToComplete.p50, 199);
    EXPECT_DOUBLE_EQ(summary.gangs.idleDeviceHours, 0);
}
