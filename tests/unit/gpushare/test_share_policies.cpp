// SPDX-License-Identifier: Apache-2.0
// The scoring policies against the FGD authors' unit values (gpu_packing_score_test.go, the
// paper's FGD example) and hand-computed values of their formulas, and the GPU choices.

#include <gtest/gtest.h>

#include "core/gpushare/share_policies.h"
#include "tests/unit/gpushare/share_fixtures.h"

namespace drasim::gpushare {
namespace policies_test {

using fixtures::node;
using fixtures::pod;

const DrawBelow kFirst = [](uint64_t) { return uint64_t(0); };
const std::vector<TypicalPod> kNone;

TEST(GpuPacking, AuthorsValues)
{
    EXPECT_EQ(
        shareScore(SharePolicy::GpuPacking, node(1000, { 200, 1000, 1000, 500 }), pod(100, 1000, 2), kNone),
        48);
    EXPECT_EQ(
        shareScore(SharePolicy::GpuPacking, node(1000, { 1000, 1000, 1000, 1000 }), pod(100, 1000, 2), kNone),
        29);
    EXPECT_EQ(shareScore(SharePolicy::GpuPacking, node(1000, std::vector<int32_t>(8, 1000)),
                  pod(100, 1000, 2), kNone),
        25);
    EXPECT_EQ(
        shareScore(SharePolicy::GpuPacking, node(1000, { 200, 1000, 1000, 500 }), pod(100, 200, 2), kNone),
        93);
    EXPECT_EQ(shareScore(SharePolicy::GpuPacking, node(1000, { 200, 1000 }), pod(100, 0, 0), kNone), 0);
}

TEST(Fgd, WorkedExampleOfThePaperPicksTheSmallGpu)
{
    const std::vector<TypicalPod> typical { { pod(4000, 500, 1), 0.5, 5 }, { pod(8000, 1000, 1), 0.3, 3 },
        { pod(2000, 0, 0), 0.2, 2 } };
    const ShareNode n = node(32000, { 1000, 1000, 1000, 300 });
    const SharePod p = pod(4000, 200, 1);
    EXPECT_EQ(fgdPlacementScore(n, p, 3, typical, 900), 54);
    for (int gpu = 0; gpu < 3; ++gpu)
        EXPECT_EQ(fgdPlacementScore(n, p, gpu, typical, 900), 45) << gpu;
    EXPECT_EQ(shareScore(SharePolicy::Fgd, n, p, typical), 54);
    EXPECT_EQ(chooseGpus(GpuChoice::Fgd, n, p, typical, kFirst), std::vector<int> { 3 });
    // No change in fragmentation scores 50: a CPU-only pod on a node whose GPUs stay as they are.
    EXPECT_EQ(fgdPlacementScore(node(32000, {}), pod(1000, 0, 0), -1, typical, 0), 50);
}

TEST(DotProduct, SmallerProductScoresHigher)
{
    // L = [64000/128000, 4000/8000] = [.5, .5]; r = [16000/128000, 1000/8000] = [.125, .125]:
    // L.r / 2 = .0625, score trunc(93.75) = 93.
    EXPECT_EQ(shareScore(SharePolicy::DotProduct, node(64000, { 1000, 1000, 1000, 1000 }),
                  pod(16000, 1000, 1), kNone),
        93);
    EXPECT_GT(shareScore(SharePolicy::DotProduct, node(16000, { 1000 }), pod(16000, 1000, 1), kNone),
        shareScore(SharePolicy::DotProduct, node(128000, std::vector<int32_t>(8, 1000)), pod(16000, 1000, 1),
            kNone));
}

TEST(BestFit, TighterNodeScoresHigher)
{
    // leftover = .5 * 48000/128000 + .5 * 3000/8000 = .375: score 62.
    EXPECT_EQ(
        shareScore(SharePolicy::BestFit, node(64000, { 1000, 1000, 1000, 1000 }), pod(16000, 1000, 1), kNone),
        62);
    EXPECT_EQ(shareScore(SharePolicy::BestFit, node(16000, { 1000 }), pod(16000, 1000, 1), kNone), 100);
}

TEST(GpuClustering, BandsByTheKindsOfPodsOnTheNode)
{
    const SharePod share = pod(1000, 500, 1);
    ShareNode idle = node(8000, { 1000, 1000, 1000, 1000 });
    // base = 25 * (8000 - 4000) / 8000 = 12.
    EXPECT_EQ(shareScore(SharePolicy::GpuClustering, idle, share, kNone), 25 + 12);
    ShareNode same = idle;
    same.gpuTags = share.clusteringTag();
    EXPECT_EQ(shareScore(SharePolicy::GpuClustering, same, share, kNone), 75 + 12);
    ShareNode mixed = same;
    mixed.gpuTags |= pod(1000, 1000, 2).clusteringTag();
    EXPECT_EQ(shareScore(SharePolicy::GpuClustering, mixed, share, kNone), 50 + 12);
    ShareNode other = idle;
    other.gpuTags = pod(1000, 1000, 2).clusteringTag();
    EXPECT_EQ(shareScore(SharePolicy::GpuClustering, other, share, kNone), 12);
    EXPECT_EQ(shareScore(SharePolicy::GpuClustering, idle, pod(1000, 0, 0), kNone), 0);
}

TEST(GpuChoice, BestTakesTheFullestFeasibleGpuAndWholePodsTheLowestFreeOnes)
{
    const ShareNode n = node(8000, { 1000, 300, 600, 1000, 300 });
    EXPECT_EQ(chooseGpus(GpuChoice::Best, n, pod(100, 300, 1), kNone, kFirst), std::vector<int> { 1 });
    EXPECT_EQ(chooseGpus(GpuChoice::Best, n, pod(100, 400, 1), kNone, kFirst), std::vector<int> { 2 });
    EXPECT_EQ(chooseGpus(GpuChoice::Best, n, pod(100, 1000, 2), kNone, kFirst), (std::vector<int> { 0, 3 }));
    EXPECT_EQ(
        chooseGpus(GpuChoice::Random, n, pod(100, 1000, 2), kNone, kFirst), (std::vector<int> { 0, 3 }));
    EXPECT_TRUE(chooseGpus(GpuChoice::Best, n, pod(100, 0, 0), kNone, kFirst).empty());
    // First fit, as the DRA allocator: the lowest index with room.
    EXPECT_EQ(chooseGpus(GpuChoice::FirstFit, n, pod(100, 300, 1), kNone, kFirst), std::vector<int> { 0 });
    EXPECT_EQ(chooseGpus(GpuChoice::FirstFit, n, pod(100, 700, 1), kNone, kFirst), std::vector<int> { 0 });
    EXPECT_EQ(
        chooseGpus(GpuChoice::FirstFit, n, pod(100, 1000, 2), kNone, kFirst), (std::vector<int> { 0, 3 }));
    for (GpuChoice c : { GpuChoice::Best, GpuChoice::Random, GpuChoice::Fgd, GpuChoice::FirstFit })
        EXPECT_EQ(parseGpuChoice(gpuChoiceName(c)), c);
    // Random draws among the feasible GPUs: {0, 2, 3} for 500 milli.
    const DrawBelow last = [](uint64_t n) { return n - 1; };
    EXPECT_EQ(chooseGpus(GpuChoice::Random, n, pod(100, 500, 1), kNone, last), std::vector<int> { 3 });
}

TEST(Filter, CpuMemoryModelAndGpus)
{
    ShareNode n = node(4000, { 1000, 400 });
    EXPECT_TRUE(fits(n, pod(4000, 400, 1)));
    EXPECT_FALSE(fits(n, pod(4001, 400, 1)));
    EXPECT_FALSE(fits(n, pod(100, 1000, 2)));
    EXPECT_TRUE(fits(n, pod(100, 1000, 1)));
    SharePod picky = pod(100, 100, 1);
    picky.models = 1u << 1;
    EXPECT_FALSE(fits(n, picky));
    n.model = 1;
    EXPECT_TRUE(fits(n, picky));
    n.memoryFreeMiB = 10;
    SharePod big = pod(100, 0, 0);
    big.memoryMiB = 11;
    EXPECT_FALSE(fits(n, big));
}

TEST(SharePolicies, NamesRoundTrip)
{
    for (const SharePolicyInfo& info : sharePolicies())
        EXPECT_EQ(parseSharePolicy(info.name), info.policy);
    EXPECT_FALSE(parseSharePolicy("least-allocated"));
}

} // namespace policies_test
} // namespace drasim::gpushare
