// SPDX-License-Identifier: Apache-2.0
// Waits over every pod a run created (pods never scheduled censored at their wait so far), the
// exact peak of pending pods, and utilisation over the devices that were up.
#include <gtest/gtest.h>

#include "core/sim/percentiles.h"
#include "core/sim/run_summary.h"
#include "core/sim/series_writer.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/fake_cluster.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

SimOptions censoringOpts(SimTime duration, SimTime interval)
{
    SimOptions o;
    o.scenarioName = "test";
    o.duration = duration;
    o.metricInterval = interval;
    return o;
}

} // namespace

TEST(CensoredPercentiles, APercentileIsABoundOnlyWhenACensoredValueCanMoveIt)
{
    // Exact 1..9, censored 5: sorted 1 2 3 4 5 5c 6 7 8 9. p50 (rank 5) is 5 and five exact values
    // are <= 5, so the censored 5 cannot move it whatever it becomes.
    DistributionSummary a = summarizeCensored({ 1, 2, 3, 4, 5, 6, 7, 8, 9 }, { 5 });
    EXPECT_EQ(a.count, 10u);
    EXPECT_EQ(a.censored, 1u);
    EXPECT_DOUBLE_EQ(a.p50, 5);
    EXPECT_FALSE(a.atLeast.p50);
    // p90 (rank 9) is 8 with only eight exact values at or below it: were the censored pod to wait
    // longer than 8, the ninth smallest would be 9.
    EXPECT_DOUBLE_EQ(a.p90, 8);
    EXPECT_TRUE(a.atLeast.p90);
    EXPECT_TRUE(a.atLeast.mean);
    EXPECT_TRUE(a.atLeast.max); // the censored pod may wait longer than 9
    EXPECT_FALSE(a.atLeast.min);

    // A censored value below the percentile can climb past it: p50 of 1 2c 3 4 is 2, but with the
    // pod at 2 finally waiting 10 the median is 3. A bound, not a value.
    DistributionSummary b = summarizeCensored({ 1, 3, 4 }, { 2 });
    EXPECT_DOUBLE_EQ(b.p50, 2);
    EXPECT_TRUE(b.atLeast.p50);
    // A censored value above the percentile cannot lower or raise it: p50 of 1 2 3 4c stays 2.
    DistributionSummary c = summarizeCensored({ 1, 2, 3 }, { 4 });
    EXPECT_DOUBLE_EQ(c.p50, 2);
    EXPECT_FALSE(c.atLeast.p50);
    EXPECT_TRUE(c.atLeast.p95);
    EXPECT_DOUBLE_EQ(c.maxExact, 3);
    EXPECT_DOUBLE_EQ(c.maxCensored, 4);

    DistributionSummary none = summarizeCensored({ 1, 2 }, {});
    EXPECT_FALSE(none.atLeast.any());
    EXPECT_EQ(none.censored, 0u);
}

TEST(WaitCensoring, PodsNeverScheduledCountWithTheirWaitSoFar)
{
    // One GPU, three pods at t=0 that run longer than the run: one binds, two wait 100 s.
    FakeCluster cluster;
    Simulator sim(cluster, censoringOpts(100 * kSecond, 10 * kSecond));
    sim.addNodePool(gpuPool("n", 1, 1));
    sim.setArrivals(source({ gpuJob("a", 0, 1000), gpuJob("b", 0, 1000), gpuJob("c", 0, 1000) }));
    RunSummary s = sim.run();
    EXPECT_EQ(s.podsScheduled, 1);
    EXPECT_EQ(s.waitSeconds.count, 3u);
    EXPECT_EQ(s.waitSeconds.censored, 2u);
    EXPECT_DOUBLE_EQ(s.waitSeconds.p50, 100);
    EXPECT_TRUE(s.waitSeconds.atLeast.p50);
    EXPECT_DOUBLE_EQ(s.waitSeconds.p95, 100);
    EXPECT_TRUE(s.waitSeconds.atLeast.p95);
    EXPECT_DOUBLE_EQ(s.waitSeconds.maxExact, 0);
    EXPECT_DOUBLE_EQ(s.waitSeconds.maxCensored, 100);
    ASSERT_EQ(s.workloads.size(), 1u);
    EXPECT_EQ(s.workloads[0].waitSeconds.censored, 2u);

    const std::string text = formatText(s);
    EXPECT_NE(text.find("wait: p50 >= 100.0s  p90 >= 100.0s  p95 >= 100.0s  p99 >= 100.0s  (n=3, 2 never "
                        "scheduled)\n  max wait 0.0s, longest pending 100.0s (never scheduled)\n"),
        std::string::npos)
        << text;
    const std::string json = toJson(toData(s), 0);
    EXPECT_NE(json.find("\"neverScheduled\":2,\"lowerBounds\":[\"mean\",\"p50\",\"p90\",\"p95\",\"p99\","
                        "\"max\"],\"maxScheduled\":0,\"longestPending\":100"),
        std::string::npos)
        << json;
}

TEST(WaitCensoring, PeakPendingIsExactWhateverTheSamplingInterval)
{
    // b waits from 1 s to 10 s; the only samples (0 s and the end) see nothing pending.
    FakeCluster cluster;
    Simulator sim(cluster, censoringOpts(100 * kSecond, kDay));
    sim.addNodePool(gpuPool("n", 1, 1));
    sim.setArrivals(source({ gpuJob("a", 0, 10), gpuJob("b", 1, 10) }));
    SeriesWriter series;
    sim.addRecorder(&series);
    RunSummary s = sim.run();
    EXPECT_EQ(s.peakPendingPods, 1);
    EXPECT_DOUBLE_EQ(s.waitSeconds.maxExact, 9);
    EXPECT_EQ(s.waitSeconds.censored, 0u);
    // The series says the same: the peak since the previous sample, at the end's sample.
    EXPECT_NE(series.csv().find("100,pods.pending,,0\n100,pods.pending.peak,,1\n"), std::string::npos)
        << series.csv();
}

TEST(WaitCensoring, SeriesGivesTheLongestWaitOfAPodPendingAtEachSample)
{
    FakeCluster cluster;
    Simulator sim(cluster, censoringOpts(100 * kSecond, 50 * kSecond));
    sim.addNodePool(gpuPool("n", 1, 1));
    sim.setArrivals(source({ gpuJob("a", 0, 1000), gpuJob("b", 20, 10), gpuJob("c", 30, 10) }));
    SeriesWriter series;
    sim.addRecorder(&series);
    sim.run();
    EXPECT_NE(series.csv().find("0,pods.pending.longest_s,,0\n"), std::string::npos);
    EXPECT_NE(series.csv().find("50,pods.pending.longest_s,,30\n"), std::string::npos) << series.csv();
    EXPECT_NE(series.csv().find("100,pods.pending.longest_s,,80\n"), std::string::npos);
}

TEST(WaitCensoring, UtilizationIsOverTheDevicesUp)
{
    // Two one-GPU nodes; a pod arrives at 0 (after the first sample) and holds one GPU; the other
    // node fails at 50 s. Samples at 0, 50, 100 s see 0 of 2, 1 of 1, 1 of 1 devices busy: 2 busy
    // device-samples of 4 up (50 %), where the mean of the ratios said 67 %.
    FakeCluster cluster;
    Simulator sim(cluster, censoringOpts(100 * kSecond, 50 * kSecond));
    sim.addNodePool(gpuPool("n", 2, 1));
    sim.setArrivals(source({ gpuJob("a", 0, 1000) }));
    InjectedEvent fail;
    fail.at = 50 * kSecond;
    fail.type = InjectedEvent::Type::NodeFailure;
    fail.node = "n-1";
    sim.addEvent(fail);
    RunSummary s = sim.run();
    const UtilizationSummary* model = nullptr;
    for (const auto& u : s.utilization)
        if (u.dimension == "model" && u.key == "A100")
            model = &u;
    ASSERT_NE(model, nullptr);
    EXPECT_DOUBLE_EQ(model->mean, 0.5);
    EXPECT_EQ(model->devicesInstalled, 2);
    EXPECT_EQ(model->devicesAtEnd, 1);
    EXPECT_NEAR(model->meanDevicesUp, 4.0 / 3.0, 1e-12);
    EXPECT_NE(formatText(s).find("  model A100: 50.0% / 100.0% of the devices up (mean 1.3 up of 2 "
                                 "installed)\n"),
        std::string::npos)
        << formatText(s);
}
