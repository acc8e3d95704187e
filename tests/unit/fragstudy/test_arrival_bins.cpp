// SPDX-License-Identifier: Apache-2.0
// Binning a run's points by arrived load as the experiment's analysis does.

#include <gtest/gtest.h>

#include "core/fragstudy/arrival_bins.h"

namespace drasim::fragstudy {
namespace bins_test {

TEST(ArrivalBins, MeanPerRoundedArrivedPercentWithNeighboursForEmptyBins)
{
    // 10 GPUs: 100 milli = 1 %. Arrived 1.5 % rounds to 2 (half to even), 2.5 % to 2, 4.4 % to 4.
    const std::vector<ReplayPoint> points {
        { 150, 100, 0 }, // x = 2, allocated 1 %
        { 250, 200, 0 }, // x = 2, allocated 2 %
        { 440, 400, 0 }, // x = 4, allocated 4 %
    };
    const RunCurves curves = binByArrival(points, 10, 6);
    ASSERT_EQ(curves.allocatedPercent.size(), 7u);
    EXPECT_FALSE(curves.allocatedPercent[0]);
    EXPECT_EQ(curves.allocatedPercent[1], 1.5); // no point at 1: the points at 0..2
    EXPECT_EQ(curves.allocatedPercent[2], 1.5);
    EXPECT_EQ(curves.allocatedPercent[3], 2.33); // none at 3: 2..4, (1 + 2 + 4) / 3 rounded
    EXPECT_EQ(curves.allocatedPercent[4], 4.0);
    EXPECT_EQ(curves.allocatedPercent[5], 4.0);
    EXPECT_FALSE(curves.allocatedPercent[6]);
}

TEST(ArrivalBins, FragmentationAsShareOfCapacityAndOfFreeGpu)
{
    // 10 GPUs, 4 allocated, fragment 1,500 milli: 15 % of capacity, 25 % of the free 6,000.
    const RunCurves curves = binByArrival({ { 5000, 4000, 1500 } }, 10, 50);
    EXPECT_EQ(curves.fragmentPercent[50], 15.0);
    EXPECT_EQ(curves.fragmentRatePercent[50], 25.0);
}

TEST(ArrivalBins, RoundsHalfToEven)
{
    // 0.125 and 0.375 are exact in binary: Python's round(x, 2) gives 0.12 and 0.38.
    EXPECT_EQ(roundTo2(0.125), 0.12);
    EXPECT_EQ(roundTo2(0.375), 0.38);
    EXPECT_EQ(roundTo2(12.3449), 12.34);
}

} // namespace bins_test
} // namespace drasim::fragstudy
