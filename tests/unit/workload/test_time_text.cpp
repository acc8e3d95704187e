// SPDX-License-Identifier: Apache-2.0
#include <cmath>

#include <gtest/gtest.h>

#include "core/workload/time_text.h"

using namespace drasim::workload;

TEST(TimeText, ParsesPlainSecondsAndUnits)
{
    EXPECT_EQ(parseSeconds("90"), 90);
    EXPECT_EQ(parseSeconds("1.5"), 1.5);
    EXPECT_EQ(parseSeconds("250ms"), 0.25);
    EXPECT_EQ(parseSeconds("90s"), 90);
    EXPECT_EQ(parseSeconds("15m"), 900);
    EXPECT_EQ(parseSeconds("2h"), 7200);
    EXPECT_EQ(parseSeconds("1d"), 86400);
    EXPECT_EQ(parseSeconds("1h30m"), 5400);
    EXPECT_EQ(parseSeconds("1.5h"), 5400);
    EXPECT_EQ(parseSeconds(" 2m10s "), 130);
    EXPECT_TRUE(std::isinf(*parseSeconds("forever")));
}

TEST(TimeText, RejectsWithMessages)
{
    std::string err;
    EXPECT_FALSE(parseSeconds("-5s", &err));
    EXPECT_EQ(err, "invalid time \"-5s\": must not be negative");
    EXPECT_FALSE(parseSeconds("5 minutes", &err));
    EXPECT_EQ(err,
        "invalid time \"5 minutes\": unknown unit \" minutes\"; expected seconds or a time like 250ms, 90s, "
        "15m, 2h, 1d, 1h30m, or forever");
    EXPECT_FALSE(parseSeconds("h", &err));
    EXPECT_EQ(err,
        "invalid time \"h\": expected seconds or a time like 250ms, 90s, 15m, 2h, 1d, 1h30m, or forever");
    EXPECT_FALSE(parseSeconds("1h30", &err));
    EXPECT_FALSE(parseSeconds("", &err));
    EXPECT_EQ(err, "empty time; expected seconds or a time like 250ms, 90s, 15m, 2h, 1d, 1h30m, or forever");
}

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
