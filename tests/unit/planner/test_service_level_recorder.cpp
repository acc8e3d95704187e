// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/planner/service_level_recorder.h"
#include "core/sim/run_summary.h"
#include "tests/unit/planner/pod_serials.h"

using namespace drasim;
using namespace drasim::planner;
using sim::PodEventType;

namespace {

sim::PodEvent event(double seconds, PodEventType type, const std::string& pod, const std::string& workload)
{
    sim::PodEvent e;
    e.time = sim::fromSeconds(seconds);
    e.type = type;
    e.pod = "default/" + pod;
    e.serial = planner::test::serialOf(pod);
    e.workload = workload;
    return e;
}

ServiceLevel level(Metric metric, double limit, const std::string& workload = {})
{
    ServiceLevel l;
    l.metric = metric;
    l.limit = limit;
    l.workload = workload;
    return l;
}

} // namespace

TEST(PlannerServiceLevels, WaitsCountPodsNeverBoundAtTheirAgeAtTheEnd)
{
    std::vector<ServiceLevel> levels { level(Metric::Wait, 600, "train"), level(Metric::Wait, 600),
        level(Metric::Pending, 1e9), level(Metric::NeverScheduled, 0.5, "train") };
    levels[0].percentile = 50;
    levels[1].percentile = 100;
    CancelToken stop;
    ServiceLevelRecorder r(levels, &stop, nullptr);
    r.onPodEvent(event(0, PodEventType::Created, "a", "train"));
    r.onPodEvent(event(10, PodEventType::Created, "b", "train"));
    r.onPodEvent(event(20, PodEventType::Created, "c", "serve"));
    r.onPodEvent(event(30, PodEventType::Scheduled, "a", "train")); // waited 30
    r.onPodEvent(event(25, PodEventType::Scheduled, "c", "serve")); // waited 5
    r.onPodEvent(event(100, PodEventType::Scheduled, "a", "train")); // a second binding changes nothing
    sim::RunSummary summary;
    summary.simulatedTime = sim::fromSeconds(1000); // b never bound: 990 s
    r.onRunFinished(summary);
    ASSERT_EQ(r.values().size(), 4u);
    EXPECT_EQ(r.values()[0], 30); // p50 of train {30, 990}
    EXPECT_EQ(r.values()[1], 990); // p100 of everything
    EXPECT_EQ(r.values()[2], 990);
    EXPECT_EQ(r.values()[3], 0.5); // 1 of 2 train pods never bound
    EXPECT_EQ(r.podsCreated(), 3);
    EXPECT_FALSE(stop.cancelled());
}

TEST(PlannerServiceLevels, APodWaitingTooLongStopsTheRun)
{
    std::vector<ServiceLevel> levels { level(Metric::Pending, 3600) };
    CancelToken stop;
    ServiceLevelRecorder r(levels, &stop, nullptr);
    r.onPodEvent(event(0, PodEventType::Created, "a", "w"));
    r.onPodEvent(event(3600, PodEventType::Created, "b", "w")); // exactly the limit: still fine
    EXPECT_FALSE(stop.cancelled());
    sim::MetricSample sample;
    sample.time = sim::fromSeconds(3601);
    r.onSample(sample);
    EXPECT_TRUE(stop.cancelled());
    EXPECT_TRUE(r.stoppedEarly());
    sim::RunSummary summary;
    summary.simulatedTime = sim::fromSeconds(3601);
    r.onRunFinished(summary);
    EXPECT_FALSE(levels[0].met(r.values()[0]));
}

TEST(PlannerServiceLevels, TheUsersCancelReachesTheRun)
{
    CancelToken stop, user;
    ServiceLevelRecorder r({ level(Metric::Wait, 1) }, &stop, &user);
    r.onPodEvent(event(0, PodEventType::Created, "a", "w"));
    EXPECT_FALSE(stop.cancelled());
    user.cancel();
    r.onPodEvent(event(1, PodEventType::Scheduled, "a", "w"));
    EXPECT_TRUE(stop.cancelled());
    EXPECT_FALSE(r.stoppedEarly()); // cancelled, not decided
}

TEST(PlannerServiceLevels, PlacementCountsClaimsWithinTheClass)
{
    ServiceLevel l = level(Metric::Placement, 0.75);
    l.within = "PIX";
    ServiceLevelRecorder r({ l }, nullptr, nullptr);
    sim::RunSummary summary;
    summary.placement = { { "NV", 2 }, { "PIX", 1 }, { "SYS", 1 } };
    r.onRunFinished(summary);
    EXPECT_EQ(r.values()[0], 0.75);
    ServiceLevelRecorder none({ l }, nullptr, nullptr);
    none.onRunFinished(sim::RunSummary {});
    EXPECT_EQ(none.values()[0], 1.0); // no multi-device claim: nothing placed badly
}

TEST(PlannerServiceLevels, APodBoundAfterWaitingTooLongStopsTheRunAtItsBinding)
{
    // The pod that waited too long is bound in the event that tells: no pending pod is left to
    // notice, and the level is missed all the same.
    std::vector<ServiceLevel> levels { level(Metric::Pending, 3600) };
    CancelToken stop;
    ServiceLevelRecorder r(levels, &stop, nullptr);
    r.onPodEvent(event(0, PodEventType::Created, "a", "w"));
    r.onPodEvent(event(4000, PodEventType::Scheduled, "a", "w"));
    EXPECT_TRUE(stop.cancelled());
    EXPECT_TRUE(r.stoppedEarly());
    EXPECT_EQ(r.stoppedAt(), sim::fromSeconds(4000));
}

TEST(PlannerServiceLevels, TheStopTimeIsTheEventThatDecidedIt)
{
    std::vector<ServiceLevel> levels { level(Metric::Pending, 3600) };
    CancelToken stop;
    ServiceLevelRecorder r(levels, &stop, nullptr);
    r.onPodEvent(event(0, PodEventType::Created, "a", "w"));
    r.onPodEvent(event(3000, PodEventType::Created, "b", "w"));
    EXPECT_EQ(r.stoppedAt(), -1);
    r.onPodEvent(event(3700, PodEventType::Created, "c", "w"));
    EXPECT_EQ(r.stoppedAt(), sim::fromSeconds(3700));
    r.onPodEvent(event(5000, PodEventType::Created, "d", "w")); // after the stop: nothing moves
    EXPECT_EQ(r.stoppedAt(), sim::fromSeconds(3700));
}
