// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/workload/time_text.h"

using namespace drasim::workload;

TEST(TimeText, Rates)
{
    EXPECT_DOUBLE_EQ(*parseRatePerSecond("12/h"), 12.0 / 3600);
    EXPECT_DOUBLE_EQ(*parseRatePerSecond("3/s"), 3.0);
    EXPECT_DOUBLE_EQ(*parseRatePerSecond("0.5 / m"), 0.5 / 60);
    EXPECT_DOUBLE_EQ(*parseRatePerSecond("24/d"), 24.0 / 86400);
    std::string err;
    EXPECT_FALSE(parseRatePerSecond("10", &err));
    EXPECT_EQ(err, "invalid rate \"10\": expected <number>/<s|m|h|d>, e.g. 12/h");
    EXPECT_FALSE(parseRatePerSecond("10/w", &err));
    EXPECT_EQ(err, "invalid rate \"10/w\": unit after '/' must be s, m, h or d");
    EXPECT_FALSE(parseRatePerSecond("-1/h", &err));
    EXPECT_EQ(err, "invalid rate \"-1/h\": expected a non-negative number before '/'");
}
