// SPDX-License-Identifier: Apache-2.0
// The fragmentation measure and the typical pods against the FGD authors' own unit vectors
// (pkg/utils/frag_test.go) and the paper's worked example, and the laws that bound them.

#include <gtest/gtest.h>

#include "core/gpushare/fragmentation.h"
#include "tests/unit/gpushare/share_fixtures.h"

namespace drasim::gpushare {
namespace fragmentation_test {

using fixtures::node;
using fixtures::pod;

TEST(Fragmentation, AuthorsVectorCpuShortCountsEveryFreeGpu)
{
    // <6000m, 465 milli x1> at p = 0.0933 on a node with 1000m free: the CPU is short, so all
    // 2,700 free milli are fragment: F = 251.91.
    const std::vector<TypicalPod> typical { { pod(6000, 465, 1), 0.0933, 1 } };
    const ShareNode n = node(1000, { 200, 1000, 1000, 500 });
    EXPECT_EQ(podFragment(n, typical[0].shape), 2700);
    EXPECT_NEAR(nodeFragment(n, typical), 251.91, 1e-9);
}

TEST(Fragmentation, WorkedExampleOfThePaper)
{
    // A <4000m, 500 x1> p .5, B <8000m, 1000 x1> p .3, C <2000m CPU-only> p .2 on a node with
    // 32 cores and GPUs [1000, 1000, 1000, 300]: 150 + 90 + 660 = 900.
    const std::vector<TypicalPod> typical { { pod(4000, 500, 1), 0.5, 5 }, { pod(8000, 1000, 1), 0.3, 3 },
        { pod(2000, 0, 0), 0.2, 2 } };
    const ShareNode n = node(32000, { 1000, 1000, 1000, 300 });
    EXPECT_EQ(podFragment(n, typical[0].shape), 300);
    EXPECT_EQ(podFragment(n, typical[1].shape), 300);
    EXPECT_EQ(podFragment(n, typical[2].shape), 3300);
    EXPECT_NEAR(nodeFragment(n, typical), 900, 1e-9);
}

TEST(Fragmentation, ModelMismatchAndTooFewGpusCountEverything)
{
    SharePod picky = pod(1000, 500, 1);
    picky.models = 1u << 3; // only model 3
    EXPECT_EQ(podFragment(node(8000, { 600, 400 }, 0), picky), 1000);
    EXPECT_EQ(podFragment(node(8000, { 600, 400 }, 3), picky), 400);
    EXPECT_EQ(podFragment(node(8000, { 1000, 600 }), pod(1000, 1000, 2)), 1600);
    EXPECT_EQ(podFragment(node(8000, {}), pod(1000, 0, 0)), 0);
}

TEST(Fragmentation, NeverMoreThanTheFreeGpuAndZeroWhenNothingIsFree)
{
    const std::vector<TypicalPod> typical { { pod(4000, 500, 1), 0.6, 6 }, { pod(1000, 1000, 2), 0.4, 4 } };
    for (int32_t a = 0; a <= 1000; a += 125)
        for (int32_t b = 0; b <= 1000; b += 250) {
            const ShareNode n = node(a * 8, { a, b });
            const double f = nodeFragment(n, typical);
            EXPECT_GE(f, 0);
            EXPECT_LE(f, double(a + b) + 1e-9);
            if (a + b == 0) {
                EXPECT_EQ(f, 0);
            }
        }
}

TEST(TypicalPods, KeepsTheCommonestShapesUntilTheThresholdAndRenormalises)
{
    std::vector<SharePod> pods;
    for (int i = 0; i < 60; ++i)
        pods.push_back(pod(1000, 500, 1));
    for (int i = 0; i < 30; ++i)
        pods.push_back(pod(2000, 1000, 1));
    for (int i = 0; i < 6; ++i)
        pods.push_back(pod(4000, 0, 0));
    for (int i = 0; i < 4; ++i)
        pods.push_back(pod(8000, 1000, 8));
    pods[0].memoryMiB = 512; // memory is not part of the key
    // 60 + 30 = 90 < 95, so the third shape is kept and the running count reaches 96.
    const std::vector<TypicalPod> typical = typicalPods(pods, 95);
    ASSERT_EQ(typical.size(), 3u);
    EXPECT_EQ(typical[0].count, 60);
    EXPECT_EQ(typical[1].count, 30);
    EXPECT_EQ(typical[2].shape.gpuCount, 0);
    EXPECT_DOUBLE_EQ(typical[0].probability, 60.0 / 96.0);
    double sum = 0;
    for (const TypicalPod& t : typical)
        sum += t.probability;
    EXPECT_NEAR(sum, 1.0, 1e-12);
    EXPECT_EQ(typicalPods(pods, 100).size(), 4u);
    EXPECT_EQ(typicalPods(pods, 50).size(), 1u);
}

} // namespace fragmentation_test
} // namespace drasim::gpushare
