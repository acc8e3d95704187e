// SPDX-License-Identifier: Apache-2.0
// The FGD measure on DRA devices allocated whole (claim_fragmentation.h): worked examples for a
// GPU and NIC workload, and the law that ties it to the paper's measure on whole GPUs.

#include <random>

#include <gtest/gtest.h>

#include "core/gpushare/claim_fragmentation.h"
#include "core/gpushare/fragmentation.h"
#include "core/gpushare/share_policies.h"
#include "tests/unit/gpushare/share_fixtures.h"

namespace drasim::gpushare {
namespace claim_fragmentation_test {

const std::string kGpu = "gpu.nvidia.com";
const std::string kNic = "dra.net";

TEST(ClaimFragmentation, GpusWithoutANicAreFragmentForAlignedClaims)
{
    // Typical claims: a GPU with a NIC (p .5), two GPUs (p .3), no device (p .2). A node with
    // 4 free GPUs and no free NIC: the aligned claim cannot use them (4), the two-GPU claim can
    // (0), the deviceless pod never does (4): F_gpu = 2 + 0 + 0.8 = 2.8.
    const std::vector<TypicalClaim> typical { { { { kGpu, 1 }, { kNic, 1 } }, 0.5, 5 },
        { { { kGpu, 2 } }, 0.3, 3 }, { {}, 0.2, 2 } };
    const DeviceCounts noNic { { kGpu, 4 }, { kNic, 0 } };
    EXPECT_FALSE(claimFits(noNic, typical[0].shape));
    EXPECT_TRUE(claimFits(noNic, typical[1].shape));
    EXPECT_TRUE(claimFits(noNic, typical[2].shape));
    EXPECT_EQ(claimFragment(noNic, typical[0].shape, kGpu), 4);
    EXPECT_EQ(claimFragment(noNic, typical[1].shape, kGpu), 0);
    EXPECT_EQ(claimFragment(noNic, typical[2].shape, kGpu), 4);
    const auto f = nodeClaimFragment(noNic, typical);
    ASSERT_EQ(f.size(), 1u) << "no free NIC, no NIC fragment";
    EXPECT_NEAR(f.at(kGpu), 2.8, 1e-12);

    // One free GPU and two free NICs: the aligned claim fits (GPU 0, NIC 0); the two-GPU claim
    // strands the GPU (.3) and never uses NICs (.3 x 2), the deviceless pod strands all (.2).
    const DeviceCounts oneGpu { { kGpu, 1 }, { kNic, 2 } };
    const auto g = nodeClaimFragment(oneGpu, typical);
    EXPECT_NEAR(g.at(kGpu), 0.3 + 0.2, 1e-12);
    EXPECT_NEAR(g.at(kNic), 0.3 * 2 + 0.2 * 2, 1e-12);
}

TEST(ClaimFragmentation, TheClusterSumsItsNodesPerClass)
{
    const std::vector<TypicalClaim> typical { { { { kGpu, 8 } }, 1.0, 4 } };
    const auto cluster = clusterClaimFragment(
        { { { kGpu, 8 } }, { { kGpu, 7 } }, { { kGpu, 0 } }, { { kGpu, 3 }, { kNic, 2 } } }, typical);
    ASSERT_EQ(cluster.size(), 2u);
    // The full node holds an eight-GPU claim; 7 and 3 free GPUs cannot.
    EXPECT_EQ(cluster.at(kGpu).fragment, 10);
    EXPECT_EQ(cluster.at(kGpu).free, 18);
    EXPECT_EQ(cluster.at(kNic).fragment, 2); // never asked for
    EXPECT_EQ(cluster.at(kNic).free, 2);
}

TEST(ClaimFragmentation, TypicalClaimsKeepThePopularShapes)
{
    std::vector<DeviceCounts> claims;
    for (int i = 0; i < 6; ++i)
        claims.push_back({ { kGpu, 1 } });
    for (int i = 0; i < 3; ++i)
        claims.push_back({ { kGpu, 1 }, { kNic, 0 } }); // a zero count is no request: the same shape
    claims.push_back({ { kGpu, 8 } });
    const auto all = typicalClaims(claims, 100);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].shape, (DeviceCounts { { kGpu, 1 } }));
    EXPECT_EQ(all[0].count, 9);
    EXPECT_NEAR(all[0].probability, 0.9, 1e-12);
    const auto popular = typicalClaims(claims, 90);
    ASSERT_EQ(popular.size(), 1u) << "nine of ten claims already cover 90 %";
    EXPECT_EQ(popular[0].probability, 1.0);
}

// The law: on one class of GPUs, each free or used whole, the measure is the paper's measure in
// devices (x 1000 milli), and the typical claims are the typical pods of the same requests, for
// nodes with CPU enough for every pod.
TEST(ClaimFragmentation, OnWholeGpusItIsThePapersMeasureInDevices)
{
    std::mt19937_64 rng(20231);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<SharePod> pods;
        std::vector<DeviceCounts> claims;
        const int n = 1 + int(rng() % 40);
        for (int i = 0; i < n; ++i) {
            const int32_t gpus = int32_t(rng() % 5) * (rng() % 3 == 0 ? 2 : 1); // 0 to 8
            pods.push_back(fixtures::pod(0, gpus > 0 ? kMilliPerGpu : 0, gpus));
            claims.push_back(gpus > 0 ? DeviceCounts { { kGpu, gpus } } : DeviceCounts {});
        }
        const int percent = 50 + int(rng() % 51);
        const auto typical = typicalClaims(claims, percent);
        const auto typicalP = typicalPods(pods, percent);
        ASSERT_EQ(typical.size(), typicalP.size());
        double pSum = 0;
        for (const auto& m : typical)
            pSum += m.probability;
        EXPECT_NEAR(pSum, 1.0, 1e-9);

        std::vector<int32_t> gpus(size_t(1 + rng() % 8));
        int64_t free = 0;
        for (auto& g : gpus) {
            g = rng() % 2 ? kMilliPerGpu : 0;
            free += g / kMilliPerGpu;
        }
        const ShareNode node = fixtures::node(1 << 30, gpus);
        const auto f = nodeClaimFragment({ { kGpu, free } }, typical);
        const double paper = nodeFragment(node, typicalP);
        EXPECT_NEAR((free > 0 ? f.at(kGpu) : 0.0) * kMilliPerGpu, paper, 1e-6) << "trial " << trial;
    }
}

TEST(ClaimFragmentation, FgdScoresTheFragmentTheClaimLeaves)
{
    // Typical claims of 1, 2, 4 and 8 GPUs (p .4, .3, .2, .1). One GPU taken from a node with 8
    // free leaves 7, which the 8-GPU claim cannot use: F 0 -> 0.7, trunc(100 sigmoid(-0.7)) = 33.
    // Taken from a node with 1 free: F .6 (the 2-, 4- and 8-GPU claims) -> 0, sigmoid(0.6) = 64.
    const std::vector<TypicalClaim> typical { { { { kGpu, 1 } }, 0.4, 4 }, { { { kGpu, 2 } }, 0.3, 3 },
        { { { kGpu, 4 } }, 0.2, 2 }, { { { kGpu, 8 } }, 0.1, 1 } };
    EXPECT_EQ(claimFgdScore({ { kGpu, 8 } }, { { kGpu, 1 } }, typical), 33);
    EXPECT_EQ(claimFgdScore({ { kGpu, 1 } }, { { kGpu, 1 } }, typical), 64);
    EXPECT_EQ(claimFgdScore({ { kGpu, 8 } }, { { kGpu, 8 } }, typical), 50)
        << "nothing stranded before or after";
    // Only the classes the pod asks for count: the NICs' fragment is the same either way.
    EXPECT_EQ(claimFgdScore({ { kGpu, 1 }, { kNic, 3 } }, { { kGpu, 1 } }, typical), 64);
}

TEST(ClaimFragmentation, TheTargetIsTheTypicalClaimsAndTheirClasses)
{
    EXPECT_EQ(claimTargetOf({ { {}, 12 } }), nullptr) << "a workload without devices has no target";
    const auto target = claimTargetOf(
        { { { { kNic, 1 }, { kGpu, 1 } }, 5 }, { { { kGpu, 0 } }, 3 }, { { { kGpu, 2 } }, 2 } }, 100);
    ASSERT_NE(target, nullptr);
    EXPECT_EQ(target->classes, (std::vector<std::string> { kNic, kGpu })) << "sorted";
    ASSERT_EQ(target->typical.size(), 3u);
    EXPECT_EQ(target->typical[0].count, 5);
    EXPECT_EQ(target->typical[1].shape, DeviceCounts {}) << "a count of 0 asks for nothing";
    EXPECT_NEAR(target->typical[1].probability, 0.3, 1e-12);
}

// The score equals the paper's FGD score of a whole-GPU pod on a node whose GPUs are each free
// or used (fgdPlacementScore, whole GPUs taken lowest index first), for any typical workload.
TEST(ClaimFragmentation, FgdScoreIsThePapersOnWholeGpus)
{
    std::mt19937_64 rng(20261206);
    for (int trial = 0; trial < 300; ++trial) {
        std::vector<SharePod> pods;
        std::vector<DeviceCounts> claims;
        const int n = 1 + int(rng() % 30);
        for (int i = 0; i < n; ++i) {
            const int32_t gpus = int32_t(rng() % 5) * (rng() % 3 == 0 ? 2 : 1);
            pods.push_back(fixtures::pod(0, gpus > 0 ? kMilliPerGpu : 0, gpus));
            claims.push_back(gpus > 0 ? DeviceCounts { { kGpu, gpus } } : DeviceCounts {});
        }
        const auto typical = typicalClaims(claims, 95);
        const auto typicalP = typicalPods(pods, 95);
        std::vector<int32_t> gpus(size_t(1 + rng() % 8));
        int64_t free = 0;
        for (auto& g : gpus) {
            g = rng() % 3 ? kMilliPerGpu : 0;
            free += g / kMilliPerGpu;
        }
        const int32_t want = 1 + int32_t(rng() % 8);
        if (want > free)
            continue;
        const ShareNode node = fixtures::node(1 << 30, gpus);
        const int64_t paper = fgdPlacementScore(
            node, fixtures::pod(0, kMilliPerGpu, want), -1, typicalP, nodeFragment(node, typicalP));
        EXPECT_EQ(claimFgdScore({ { kGpu, free } }, { { kGpu, want } }, typical), paper) << "trial " << trial;
    }
}

} // namespace claim_fragmentation_test
} // namespace drasim::gpushare
