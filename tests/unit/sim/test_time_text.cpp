// SPDX-License-Identifier: Apache-2.0
// The words of time every view shares: a time of the run reads as `--time` takes it, a duration
// is rounded to the second once it is one.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "core/sim/time_text.h"

using namespace drasim::sim;

TEST(TimeText, ATimeOfTheRunReadsAsTheCommandLineTakesIt)
{
    EXPECT_EQ(timeText(0), "0s");
    EXPECT_EQ(timeText(14 * kHour), "14h");
    EXPECT_EQ(timeText(kDay + 2 * kHour + 30 * kMinute), "1d2h30m");
    EXPECT_EQ(timeText(14 * kHour + 54 * kSecond + 999), "14h54s"); // a clock does not run ahead
    EXPECT_EQ(timeText(250), "250ms");
    EXPECT_EQ(exactTimeText(14 * kHour + 54 * kSecond + 120), "14h54s120ms");
    // What is printed parses back to the same time (the grammar of core/common/duration_text.h).
    for (SimTime t : { SimTime(0), 14 * kHour + 54 * kSecond + 120, 150 * kDay + 7 }) {
        SimTime back = -1;
        ASSERT_TRUE(parseDuration(exactTimeText(t), back)) << exactTimeText(t);
        EXPECT_EQ(back, t);
        ASSERT_TRUE(parseDuration(timeText(t), back)) << timeText(t);
        EXPECT_EQ(back, t - t % kSecond);
    }
}

TEST(TimeText, ADurationIsRoundedToTheSecondOnceItIsOne)
{
    EXPECT_EQ(durationText(20250.8), "5h37m31s");
    EXPECT_EQ(durationText(1421214.6), "16d10h46m55s");
    EXPECT_EQ(durationText(59.5), "1m");
    EXPECT_EQ(durationText(0.4), "400ms");
    EXPECT_EQ(durationText(0), "0s");
    EXPECT_EQ(durationText(-3), "0s");
    EXPECT_EQ(durationText(std::nan("")), "0s");
    EXPECT_EQ(durationText(std::numeric_limits<double>::infinity()), "forever");
}
