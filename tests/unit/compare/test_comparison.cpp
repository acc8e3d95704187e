// SPDX-License-Identifier: Apache-2.0
#include <filesystem>
#include <stdlib.h>

#include <gtest/gtest.h>

#include "core/compare/comparison.h"
#include "core/storage/run_store.h"
#include "tests/unit/compare/summary_fixture.h"
#include "tests/unit/temp_dir.h"

using namespace drasim;
using namespace drasim::compare;
using namespace drasim::compare::testing;

namespace {

using drasim::test_support::TempDir;

const Kpi* find(const Comparison& c, const std::string& name)
{
    for (const Kpi& k : c.kpis)
        if (k.name == name)
            return &k;
    return nullptr;
}

/// The names of the rows of one group, in row order.
std::vector<std::string> rowsOf(const Comparison& c, const std::string& group)
{
    std::vector<std::string> rows;
    for (const Kpi& k : c.kpis)
        if (k.group == group)
            rows.push_back(k.name);
    return rows;
}

sim::RunSummary baseline()
{
    sim::RunSummary s;
    s.info.scenario = "default";
    s.info.seed = 42;
    s.podsCreated = 100;
    s.podsScheduled = 90;
    s.podsPendingAtEnd = 6;
    s.peakPendingPods = 30;
    s.waitSeconds = waits(0, 600, 1200);
    s.workloads = { workload("inference", 0, 10, 20), workload("training", 60, 1800, 3600) };
    s.utilization = { model("H100", 0.75, 1.0) };
    s.fragmentation = { { "model-mismatch", 2.5 } };
    s.placement = { { "NV", 6 }, { "SYS", 2 } };
    s.costUsd = 1000;
    s.costByPool = { { "h100", 1000 } };
    return s;
}

sim::RunSummary bigger()
{
    sim::RunSummary s = baseline();
    s.podsCreated = 100;
    s.podsScheduled = 100;
    s.podsPendingAtEnd = 0;
    s.peakPendingPods = 4;
    s.workloads = { workload("training", 0, 300, 900) }; // no inference workload in this one
    s.utilization = { model("H100", 0.5, 0.875), model("L40S", 0.25, 0.5) };
    s.fragmentation = { { "too-few-on-node", 1.0 } };
    s.placement = { { "PIX", 4 }, { "NV", 12 } };
    s.costUsd = 1500.5;
    s.costByPool = { { "h100", 1200 }, { "l40s", 300.5 } };
    return s;
}

} // namespace

TEST(Compare, KpisSideBySideWithDifferencesFromTheFirstRun)
{
    Comparison c = compareRuns({ runData(3, baseline()), runData(7, bigger()) });
    ASSERT_EQ(c.runs.size(), 2u);
    EXPECT_EQ(c.runs[0].id, 3);
    EXPECT_EQ(c.runs[1].id, 7);

    const Kpi* never = find(c, "pods.neverScheduled");
    ASSERT_NE(never, nullptr);
    EXPECT_EQ(never->values[0], 10.0);
    EXPECT_EQ(never->values[1], 0.0);
    EXPECT_FALSE(never->deltas[0].has_value());
    EXPECT_EQ(never->deltas[1], -10.0);
    EXPECT_EQ(never->better, Better::Lower);

    const Kpi* peak = find(c, "pods.peakPending");
    ASSERT_NE(peak, nullptr);
    EXPECT_EQ(peak->deltas[1], -26.0);

    const Kpi* p95 = find(c, "wait.p95/training");
    ASSERT_NE(p95, nullptr);
    EXPECT_EQ(p95->unit, "s");
    EXPECT_EQ(p95->values[0], 1800.0);
    EXPECT_EQ(p95->values[1], 300.0);
    EXPECT_EQ(p95->deltas[1], -1500.0);
    ASSERT_NE(find(c, "wait.p99"), nullptr);
    EXPECT_EQ(find(c, "wait.p99")->values[0], 1200.0);

    const Kpi* cost = find(c, "cost.total");
    ASSERT_NE(cost, nullptr);
    EXPECT_DOUBLE_EQ(*cost->deltas[1], 500.5);

    const Kpi* util = find(c, "utilization.mean/H100");
    ASSERT_NE(util, nullptr);
    EXPECT_EQ(util->unit, "%");
    EXPECT_DOUBLE_EQ(*util->values[0], 75.0);
    EXPECT_DOUBLE_EQ(*util->deltas[1], -25.0);
}

TEST(Compare, AKeyOneRunLacksIsMissingOrZeroByItsKind)
{
    Comparison c = compareRuns({ runData(1, baseline()), runData(2, bigger()) });
    // A workload or a device model the run does not have: nothing to compare.
    const Kpi* inference = find(c, "wait.p50/inference");
    ASSERT_NE(inference, nullptr);
    EXPECT_TRUE(inference->values[0].has_value());
    EXPECT_FALSE(inference->values[1].has_value());
    EXPECT_FALSE(inference->deltas[1].has_value());
    const Kpi* l40s = find(c, "utilization.peak/L40S");
    ASSERT_NE(l40s, nullptr);
    EXPECT_FALSE(l40s->values[0].has_value());
    EXPECT_EQ(l40s->values[1], 50.0);
    const Kpi* pool = find(c, "cost.pool/l40s");
    ASSERT_NE(pool, nullptr);
    EXPECT_FALSE(pool->values[0].has_value());
    // A fragmentation reason or placement class the run never saw: zero of it.
    const Kpi* tooFew = find(c, "fragmentation.reason/too-few-on-node");
    ASSERT_NE(tooFew, nullptr);
    EXPECT_EQ(tooFew->values[0], 0.0);
    EXPECT_EQ(tooFew->deltas[1], 1.0);
    EXPECT_EQ(find(c, "fragmentation.total")->values[1], 1.0);
    const Kpi* pix = find(c, "placement.claims/PIX");
    ASSERT_NE(pix, nullptr);
    EXPECT_EQ(pix->values[0], 0.0);
    EXPECT_EQ(find(c, "placement.claims/SYS")->values[1], 0.0);
}

TEST(Compare, PlacementRowsReadFromNearestToFarthestWithShares)
{
    Comparison c = compareRuns({ runData(1, baseline()), runData(2, bigger()) });
    EXPECT_EQ(rowsOf(c, "placement"),
        (std::vector<std::string> { "placement.claims/NV", "placement.share/NV", "placement.claims/PIX",
            "placement.share/PIX", "placement.claims/SYS", "placement.share/SYS" }));
    const Kpi* nv = find(c, "placement.share/NV");
    EXPECT_DOUBLE_EQ(*nv->values[0], 75.0); // 6 of 8
    EXPECT_DOUBLE_EQ(*nv->values[1], 75.0); // 12 of 16
    EXPECT_DOUBLE_EQ(*nv->deltas[1], 0.0);
}

TEST(Compare, GroupsComeInAFixedOrder)
{
    Comparison c = compareRuns({ runData(1, bigger()), runData(2, baseline()) });
    std::vector<std::string> groups;
    for (const Kpi& k : c.kpis)
        if (groups.empty() || groups.back() != k.group)
            groups.push_back(k.group);
    EXPECT_EQ(groups,
        (std::vector<std::string> { "pods", "wait", "utilization", "cost", "fragmentation", "placement" }));
    // Overall wait first, then each workload's p50, p95, p99 together.
    EXPECT_EQ(rowsOf(c, "wait"),
        (std::vector<std::string> { "wait.p50", "wait.p95", "wait.p99", "wait.p50/inference",
            "wait.p95/inference", "wait.p99/inference", "wait.p50/training", "wait.p95/training",
            "wait.p99/training" }));
}

TEST(Compare, ARunComparedWithItselfDiffersByNothing)
{
    Comparison c = compareRuns({ runData(1, bigger()), runData(1, bigger()) });
    for (const Kpi& k : c.kpis) {
        ASSERT_EQ(k.values.size(), 2u) << k.name;
        EXPECT_EQ(k.values[0], k.values[1]) << k.name;
        if (k.values[0]) {
            EXPECT_EQ(k.deltas[1], 0.0) << k.name;
        }
    }
}

TEST(Compare, ASummaryThatIsNotOneIsReportedWithTheRun)
{
    RunData broken = runData(5, baseline());
    broken.info.summaryJson = "{\"pods\": [1, 2";
    try {
        compareRuns({ runData(1, baseline()), broken });
        FAIL() << "no error";
    } catch (const CompareError& e) {
        EXPECT_STREQ(e.what(), "run 5: the stored summary is not a JSON document");
    }
    broken.info.summaryJson = R"({"pods": {"created": 3, "scheduled": 2}})";
    try {
        compareRuns({ broken });
        FAIL() << "no error";
    } catch (const CompareError& e) {
        EXPECT_STREQ(e.what(), "run 5: the stored summary lacks pods.pendingAtEnd");
    }
    EXPECT_THROW(compareRuns({}), CompareError);
}

namespace { } // namespace

TEST(Compare, LoadsRunsFromTheStoreAndRefusesOnesItCannotCompare)
{
    TempDir dir;
    storage::RunStore store(dir.file("runs.db"));
    const int64_t a = store.beginRun("default", 42, "base", "hash-a");
    store.appendSamples(a, { { 0, "pods.pending", 3 }, { 300, "pods.pending", 1 } });
    store.finishRun(a, "finished", runData(0, baseline()).info.summaryJson);
    const int64_t b = store.beginRun("default", 42, "");

    std::vector<RunData> runs = loadRuns(store, { a });
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].info.label, "base");
    EXPECT_EQ(runs[0].info.scenarioRevision, 1);
    EXPECT_EQ(runs[0].series.size(), 2u);
    Comparison c = compareRuns(runs);
    EXPECT_EQ(c.runs[0].revision, 1);

    try {
        loadRuns(store, { a, 99 });
        FAIL() << "no error";
    } catch (const CompareError& e) {
        EXPECT_EQ(std::string(e.what()), "run 99 is not in the store " + dir.file("runs.db"));
    }
    try {
        loadRuns(store, { b });
        FAIL() << "no error";
    } catch (const CompareError& e) {
        EXPECT_STREQ(
            e.what(), ("run " + std::to_string(b) + " (status running) has no summary to compare").c_str());
    }
}

TEST(Compare, WaitsThatPodsNeverScheduledCouldRaiseAreBoundsNotBetterValues)
{
    // The second run left pods unscheduled: its p95 over every pod is 300 s at least, which is
    // below the baseline's exact 600 s but says nothing about which run waited less.
    sim::RunSummary censored = baseline();
    censored.waitSeconds.censored = 10;
    censored.waitSeconds.p95 = 300;
    censored.waitSeconds.atLeast.p95 = true;
    const Comparison c = compareRuns({ runData(1, baseline()), runData(2, censored) });
    const Kpi* p95 = find(c, "wait.p95");
    ASSERT_NE(p95, nullptr);
    EXPECT_EQ(p95->valueBounds, (std::vector<Bound> { Bound::Exact, Bound::AtLeast }));
    EXPECT_EQ(p95->deltaBounds, (std::vector<Bound> { Bound::Exact, Bound::AtLeast }));
    EXPECT_DOUBLE_EQ(p95->deltas[1].value_or(0), -300);
    const Kpi* p50 = find(c, "wait.p50");
    ASSERT_NE(p50, nullptr);
    EXPECT_EQ(p50->valueBounds, (std::vector<Bound> { Bound::Exact, Bound::Exact }));

    // Both bounds: the difference is unknown. Baseline a bound: the difference is at most.
    const Comparison both = compareRuns({ runData(1, censored), runData(2, censored) });
    EXPECT_FALSE(find(both, "wait.p95")->deltas[1].has_value());
    const Comparison reverse = compareRuns({ runData(1, censored), runData(2, baseline()) });
    EXPECT_EQ(find(reverse, "wait.p95")->deltaBounds[1], Bound::AtMost);
}

// Gang rows follow the waits, only for runs that had grouped jobs; a start that some gang never
// reached is a bound, and idle device-hours are worse when higher.
TEST(Compare, GangRowsSayHowManyStartedHowSoonAndWhatPartlyStartedJobsHeld)
{
    sim::RunSummary gang = baseline();
    gang.gangs.jobs = 10;
    gang.gangs.started = 8;
    gang.gangs.secondsToStart = waits(30, 900, 4000);
    gang.gangs.secondsToStart.censored = 2;
    gang.gangs.secondsToStart.atLeast.p99 = true;
    gang.gangs.idleDeviceHours = 0;
    gang.gangs.groupCycles = 41;
    gang.gangs.secondsToComplete = waits(3600, 7200, 9000);
    gang.gangs.secondsToComplete.censored = 1;
    gang.gangs.secondsToComplete.atLeast.p99 = true;
    sim::RunSummary basic = gang;
    basic.gangs.idleDeviceHours = 264.87;
    const Comparison c = compareRuns({ runData(1, gang), runData(2, basic), runData(3, baseline()) });
    EXPECT_EQ(rowsOf(c, "gangs"),
        (std::vector<std::string> { "gangs.jobs", "gangs.started", "gangs.neverStarted", "gangs.start.p50",
            "gangs.start.p95", "gangs.start.p99", "gangs.idleDeviceHours", "gangs.groupCycles",
            "gangs.complete.p50", "gangs.complete.p95", "gangs.complete.p99" }));
    EXPECT_DOUBLE_EQ(find(c, "gangs.complete.p50")->values[0].value_or(-1), 3600);
    EXPECT_EQ(find(c, "gangs.complete.p50")->better, Better::Lower);
    EXPECT_EQ(find(c, "gangs.complete.p99")->valueBounds[0], Bound::AtLeast);
    const Kpi* idle = find(c, "gangs.idleDeviceHours");
    ASSERT_NE(idle, nullptr);
    EXPECT_EQ(idle->better, Better::Lower);
    EXPECT_DOUBLE_EQ(idle->deltas[1].value_or(-1), 264.87);
    EXPECT_FALSE(idle->values[2].has_value()); // the run without gangs has no value, not zero
    EXPECT_DOUBLE_EQ(find(c, "gangs.neverStarted")->values[0].value_or(-1), 2);
    EXPECT_EQ(find(c, "gangs.start.p99")->valueBounds[0], Bound::AtLeast);
    EXPECT_EQ(find(c, "gangs.start.p50")->valueBounds[0], Bound::Exact);
    std::vector<std::string> groups;
    for (const Kpi& k : c.kpis)
        if (groups.empty() || groups.back() != k.group)
            groups.push_back(k.group);
    EXPECT_EQ(groups[2], "gangs");
}

// Runs stored before gang completion times were summarised compare still, without those rows.
TEST(Compare, AGangSummaryWithoutCompletionTimesHasNoCompletionRows)
{
    sim::RunSummary gang = baseline();
    gang.gangs.jobs = 2;
    gang.gangs.started = 2;
    RunData old = runData(1, gang);
    std::string& json = old.info.summaryJson;
    const size_t at = json.find(",\"secondsToComplete\":");
    ASSERT_NE(at, std::string::npos) << json;
    json.erase(at, json.find("]}", at) + 2 - at);
    ASSERT_EQ(json.find("secondsToComplete"), std::string::npos);
    const Comparison c = compareRuns({ old, runData(2, gang) });
    EXPECT_FALSE(find(c, "gangs.complete.p50")->values[0].has_value());
    EXPECT_DOUBLE_EQ(find(c, "gangs.complete.p50")->values[1].value_or(-1), 0);
    EXPECT_DOUBLE_EQ(find(c, "gangs.jobs")->values[0].value_or(-1), 2);
}

TEST(Compare, ASummaryWhoseWaitsLeaveOutUnscheduledPodsHasNoWaitRows)
{
    // Summaries written before waits counted every pod lack waitSeconds.neverScheduled: their
    // percentiles describe the scheduled pods only and must not be ranked.
    RunData old = runData(1, baseline());
    for (size_t at; (at = old.info.summaryJson.find("\"neverScheduled\":0,")) != std::string::npos;)
        old.info.summaryJson.erase(at, std::string("\"neverScheduled\":0,").size());
    const Comparison c = compareRuns({ old, runData(2, baseline()) });
    const Kpi* p95 = find(c, "wait.p95");
    ASSERT_NE(p95, nullptr);
    EXPECT_FALSE(p95->values[0].has_value());
    EXPECT_TRUE(p95->values[1].has_value());
}

TEST(Compare, PreemptionRowsAndWaitsPerPriorityClass)
{
    sim::RunSummary upstream = baseline();
    upstream.priorityClasses
        = { { "inference", 1000000, waits(600, 3000, 3600) }, { "training", 10000, waits(0, 60, 90) } };
    sim::RunSummary whatIf = baseline();
    whatIf.preemption = { 4, 6, 2, 3.5 };
    whatIf.priorityClasses
        = { { "inference", 1000000, waits(30, 30, 30) }, { "training", 10000, waits(0, 600, 900) } };
    const Comparison c = compareRuns({ runData(1, upstream), runData(2, whatIf), runData(3, baseline()) });
    EXPECT_EQ(rowsOf(c, "preemption"),
        (std::vector<std::string> {
            "preemption.preemptions", "preemption.victims", "preemption.lostDeviceHours" }));
    const Kpi* lost = find(c, "preemption.lostDeviceHours");
    ASSERT_NE(lost, nullptr);
    EXPECT_DOUBLE_EQ(lost->values[0].value_or(-1), 0); // a run that preempted nothing lost nothing
    EXPECT_DOUBLE_EQ(lost->deltas[1].value_or(-1), 3.5);
    const Kpi* p95 = find(c, "wait.p95/class:inference");
    ASSERT_NE(p95, nullptr);
    EXPECT_DOUBLE_EQ(p95->deltas[1].value_or(-1), 30 - 3000);
    EXPECT_FALSE(p95->values[2].has_value()); // a run with one class has no class rows
}
