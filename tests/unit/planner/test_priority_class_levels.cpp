// SPDX-License-Identifier: Apache-2.0
// Service levels per priority class: "p95 wait of priority class inference <= 1m" is written
// {metric: wait, percentile: 95, priorityClass: inference, max: 1m} and measured on the pods of
// that class only.
#include <gtest/gtest.h>

#include "core/planner/service_level_recorder.h"
#include "core/planner/study.h"
#include "core/sim/run_summary.h"
#include "tests/unit/planner/pod_serials.h"

using namespace drasim;
using namespace drasim::planner;
using sim::PodEventType;

namespace {

std::optional<Study> studyWith(const std::string& level, Diagnostics& diags)
{
    return parseStudy("apiVersion: drasim.dev/v1alpha1\nkind: Study\nmetadata: {name: slo}\nspec:\n"
                      "  scenario: scenario.yaml\n  candidates: [{shape: dgx-h100}]\n  serviceLevels:\n    - "
            + level + "\n",
        "study.yaml", diags);
}

sim::PodEvent classEvent(double seconds, PodEventType type, const std::string& pod, const std::string& cls)
{
    sim::PodEvent e;
    e.time = sim::fromSeconds(seconds);
    e.type = type;
    e.pod = "default/" + pod;
    e.serial = planner::test::serialOf(pod);
    e.workload = "w";
    if (type == PodEventType::Created)
        e.priorityClass = cls;
    return e;
}

} // namespace

TEST(PlannerPriorityClassLevels, AreReadAndDescribed)
{
    Diagnostics diags;
    auto s = studyWith("{metric: wait, percentile: 95, priorityClass: inference, max: 1m}", diags);
    ASSERT_TRUE(s) << diags.formatAll();
    const ServiceLevel& l = s->serviceLevels.at(0);
    EXPECT_EQ(l.priorityClass, "inference");
    EXPECT_EQ(l.describe(), "p95 wait of priority class inference <= 1m");
    EXPECT_EQ(l.column(), "wait_p95_class_inference_s");
    auto both = studyWith("{metric: pending, workload: serve, priorityClass: inference, max: 5m}", diags);
    ASSERT_TRUE(both) << diags.formatAll();
    EXPECT_EQ(
        both->serviceLevels.at(0).describe(), "longest pending of serve, priority class inference <= 5m");
}

TEST(PlannerPriorityClassLevels, PlacementHasNoClass)
{
    Diagnostics diags;
    EXPECT_FALSE(studyWith("{metric: placement, within: PIX, min: 90%, priorityClass: inference}", diags));
    EXPECT_EQ(diags.formatAll(),
        "study.yaml:8:50: Study slo: spec.serviceLevels[0].priorityClass: unknown field \"priorityClass\"; "
        "expected one of: metric, within, min\n");
}

TEST(PlannerPriorityClassLevels, CountOnlyThePodsOfTheClass)
{
    ServiceLevel inference;
    inference.metric = Metric::Wait;
    inference.percentile = 100;
    inference.priorityClass = "inference";
    inference.limit = 60;
    ServiceLevel all = inference;
    all.priorityClass.clear();
    CancelToken stop;
    ServiceLevelRecorder r({ inference, all }, &stop, nullptr);
    r.onPodEvent(classEvent(0, PodEventType::Created, "serve-0", "inference"));
    r.onPodEvent(classEvent(0, PodEventType::Created, "train-0", "training"));
    r.onPodEvent(classEvent(30, PodEventType::Scheduled, "serve-0", ""));
    r.onPodEvent(classEvent(600, PodEventType::Scheduled, "train-0", ""));
    sim::RunSummary summary;
    summary.simulatedTime = sim::fromSeconds(1000);
    r.onRunFinished(summary);
    EXPECT_EQ(r.values(), (std::vector<double> { 30, 600 }));
}
