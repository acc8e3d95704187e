// SPDX-License-Identifier: Apache-2.0
// Many runs of one prepared scenario: overrides, and concurrency (the planner's use).
#include <algorithm>
#include <thread>

#include <gtest/gtest.h>

#include "core/common/data_value.h"
#include "core/scenario/prepare.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenario_writer.h"
#include "core/sim/run_prepared.h"
#include "core/sim/series_writer.h"
#include "core/yamlio/writer.h"

using namespace drasim;
using namespace drasim::scenario;
using namespace drasim::sim;

namespace {

const std::string kDefault = DRASIM_SOURCE_DIR "/scenarios/sim/default/scenario.yaml";

Scenario loadDefault()
{
    Diagnostics diags;
    auto s = loadScenario(kDefault, diags);
    EXPECT_TRUE(s.has_value()) << diags.formatAll();
    return s.value_or(Scenario {});
}

PreparedScenario prepare(const Scenario& s, const PrepareOptions& options = {})
{
    Diagnostics diags;
    auto p = prepareScenario(s, options, diags);
    EXPECT_TRUE(p.has_value()) << diags.formatAll();
    return p.value_or(PreparedScenario {});
}

/// Summary JSON and series CSV of one run: the whole observable output.
std::string output(const PreparedScenario& p, const RunOverrides& overrides = {})
{
    Diagnostics diags;
    SeriesWriter series;
    RunOptions options;
    options.overrides = overrides;
    options.recorders.push_back(&series);
    auto summary = runPrepared(p, options, diags);
    EXPECT_TRUE(summary.has_value()) << diags.formatAll();
    return summary ? toJson(toData(*summary)) + series.csv() : std::string();
}

int64_t scheduledPods(const PreparedScenario& p, const RunOverrides& overrides)
{
    Diagnostics diags;
    RunOptions options;
    options.overrides = overrides;
    auto summary = runPrepared(p, options, diags);
    EXPECT_TRUE(summary.has_value()) << diags.formatAll();
    return summary ? summary->podsScheduled : -1;
}

} // namespace

TEST(PreparedScenario, HoldsTheClusterPoolsEventsAndWorkloads)
{
    PreparedScenario p = prepare(loadDefault());
    EXPECT_EQ(p.name, "default");
    EXPECT_EQ(p.seed, 42u);
    ASSERT_EQ(p.pools.size(), 2u);
    EXPECT_EQ(p.pools[0]->name, "h100");
    EXPECT_EQ(p.pools[0]->nodes.size(), 4u);
    EXPECT_EQ(p.pools[1]->nodes.size(), 6u);
    EXPECT_TRUE(p.pools[0]->preloaded);
    ASSERT_TRUE(p.objects);
    EXPECT_EQ(p.objects->nodes.size(), 10u);
    EXPECT_FALSE(p.objects->deviceClasses.empty());
    EXPECT_TRUE(p.placement);
    ASSERT_EQ(p.events.size(), 3u);
    EXPECT_EQ(p.events[0].node, "h100-1");
    ASSERT_TRUE(p.workloads);
    EXPECT_EQ(p.workloads->size(), 4u);
}

TEST(PreparedScenario, RunsOfOnePreparationAreIndependentAndRepeatable)
{
    PreparedScenario p = prepare(loadDefault());
    std::string first = output(p);
    EXPECT_EQ(output(p), first); // the first run left the prepared value untouched
}

TEST(PreparedScenario, ASeedOverrideEqualsPreparingWithThatSeed)
{
    Scenario s = loadDefault();
    PreparedScenario base = prepare(s);
    PrepareOptions with43;
    with43.seed = 43;
    RunOverrides seed43;
    seed43.seed = 43;
    std::string overridden = output(base, seed43);
    EXPECT_EQ(overridden, output(prepare(s, with43)));
    EXPECT_NE(overridden, output(base));
}

TEST(PreparedScenario, ConcurrentRunsFromThreadsMatchSequentialRuns)
{
    PreparedScenario p = prepare(loadDefault());
    std::vector<RunOverrides> variants(4);
    variants[1].seed = 7;
    variants[2].scoring = scheduler::ScoringPolicy::MostAllocated;
    variants[3].arrivalScale = 1.5;
    std::vector<std::string> sequential;
    for (const auto& v : variants)
        sequential.push_back(output(p, v));
    std::vector<std::string> parallel(variants.size());
    std::vector<std::thread> threads;
    for (size_t i = 0; i < variants.size(); ++i)
        threads.emplace_back([&, i] { parallel[i] = output(p, variants[i]); });
    for (auto& t : threads)
        t.join();
    for (size_t i = 0; i < variants.size(); ++i)
        EXPECT_EQ(parallel[i], sequential[i]) << "variant " << i;
    EXPECT_NE(sequential[2], sequential[0]); // the scoring policy reached the scheduler
}

TEST(PreparedScenario, ArrivalAndDurationScalingChangeTheLoad)
{
    PreparedScenario p = prepare(loadDefault());
    int64_t base = scheduledPods(p, {});
    RunOverrides busier;
    busier.arrivalScale = 3.0;
    EXPECT_GT(scheduledPods(p, busier), base);
    RunOverrides quieter;
    quieter.arrivalScale = 0.25;
    EXPECT_LT(scheduledPods(p, quieter), base);

    std::vector<workload::WorkloadSpec> scaled = scaledWorkloads(*p.workloads, 2.0, 3.0);
    ASSERT_TRUE(scaled[0].arrival && (*p.workloads)[0].arrival);
    EXPECT_DOUBLE_EQ(scaled[0].arrival->ratePerSecond, 2.0 * (*p.workloads)[0].arrival->ratePerSecond);
    ASSERT_TRUE(scaled[0].duration && (*p.workloads)[0].duration);
    EXPECT_DOUBLE_EQ(scaled[0].duration->median, 3.0 * (*p.workloads)[0].duration->median);
    EXPECT_DOUBLE_EQ(*scaled[0].duration->clampMax, 3.0 * *(*p.workloads)[0].duration->clampMax);
    EXPECT_DOUBLE_EQ(scaled[0].duration->sigma, (*p.workloads)[0].duration->sigma);
}

TEST(PreparedScenario, InjectedFailuresAreAddedPerRun)
{
    PreparedScenario p = prepare(loadDefault());
    RunOverrides failures;
    for (int i = 0; i < 4; ++i) {
        InjectedEvent e;
        e.at = kHour;
        e.type = InjectedEvent::Type::NodeFailure;
        e.node = "h100-" + std::to_string(i);
        failures.extraEvents.push_back(e);
    }
    EXPECT_NE(output(p, failures), output(p));
    EXPECT_EQ(p.events.size(), 3u); // the prepared value is unchanged
}

TEST(PreparedScenario, PoolOverridesRebuildTheCluster)
{
    Scenario s = loadDefault();
    PrepareOptions options;
    options.pools["l40s"].count = 4; // l40s-2 (tainted at 16h) still exists
    options.pools["h100"].shape = "dgx-h200";
    options.pools["h100"].count = 3; // h100-1 (failing at 10h) still exists
    PreparedScenario p = prepare(s, options);
    ASSERT_EQ(p.pools.size(), 2u);
    EXPECT_EQ(p.pools[0]->nodes.size(), 3u);
    EXPECT_EQ(p.pools[1]->nodes.size(), 4u);
    EXPECT_EQ(p.objects->nodes.size(), 7u);
    EXPECT_NE(output(p), output(prepare(s)));

    Diagnostics diags;
    PrepareOptions unknown;
    unknown.pools["nope"].count = 1;
    EXPECT_FALSE(prepareScenario(s, unknown, diags).has_value());
    EXPECT_NE(
        diags.formatAll().find("spec.cluster.nodePools: Not found: \"nope\": no node pool of that name"),
        std::string::npos)
        << diags.formatAll();

    Diagnostics d2;
    PrepareOptions tooSmall;
    tooSmall.pools["h100"].count = 1; // the NodeFailure event names h100-1
    EXPECT_FALSE(prepareScenario(s, tooSmall, d2).has_value());
    EXPECT_NE(d2.formatAll().find("spec.events[0].node: Not found: \"h100-1\""), std::string::npos)
        << d2.formatAll();
}

TEST(PreparedScenario, ContentHashFollowsTheDocumentNotItsFormatting)
{
    Scenario s = loadDefault();
    std::string hash = prepare(s).contentHash;
    EXPECT_EQ(hash.size(), 64u);
    Diagnostics diags;
    std::string text = "# a comment\n" + writeScenario(s);
    auto reformatted = parseScenario(text, s.file, diags);
    ASSERT_TRUE(reformatted) << diags.formatAll();
    EXPECT_EQ(prepare(*reformatted).contentHash, hash);
    PrepareOptions seeded;
    seeded.seed = 9; // a run setting, not the document
    EXPECT_EQ(prepare(s, seeded).contentHash, hash);
    PrepareOptions bigger;
    bigger.pools["l40s"].count = 8;
    EXPECT_NE(prepare(s, bigger).contentHash, hash);
    s.duration = 2 * kHour;
    EXPECT_NE(prepare(s).contentHash, hash);
}

TEST(PreparedScenario, ACancelledPreparationGivesNothing)
{
    Scenario s = loadDefault();
    s.workloads.clear(); // nothing to scan: cancellation must still be noticed
    CancelToken cancel;
    cancel.cancel();
    PrepareOptions options;
    options.cancel = &cancel;
    Diagnostics diags;
    EXPECT_FALSE(prepareScenario(s, options, diags).has_value());
    EXPECT_FALSE(diags.hasErrors()) << diags.formatAll();
}

TEST(PreparedScenario, ARunCancelledBeforeItBeganStopsWithoutATraceInItsRecorders)
{
    // What a window closing during a large cluster's set-up asks: stop, record nothing.
    struct Heard : RunRecorder
    {
        int started = 0, finished = 0;
        void onRunStarted(const RunInfo&) override { ++started; }
        void onRunFinished(const RunSummary&) override { ++finished; }
    } heard;
    const PreparedScenario p = prepare(loadDefault());
    CancelToken cancel;
    cancel.cancel();
    RunOptions options;
    options.cancel = &cancel;
    options.recorders.push_back(&heard);
    Diagnostics diags;
    EXPECT_FALSE(runPrepared(p, options, diags).has_value());
    EXPECT_FALSE(diags.hasErrors()) << diags.formatAll();
    EXPECT_EQ(heard.started, 0);
    EXPECT_EQ(heard.finished, 0);
    // The same options without the cancellation run to the end.
    CancelToken fresh;
    options.cancel = &fresh;
    EXPECT_TRUE(runPrepared(p, options, diags).has_value()) << diags.formatAll();
    EXPECT_EQ(heard.started, 1);
    EXPECT_EQ(heard.finished, 1);
}

TEST(PreparedScenario, ASingleUseRunTakesTheObjectsOnlyWhenNothingElseSharesThem)
{
    PreparedScenario p = prepare(loadDefault());
    std::string expected = output(p);
    auto run = [](PreparedScenario&& value) {
        Diagnostics diags;
        SeriesWriter series;
        RunOptions options;
        options.recorders.push_back(&series);
        auto summary = runPrepared(std::move(value), options, diags);
        EXPECT_TRUE(summary.has_value()) << diags.formatAll();
        return summary ? toJson(toData(*summary)) + series.csv() : std::string();
    };
    PreparedScenario shared = p; // shares p's objects
    EXPECT_EQ(run(std::move(shared)), expected);
    ASSERT_TRUE(p.objects);
    EXPECT_EQ(p.objects->nodes.size(), 10u); // still intact for further runs
    EXPECT_EQ(output(p), expected);
    EXPECT_EQ(run(std::move(p)), expected); // the last owner: taken over, same result
}

/// The cluster a preparation builds, as text: every object at time 0, then each pool's nodes and
/// their slices in pool order.
std::string clusterText(const PreparedScenario& p)
{
    std::string out = yamlio::toYamlList(*p.objects);
    for (const auto& pool : p.pools) {
        api::ObjectSet nodes;
        for (const auto& n : pool->nodes) {
            nodes.nodes.push_back(n.node);
            nodes.resourceSlices.insert(nodes.resourceSlices.end(), n.slices.begin(), n.slices.end());
        }
        out += "# pool " + pool->name + "\n" + yamlio::toYamlList(nodes);
    }
    return out;
}

/// Empty when equal, else where the texts part (a full diff of megabytes of YAML is too much).
std::string firstDifference(const std::string& a, const std::string& b)
{
    if (a == b)
        return {};
    const auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    const size_t at = size_t(ia - a.begin());
    const size_t from = at < 200 ? 0 : at - 200;
    return "differ at byte " + std::to_string(at) + ":\n" + a.substr(from, 400) + "\n---\n"
        + b.substr(from, 400);
}

TEST(PreparedScenario, ThreadsBuildTheSameClusterAsOne)
{
    // Enough nodes that the work is split (64 nodes a thread at least), in uneven pools.
    PrepareOptions options;
    options.pools["h100"].count = 131;
    options.pools["l40s"].count = 77;
    options.threads = 1;
    const PreparedScenario serial = prepare(loadDefault(), options);
    ASSERT_EQ(serial.objects->nodes.size(), 208u);
    const std::string expected = clusterText(serial);
    for (unsigned threads : { 0u, 2u, 3u, 7u }) {
        options.threads = threads;
        const PreparedScenario parallel = prepare(loadDefault(), options);
        EXPECT_EQ(firstDifference(clusterText(parallel), expected), "") << threads << " threads";
        EXPECT_EQ(parallel.contentHash, serial.contentHash);
    }
}

// The planner reads the catalog once and prepares every mix with it: the same preparation as
// reading it each time, the same report for a shape it lacks.
TEST(PreparedScenario, ACatalogReadOnceGivesTheSamePreparation)
{
    const Scenario s = loadDefault();
    PrepareOptions once;
    once.catalog = loadScenarioCatalog(s);
    ASSERT_FALSE(once.catalog->directory.empty());
    ASSERT_NE(once.catalog->catalog.find("dgx-h100"), nullptr);
    EXPECT_EQ(output(prepare(s, once)), output(prepare(s)));
}

TEST(PreparedScenario, ACatalogReadOnceReportsAMissingShapeLikeAFreshRead)
{
    Diagnostics parseDiags;
    auto s = parseScenario(R"(apiVersion: drasim.dev/v1alpha1
kind: Scenario
metadata: {name: t}
spec:
  cluster:
    nodePools:
      - {name: a, shape: no-such-shape, count: 1}
)",
        "s.yaml", parseDiags);
    ASSERT_TRUE(s.has_value()) << parseDiags.formatAll();
    Diagnostics fresh;
    EXPECT_FALSE(prepareScenario(*s, {}, fresh).has_value());
    PrepareOptions once;
    once.catalog = loadScenarioCatalog(*s);
    Diagnostics reused;
    EXPECT_FALSE(prepareScenario(*s, once, reused).has_value());
    EXPECT_NE(reused.formatAll().find(
                  "s.yaml:7:9: Scenario t: spec.cluster.nodePools[0].shape: Not found: \"no-such-shape\""),
        std::string::npos)
        << reused.formatAll();
    EXPECT_EQ(reused.formatAll(), fresh.formatAll());
}
