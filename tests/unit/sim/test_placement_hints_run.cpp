// SPDX-License-Identifier: Apache-2.0
// Queueing hints in a run, beyond the ones that read only the changed object: a pod that
// PodTopologySpread or InterPodAffinity rejected is tried again only by an assigned pod whose
// labels its constraints or terms select; a parked PodGroup only by a change that may help one of
// its members; and a cycle that ends in an error waits out its backoff and is tried again
// whatever changes. With the hints off, every change that frees capacity retries them as before.
#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace placement_hints_run {

constexpr const char* kHostKey = "kubernetes.io/hostname";

struct PodTries : RunRecorder
{
    std::map<std::string, std::vector<SimTime>> failures; ///< Unschedulable events per pod
    std::map<std::string, SimTime> scheduled;
    void onPodEvent(const PodEvent& e) override
    {
        if (e.type == PodEventType::Unschedulable)
            failures[e.pod].push_back(e.time);
        if (e.type == PodEventType::Scheduled)
            scheduled[e.pod] = e.time;
    }
};

/// A job of one pod without claims, labelled.
workload::JobSpec labelledJob(const std::string& name, double at, double seconds, api::Labels labels)
{
    workload::JobSpec job = gpuJob(name, at, seconds);
    auto tmpl = std::make_shared<api::PodTemplateSpec>(*job.tasks[0].pod);
    tmpl->spec.resourceClaims.clear();
    tmpl->meta.labels = std::move(labels);
    job.tasks[0].pod = tmpl;
    return job;
}

api::LabelSelector app(const std::string& value)
{
    api::LabelSelector s;
    s.matchLabels["app"] = value;
    return s;
}

/// `job` with its pod template changed by `edit`.
template <typename Edit> workload::JobSpec edited(workload::JobSpec job, const Edit& edit)
{
    auto tmpl = std::make_shared<api::PodTemplateSpec>(*job.tasks[0].pod);
    edit(tmpl->spec);
    job.tasks[0].pod = tmpl;
    return job;
}

/// Pods without labels that come and go every 10 s from 10 s to 190 s, each 5 s long.
void addBystanders(std::vector<workload::JobSpec>& jobs)
{
    for (int i = 0; i < 19; ++i)
        jobs.push_back(labelledJob("plain" + std::to_string(i), 10 + 10 * i, 5, {}));
}

struct HintRun
{
    bool hints = true;
    bool podGroups = false;
    int nodes = 1;
    api::ObjectSet objects = oneAndTwoGpuTemplates();

    PodTries operator()(std::vector<workload::JobSpec> jobs, RunSummary* summary = nullptr) const
    {
        scheduler::Cluster cluster(objects);
        SchedulerClusterPort port(cluster);
        SimOptions o;
        o.scenarioName = "placement-hints";
        o.duration = 1000 * kSecond;
        o.metricInterval = 0;
        o.queueingHints = hints;
        o.podGroups = podGroups;
        Simulator sim(port, o);
        NodePool pool = gpuPool("n", nodes, 1);
        for (auto& n : pool.nodes)
            n.node.meta.labels[kHostKey] = n.node.meta.name;
        sim.addNodePool(pool);
        sim.setArrivals(source(std::move(jobs)));
        PodTries log;
        sim.addRecorder(&log);
        RunSummary s = sim.run();
        if (summary)
            *summary = s;
        return log;
    }
};

/// `web` runs on the only node from 0 s to 100 s; `spread` (app=web too) wants at most one more
/// matching pod than the emptiest of at least two hostname domains: with one node the minimum is
/// 0, so it fits only once `web` is gone.
std::vector<workload::JobSpec> spreadWaitsForWeb()
{
    std::vector<workload::JobSpec> jobs { labelledJob("web", 0, 100, { { "app", "web" } }),
        edited(labelledJob("spread", 1, 50, { { "app", "web" } }), [](api::PodSpec& s) {
            api::TopologySpreadConstraint c;
            c.maxSkew = 1;
            c.topologyKey = kHostKey;
            c.minDomains = 2;
            c.labelSelector = app("web");
            s.topologySpreadConstraints.push_back(c);
        }) };
    addBystanders(jobs);
    return jobs;
}

} // namespace placement_hints_run

using namespace placement_hints_run;

TEST(PlacementHintsRun, ASpreadPodIsRetriedOnlyByAPodItsSelectorTakes)
{
    // The bystanders carry no app=web label: their bindings and endings skip the pod; `web`
    // ending queues it (isSchedulableAfterPodChange, podLabelsMatchSpreadConstraints).
    const PodTries on = HintRun {}(spreadWaitsForWeb());
    EXPECT_EQ(on.failures.at("default/spread-0"), std::vector<SimTime>({ 1 * kSecond }));
    EXPECT_EQ(on.scheduled.at("default/spread-0"), 100 * kSecond);

    // Without hints every bystander that binds or ends before 100 s retries it (a binding may let
    // a spread pod fit); it binds at the same time.
    HintRun off;
    off.hints = false;
    const PodTries without = off(spreadWaitsForWeb());
    EXPECT_EQ(without.failures.at("default/spread-0").size(), 19u); // 1 s, then 10, 15, ..., 95 s
    EXPECT_EQ(without.scheduled.at("default/spread-0"), 100 * kSecond);
}

TEST(PlacementHintsRun, AnAffinityPodIsRetriedByTheFirstPodThatMatchesItsTerms)
{
    // `follower` needs an app=db pod on its node; the bystanders are not, `db` (at 60 s) is.
    std::vector<workload::JobSpec> jobs { edited(labelledJob("follower", 1, 50, {}), [](api::PodSpec& s) {
        api::PodAffinityTerm t;
        t.topologyKey = kHostKey;
        t.labelSelector = app("db");
        s.podAffinity.emplace().required.push_back(t);
    }) };
    addBystanders(jobs);
    jobs.push_back(labelledJob("db", 63, 500, { { "app", "db" } }));
    const PodTries on = HintRun {}(jobs);
    EXPECT_EQ(on.failures.at("default/follower-0"), std::vector<SimTime>({ 1 * kSecond }));
    EXPECT_EQ(on.scheduled.at("default/follower-0"), 63 * kSecond);
}

TEST(PlacementHintsRun, AnAntiAffinityPodIsRetriedWhenThePodItAvoidsEnds)
{
    // `loner` avoids app=db on its node: `db` runs there until 120 s.
    std::vector<workload::JobSpec> jobs { labelledJob("db", 0, 120, { { "app", "db" } }),
        edited(labelledJob("loner", 1, 50, {}), [](api::PodSpec& s) {
            api::PodAffinityTerm t;
            t.topologyKey = kHostKey;
            t.labelSelector = app("db");
            s.podAntiAffinity.emplace().required.push_back(t);
        }) };
    addBystanders(jobs);
    const PodTries on = HintRun {}(jobs);
    EXPECT_EQ(on.failures.at("default/loner-0"), std::vector<SimTime>({ 1 * kSecond }));
    EXPECT_EQ(on.scheduled.at("default/loner-0"), 120 * kSecond);
}

TEST(PlacementHintsRun, AParkedGangIsRetriedOnlyByAChangeThatMayHelpAMember)
{
    // Two nodes of one GPU; `hold` keeps one until 200 s; the gang `train` of two waits for it.
    // Bystanders without claims free no device: DynamicResources, which rejected the member that
    // did not fit, skips them; the claim `hold` releases at 200 s moves the group.
    auto jobsFor = [] {
        std::vector<workload::JobSpec> jobs { gpuJob("hold", 0, 200) };
        workload::JobSpec train = gpuJob("train", 1, 100);
        train.parallelism = 2;
        train.completions = 2;
        workload::GroupSpec gang;
        gang.gang = true;
        train.group = gang;
        jobs.push_back(train);
        addBystanders(jobs);
        return jobs;
    };
    HintRun groups;
    groups.podGroups = true;
    groups.nodes = 2;
    RunSummary on;
    const PodTries hinted = groups(jobsFor(), &on);
    EXPECT_EQ(hinted.failures.at("default/train-0"), std::vector<SimTime>({ 1 * kSecond }));
    EXPECT_EQ(hinted.scheduled.at("default/train-0"), 200 * kSecond);
    EXPECT_EQ(hinted.scheduled.at("default/train-1"), 200 * kSecond);
    EXPECT_EQ(on.gangs.groupCycles, 2u);

    // Without hints every ending bystander frees capacity and moves the group.
    groups.hints = false;
    RunSummary off;
    const PodTries unhinted = groups(jobsFor(), &off);
    EXPECT_EQ(unhinted.scheduled.at("default/train-0"), 200 * kSecond);
    EXPECT_GT(off.gangs.groupCycles, 10u);
}

TEST(PlacementHintsRun, AParkedGangWithNothingToHelpItIsFlushedAfterFiveMinutes)
{
    // A gang of three on two nodes never fits; nothing changes after it parks at 1 s: the flush
    // moves it once more than 5 minutes have passed (at 330 s, then 660 s, 990 s).
    workload::JobSpec big = gpuJob("big", 1, 100);
    big.parallelism = 3;
    big.completions = 3;
    workload::GroupSpec gang;
    gang.gang = true;
    big.group = gang;
    HintRun groups;
    groups.podGroups = true;
    groups.nodes = 2;
    const PodTries log = groups({ big });
    EXPECT_EQ(log.failures.at("default/big-0"),
        std::vector<SimTime>({ 1 * kSecond, 330 * kSecond, 660 * kSecond, 990 * kSecond }));
}

TEST(PlacementHintsRun, ACycleThatEndsInAnErrorIsRetriedAfterItsBackoff)
{
    // The class's selector reads an attribute no device has: CEL's "no such key" is a runtime
    // error, which aborts the cycle (a SchedulerError, not Unschedulable). The pod goes to the
    // error backoff queue: tried again after 1, 2, 4, 8 and then 10 s (podMaxBackoff), each
    // completed at the end of its 1 s window (0 + 1 -> 2, 2 + 2 -> 5, 5 + 4 -> 10, 10 + 8 -> 19,
    // 19 + 10 -> 30, then every 11 s up to 30 + 88 * 11 = 998), whether or not anything changes.
    HintRun errors;
    errors.objects.deviceClasses.front().selectors.push_back(
        api::DeviceSelector { "device.attributes[\"gpu.example.com\"].missing == \"x\"", {} });
    const PodTries log = errors({ gpuJob("broken", 0, 10) });
    const auto& tries = log.failures.at("default/broken-0");
    ASSERT_GE(tries.size(), 6u);
    EXPECT_EQ(std::vector<SimTime>(tries.begin(), tries.begin() + 6),
        std::vector<SimTime>({ 0, 2 * kSecond, 5 * kSecond, 10 * kSecond, 19 * kSecond, 30 * kSecond }));
    EXPECT_EQ(tries.back(), 998 * kSecond);
    EXPECT_EQ(tries.size(), 6u + 88u);

    // Without hints drasim keeps its earlier model: the failure parks it, and nothing moves it.
    errors.hints = false;
    EXPECT_EQ(
        errors({ gpuJob("broken", 0, 10) }).failures.at("default/broken-0"), std::vector<SimTime>({ 0 }));
}
