// SPDX-License-Identifier: Apache-2.0
#include <map>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "core/compare/aligned_series.h"
#include "tests/unit/compare/summary_fixture.h"

using namespace drasim;
using namespace drasim::compare;

TEST(AlignedSeries, RunsSampledAtDifferentTimesShareOneAxis)
{
    RunData a, b;
    a.series = { { 0, "pods.pending", 3 }, { 300, "pods.pending", 1 }, { 600, "pods.pending", 0 } };
    b.series = { { 0, "pods.pending", 5 }, { 600, "pods.pending", 2 }, { 0, "cost.usd", 7 } };
    std::vector<AlignedSeries> s = alignSeries({ a, b });
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s[0].metric, "cost.usd"); // by name
    EXPECT_EQ(s[0].times, (std::vector<double> { 0 }));
    EXPECT_FALSE(s[0].values[0][0].has_value());
    EXPECT_EQ(s[0].values[1][0], 7.0);
    EXPECT_EQ(s[1].metric, "pods.pending");
    EXPECT_EQ(s[1].times, (std::vector<double> { 0, 300, 600 }));
    EXPECT_EQ(s[1].values[0], (std::vector<std::optional<double>> { 3.0, 1.0, 0.0 }));
    EXPECT_EQ(s[1].values[1], (std::vector<std::optional<double>> { 5.0, std::nullopt, 2.0 }));
}

// Law over random inputs: every sample of every run is found at its time on the common axis, the
// axis is strictly increasing and holds only times some run sampled, and nothing else has a value.
TEST(AlignedSeries, EverySampleLandsAtItsTimeAndNothingElseIsInvented)
{
    std::mt19937 rng(20261202);
    const std::vector<std::string> metrics { "a", "b/x", "b/y", "c" };
    for (int round = 0; round < 200; ++round) {
        const size_t runCount = 1 + rng() % 4;
        std::vector<RunData> runs(runCount);
        std::vector<std::map<std::pair<std::string, double>, double>> expected(runCount);
        for (size_t r = 0; r < runCount; ++r) {
            const int interval = 60 * int(1 + rng() % 5);
            const int samples = int(rng() % 20);
            for (int i = 0; i < samples; ++i)
                for (const std::string& m : metrics)
                    if (rng() % 3) {
                        const double t = double(i * interval), v = double(rng() % 1000) / 8;
                        runs[r].series.push_back({ t, m, v });
                        expected[r][{ m, t }] = v;
                    }
            std::shuffle(runs[r].series.begin(), runs[r].series.end(), rng); // stores need not sort
        }
        size_t valued = 0, total = 0;
        for (const AlignedSeries& s : alignSeries(runs)) {
            ASSERT_EQ(s.values.size(), runCount);
            for (size_t t = 1; t < s.times.size(); ++t)
                ASSERT_LT(s.times[t - 1], s.times[t]);
            for (size_t t = 0; t < s.times.size(); ++t) {
                bool someone = false;
                for (size_t r = 0; r < runCount; ++r) {
                    ASSERT_EQ(s.values[r].size(), s.times.size());
                    auto it = expected[r].find({ s.metric, s.times[t] });
                    if (it == expected[r].end()) {
                        EXPECT_FALSE(s.values[r][t].has_value());
                    } else {
                        EXPECT_EQ(s.values[r][t], it->second);
                        someone = true;
                        ++valued;
                    }
                }
                EXPECT_TRUE(someone) << "time " << s.times[t] << " of " << s.metric << " has no sample";
            }
        }
        for (const auto& e : expected)
            total += e.size();
        EXPECT_EQ(valued, total);
    }
}
