// SPDX-License-Identifier: Apache-2.0
// Failure processes of node pools (sim/failure_draws.h, scenario/pool_failures_yaml.h): how they
// are read and refused, the laws of their draws, and what a run with them does and reports.
#include <cmath>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "core/common/data_value.h"
#include "core/scenario/prepare.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenario_writer.h"
#include "core/sim/failure_draws.h"
#include "core/sim/run_prepared.h"
#include "core/yamlio/writer.h"

using namespace drasim;
using namespace drasim::scenario;
using namespace drasim::sim;

namespace failure_process_tests {

const char* const kFailHeader = "apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: t\n";

std::string poolErrors(const std::string& poolFields)
{
    Diagnostics diags;
    const std::string text = std::string(kFailHeader)
        + "spec:\n  cluster:\n    nodePools:\n      - {name: a, shape: s, count: 1, " + poolFields + "}\n";
    auto s = parseScenario(text, "dir/s.yaml", diags);
    EXPECT_FALSE(s.has_value());
    return diags.formatAll();
}

PoolFailures hardware(SimTime mtbf, double shape = 1.0, SimTime repair = kHour)
{
    PoolFailures f;
    f.failures.emplace();
    f.failures->mtbf = mtbf;
    f.failures->weibullShape = shape;
    f.failures->repair.mean = repair;
    f.failures->repair.distribution = DownTime::Distribution::Fixed;
    return f;
}

std::shared_ptr<const NodePool> poolOf(const std::string& name, int nodes, const PoolFailures& f)
{
    auto pool = std::make_shared<NodePool>();
    pool->name = name;
    pool->failures = f;
    for (int i = 0; i < nodes; ++i) {
        NodeSpec n;
        n.node.meta.name = name + "-" + std::to_string(i);
        pool->nodes.push_back(n);
    }
    return pool;
}

std::string timeline(const std::vector<InjectedEvent>& events)
{
    std::string out;
    for (const auto& e : events)
        out += formatDuration(e.at) + " " + injectedEventTypeName(e.type) + " " + e.node + "\n";
    return out;
}

/// Binds and node transitions of a run, to check that no pod is bound to a node that is down.
struct DownNodeWatch : RunRecorder
{
    std::set<std::string> down;
    int64_t bindsToDownNodes = 0;
    int64_t binds = 0;
    int64_t failures = 0;
    void onClusterEvent(const ClusterEvent& e) override
    {
        if (e.kind == "NodeFailure") {
            down.insert(e.subject);
            ++failures;
        } else if (e.kind == "NodeReturn") {
            down.erase(e.subject);
        }
    }
    void onPodEvent(const PodEvent& e) override
    {
        if (e.type != PodEventType::Scheduled)
            return;
        ++binds;
        if (down.count(e.node))
            ++bindsToDownNodes;
    }
};

const std::string kDefaultScenario = DRASIM_SOURCE_DIR "/scenarios/sim/default/scenario.yaml";

Scenario defaultWithFailures(bool withFailures)
{
    Diagnostics diags;
    auto s = loadScenario(kDefaultScenario, diags);
    EXPECT_TRUE(s.has_value()) << diags.formatAll();
    if (!s)
        return {};
    if (withFailures) {
        PoolFailures f = hardware(12 * kHour, 1.0, 3 * kHour);
        f.failures->repair.distribution = DownTime::Distribution::Exponential;
        for (auto& p : s->nodePools)
            p.failures = f;
    }
    return *s;
}

} // namespace failure_process_tests

using namespace failure_process_tests;

TEST(FailureProcesses, BadValuesAreLocatedAndWorded)
{
    EXPECT_EQ(poolErrors("failures: {repair: {mean: 4h}}"),
        "dir/s.yaml:8:49: Scenario t: spec.cluster.nodePools[0].failures.mtbf: Required value\n");
    EXPECT_EQ(poolErrors("failures: {mtbf: 0s, repair: {mean: 4h}}"),
        "dir/s.yaml:8:56: Scenario t: spec.cluster.nodePools[0].failures.mtbf: Invalid value: \"0s\": must "
        "be "
        "greater than 0\n");
    EXPECT_EQ(poolErrors("failures: {mtbf: 100h}"),
        "dir/s.yaml:8:49: Scenario t: spec.cluster.nodePools[0].failures.repair: Required value\n");
    EXPECT_EQ(poolErrors("failures: {mtbf: 100h, repair: {mean: 4h, distribution: weibull}}"),
        "dir/s.yaml:8:95: Scenario t: spec.cluster.nodePools[0].failures.repair.distribution: Unsupported "
        "value: \"weibull\": supported values: \"exponential\", \"fixed\", \"lognormal\"\n");
    EXPECT_EQ(poolErrors("failures: {mtbf: 100h, repair: {mean: 4h, sigma: 0.5}}"),
        "dir/s.yaml:8:88: Scenario t: spec.cluster.nodePools[0].failures.repair.sigma: Forbidden: only with "
        "distribution lognormal\n");
    EXPECT_EQ(poolErrors("failures: {mtbf: 100h, weibull: {shape: 40}, repair: {mean: 4h}}"),
        "dir/s.yaml:8:79: Scenario t: spec.cluster.nodePools[0].failures.weibull.shape: Invalid value: 40: "
        "must be between 0.1 and 10\n");
    EXPECT_EQ(poolErrors("spot: {reclaimRate: often, replacement: {mean: 5m}}"),
        "dir/s.yaml:8:59: Scenario t: spec.cluster.nodePools[0].spot.reclaimRate: Invalid value: \"often\": "
        "expected a rate such as 0.02/h or 0.5/d (reclaims per node-hour or -day)\n");
    EXPECT_EQ(poolErrors("spot: {reclaimRate: 0/h, replacement: {mean: 5m}}"),
        "dir/s.yaml:8:59: Scenario t: spec.cluster.nodePools[0].spot.reclaimRate: Invalid value: \"0/h\": "
        "must be greater than 0\n");
    EXPECT_EQ(poolErrors("spot: {reclaimRate: 0.1/h}"),
        "dir/s.yaml:8:45: Scenario t: spec.cluster.nodePools[0].spot.replacement: Required value\n");
    // Pools added by an event would fail only from their arrival on: not supported.
    Diagnostics diags;
    parseScenario(std::string(kFailHeader)
            + "spec:\n  events:\n    - at: 1h\n      type: AddNodePool\n      pool: {name: b, shape: s, "
              "count: 1, failures: {mtbf: 9h, repair: {mean: 1h}}}\n",
        "dir/s.yaml", diags);
    EXPECT_EQ(diags.formatAll(),
        "dir/s.yaml:9:53: Scenario t: spec.events[0].pool.failures: Forbidden: failure settings are only "
        "supported on spec.cluster.nodePools\n");
}

TEST(FailureProcesses, SettingsAreWrittenBackAsRead)
{
    const std::string text = std::string(kFailHeader)
        + "spec:\n  cluster:\n    nodePools:\n      - {name: a, shape: s, count: 2, failures: {mtbf: 2000h, "
          "weibull: {shape: 0.8}, repair: {mean: 4h, distribution: lognormal, sigma: 0.6}}, spot: "
          "{reclaimRate: 0.5/d, notice: 2m, replacement: {mean: 10m, distribution: fixed}}}\n";
    Diagnostics diags;
    auto s = parseScenario(text, "dir/s.yaml", diags);
    ASSERT_TRUE(s.has_value()) << diags.formatAll();
    const PoolFailures& f = s->nodePools[0].failures;
    ASSERT_TRUE(f.failures && f.spot);
    EXPECT_EQ(f.failures->mtbf, 2000 * kHour);
    EXPECT_DOUBLE_EQ(f.failures->weibullShape, 0.8);
    EXPECT_EQ(f.failures->repair.distribution, DownTime::Distribution::Lognormal);
    EXPECT_DOUBLE_EQ(f.spot->ratePerHour, 0.5 / 24);
    EXPECT_EQ(f.spot->notice, 2 * kMinute);
    const std::string written = writeScenario(*s);
    auto again = parseScenario(written, "dir/s.yaml", diags);
    ASSERT_TRUE(again.has_value()) << diags.formatAll() << written;
    EXPECT_EQ(writeScenario(*again), written);
    EXPECT_DOUBLE_EQ(again->nodePools[0].failures.spot->ratePerHour, 0.5 / 24);
    EXPECT_DOUBLE_EQ(again->nodePools[0].failures.failures->repair.sigma, 0.6);
}

TEST(FailureProcesses, SameSeedSameTimesAndEachNodeHasItsOwnStream)
{
    const auto a = poolOf("a", 4, hardware(50 * kHour));
    const auto b = poolOf("b", 3, hardware(20 * kHour));
    const std::string once = timeline(drawFailureEvents({ a }, 7, 30 * kDay));
    EXPECT_EQ(once, timeline(drawFailureEvents({ a }, 7, 30 * kDay)));
    EXPECT_NE(once, timeline(drawFailureEvents({ a }, 8, 30 * kDay)));
    EXPECT_FALSE(once.empty());
    // Adding a pool leaves the first pool's draws as they were.
    std::vector<InjectedEvent> onlyA;
    for (const auto& e : drawFailureEvents({ b, a }, 7, 30 * kDay))
        if (e.node.rfind("a-", 0) == 0)
            onlyA.push_back(e);
    EXPECT_EQ(timeline(onlyA), once);
    // No failure settings: nothing drawn.
    EXPECT_TRUE(drawFailureEvents({ poolOf("c", 5, {}) }, 7, 30 * kDay).empty());
}

// A node's timeline alternates failure and return: it never fails while down.
TEST(FailureProcesses, ANodeNeverFailsWhileDown)
{
    PoolFailures f = hardware(10 * kHour, 0.7, 6 * kHour);
    f.failures->repair.distribution = DownTime::Distribution::Exponential;
    f.spot.emplace();
    f.spot->ratePerHour = 0.05;
    f.spot->notice = 2 * kMinute;
    f.spot->replacement.mean = 20 * kMinute;
    for (uint64_t seed = 1; seed <= 50; ++seed) {
        const auto events = drawNodeFailures("n-0", f, seed, 60 * kDay);
        bool down = false;
        SimTime last = 0;
        for (const auto& e : events) {
            EXPECT_GE(e.at, last);
            last = e.at;
            if (e.type == InjectedEvent::Type::NodeFailure) {
                EXPECT_FALSE(down) << "seed " << seed << " at " << formatDuration(e.at);
                down = true;
            } else if (e.type == InjectedEvent::Type::NodeReturn) {
                EXPECT_TRUE(down);
                down = false;
            } else {
                EXPECT_FALSE(down) << "a reclaim notice on a node that is down";
            }
        }
    }
}

// Over many nodes and seeds the mean number of failures per node is duration / (MTBF + repair)
// (renewal theory; the repair is short here), for the exponential and a Weibull alike.
TEST(FailureProcesses, MeanFailuresPerNodeIsDurationOverMtbf)
{
    const SimTime duration = 1000 * kHour;
    for (double shape : { 1.0, 0.7, 2.0 }) {
        const PoolFailures f = hardware(10 * kHour, shape, kSecond);
        int64_t failures = 0;
        const int nodes = 20, seeds = 20;
        for (uint64_t seed = 1; seed <= seeds; ++seed)
            for (const auto& e : drawFailureEvents({ poolOf("n", nodes, f) }, seed, duration))
                failures += e.type == InjectedEvent::Type::NodeFailure;
        const double perNode = double(failures) / (nodes * seeds);
        const double expected = double(duration) / double(10 * kHour + kSecond);
        EXPECT_NEAR(perNode, expected, 0.05 * expected) << "shape " << shape;
    }
}

TEST(FailureProcesses, SpotReclaimCordonsAtTheNoticeAndTheNodeGoesAtItsEnd)
{
    PoolFailures f;
    f.spot.emplace();
    f.spot->ratePerHour = 0.1;
    f.spot->notice = 2 * kMinute;
    f.spot->replacement.mean = 15 * kMinute;
    f.spot->replacement.distribution = DownTime::Distribution::Fixed;
    const auto events = drawNodeFailures("s-0", f, 3, 10 * kDay);
    ASSERT_GE(events.size(), 3u);
    for (size_t i = 0; i + 2 < events.size(); i += 3) {
        EXPECT_EQ(events[i].type, InjectedEvent::Type::NodeTaint);
        EXPECT_EQ(events[i].taint.key, kSpotReclaimTaintKey);
        EXPECT_EQ(events[i].taint.effect, "NoSchedule");
        EXPECT_EQ(events[i + 1].type, InjectedEvent::Type::NodeFailure);
        EXPECT_EQ(events[i + 1].at, events[i].at + 2 * kMinute);
        EXPECT_EQ(events[i + 2].type, InjectedEvent::Type::NodeReturn);
        EXPECT_EQ(events[i + 2].at, events[i + 1].at + 15 * kMinute);
        EXPECT_EQ(events[i + 1].origin, InjectedEvent::Origin::SpotReclaim);
    }
}

// A run with failure processes: reproducible for a seed, other seeds draw other failures, no
// pod is bound to a node that is down, and the summary reports what the failures did.
TEST(FailureProcesses, RunsAreReproducibleAndNeverBindToADownNode)
{
    Diagnostics diags;
    auto prepared = prepareScenario(defaultWithFailures(true), {}, diags);
    ASSERT_TRUE(prepared.has_value()) << diags.formatAll();
    auto run = [&](uint64_t seed, DownNodeWatch* watch) {
        RunOptions options;
        options.overrides.seed = seed;
        if (watch)
            options.recorders.push_back(watch);
        auto s = runPrepared(*prepared, options, diags);
        EXPECT_TRUE(s.has_value()) << diags.formatAll();
        return s.value_or(RunSummary {});
    };
    DownNodeWatch watch;
    const RunSummary first = run(42, &watch);
    ASSERT_TRUE(first.failures.has_value());
    EXPECT_GT(first.failures->failures, 0);
    EXPECT_GT(first.failures->nodeHoursDown, 0);
    EXPECT_GT(watch.binds, 0);
    EXPECT_EQ(watch.bindsToDownNodes, 0);
    // The named failure of h100-1 is there too; only drawn ones are counted.
    EXPECT_GT(watch.failures, first.failures->failures);
    EXPECT_EQ(toJson(toData(run(42, nullptr))), toJson(toData(first)));
    EXPECT_NE(toJson(toData(run(43, nullptr))), toJson(toData(first)));
    EXPECT_NE(formatText(first).find("failures: "), std::string::npos);

    auto plain = prepareScenario(defaultWithFailures(false), {}, diags);
    ASSERT_TRUE(plain.has_value());
    const auto without = runPrepared(*plain, {}, diags);
    ASSERT_TRUE(without.has_value());
    EXPECT_FALSE(without->failures.has_value());
    EXPECT_EQ(formatText(*without).find("failures: "), std::string::npos);
}
