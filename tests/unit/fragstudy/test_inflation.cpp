// SPDX-License-Identifier: Apache-2.0
// The arrival protocol of the fragmentation experiment: shuffle, clones up to the target share of
// GPU capacity (with the authors' stop test), random drops below the trace's own request.

#include <algorithm>
#include <numeric>

#include <gtest/gtest.h>

#include "core/fragstudy/inflation.h"

namespace drasim::fragstudy {
namespace inflation_test {

struct Trace
{
    std::vector<gpushare::SharePod> pods;
    std::vector<std::string> names;
};

// 40 pods: sharing (300 milli), whole single GPUs, 2-GPU pods and CPU-only ones, named in reverse
// order of their index so that name order differs from file order.
Trace trace()
{
    Trace t;
    for (int i = 0; i < 40; ++i) {
        gpushare::SharePod p;
        p.cpuMilli = 1000;
        const int kind = i % 4;
        p.gpuCount = kind == 0 ? 0 : kind == 3 ? 2 : 1;
        p.gpuMilli = kind == 0 ? 0 : kind == 1 ? 300 : 1000;
        t.pods.push_back(p);
        char name[16];
        std::snprintf(name, sizeof name, "pod-%02d", 39 - i);
        t.names.push_back(name);
    }
    return t;
}

int64_t requested(const Trace& t, const std::vector<uint32_t>& order)
{
    int64_t total = 0;
    for (uint32_t i : order)
        total += t.pods[i].gpuMilliTotal();
    return total;
}

TEST(Inflation, WithoutTargetOrShuffleTheTraceArrivesInNameOrder)
{
    const Trace t = trace();
    workload::Rng rng(7);
    const auto order = arrivalOrder(t.pods, t.names, 100000, { std::nullopt, false }, rng);
    ASSERT_EQ(order.size(), 40u);
    for (size_t i = 0; i < order.size(); ++i)
        EXPECT_EQ(order[i], 39 - i);
}

TEST(Inflation, ShuffleIsAPermutationAndFollowsTheSeed)
{
    const Trace t = trace();
    workload::Rng a(42), b(42), c(43);
    const auto first = arrivalOrder(t.pods, t.names, 100000, { std::nullopt, true }, a);
    EXPECT_EQ(first, arrivalOrder(t.pods, t.names, 100000, { std::nullopt, true }, b));
    EXPECT_NE(first, arrivalOrder(t.pods, t.names, 100000, { std::nullopt, true }, c));
    std::vector<uint32_t> sorted = first;
    std::sort(sorted.begin(), sorted.end());
    std::vector<uint32_t> all(40);
    std::iota(all.begin(), all.end(), 0u);
    EXPECT_EQ(sorted, all);
}

TEST(Inflation, ClonesStopWhereTheNextWouldPassTheTarget)
{
    const Trace t = trace(); // requests 10 x 300 + 10 x 1000 + 10 x 2000 = 33,000 milli
    ASSERT_EQ(requested(t, std::vector<uint32_t>(40, 0)), 0);
    const int64_t capacity = 30000;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        workload::Rng rng(seed);
        const auto order = arrivalOrder(t.pods, t.names, capacity, { 130.0, true }, rng);
        ASSERT_GE(order.size(), 40u);
        // The stop test adds a clone's per-GPU milli only: a 2-GPU clone may pass the target by
        // one GPU, never by more.
        const int64_t total = requested(t, order);
        EXPECT_LE(total, 39000 + 1000) << seed;
        EXPECT_GT(total, 39000 - 2000) << seed;
    }
}

TEST(Inflation, ATargetBelowTheTraceDropsRandomPods)
{
    const Trace t = trace();
    workload::Rng rng(3);
    const auto order = arrivalOrder(t.pods, t.names, 30000, { 50.0, true }, rng);
    EXPECT_LE(requested(t, order), 15000);
    EXPECT_GT(requested(t, order), 15000 - 2000);
    EXPECT_LT(order.size(), 40u);
}

} // namespace inflation_test
} // namespace drasim::fragstudy
