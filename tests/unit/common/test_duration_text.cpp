// SPDX-License-Identifier: Apache-2.0
// The one duration grammar (core/common/duration_text.h), as a table: what is accepted and the
// seconds it means, what is refused and the exact message.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "core/common/duration_text.h"

using namespace drasim;

namespace {

constexpr double kForever = std::numeric_limits<double>::infinity();

struct Accepted
{
    const char* text;
    double seconds;
};

const Accepted kAccepted[] = {
    // A bare number is seconds.
    { "90", 90 },
    { "0", 0 },
    { "1.5", 1.5 },
    { ".5", 0.5 },
    { "5.", 5 },
    { "007", 7 },
    // One part per unit.
    { "250ns", 250e-9 },
    { "250us", 250e-6 },
    { "250ms", 0.25 },
    { "90s", 90 },
    { "15m", 900 },
    { "2h", 7200 },
    { "1d", 86400 },
    // Parts add up, in any order, with decimals.
    { "1h30m", 5400 },
    { "1.5h", 5400 },
    { "2m10s", 130 },
    { "1d2h", 93600 },
    { "30m1h", 5400 },
    { "1s500ms", 1.5 },
    // Blanks around the value, not inside.
    { " 2m10s ", 130 },
    { "\t90\t", 90 },
    // Forever and its synonyms.
    { "forever", kForever },
    { "inf", kForever },
    { " infinity ", kForever },
};

struct Refused
{
    const char* text;
    const char* message;
};

#define FORMS "expected seconds or a duration like 250ms, 90s, 15m, 2h, 1d, 1h30m, or forever"

const Refused kRefused[] = {
    { "", "empty duration; " FORMS },
    { "  ", "empty duration; " FORMS },
    { "-5s", "invalid duration \"-5s\": must not be negative" },
    { "-1", "invalid duration \"-1\": must not be negative" },
    { "5 minutes", "invalid duration \"5 minutes\": unknown unit \" minutes\"; " FORMS },
    { "5 parsecs", "invalid duration \"5 parsecs\": unknown unit \" parsecs\"; " FORMS },
    { "2w", "invalid duration \"2w\": unknown unit \"w\"; " FORMS },
    { "1H", "invalid duration \"1H\": unknown unit \"H\"; " FORMS },
    { "h", "invalid duration \"h\": " FORMS },
    { "1h30", "invalid duration \"1h30\": " FORMS },
    { "1.2.3s", "invalid duration \"1.2.3s\": " FORMS },
    { ".", "invalid duration \".\": " FORMS },
    { "+5", "invalid duration \"+5\": " FORMS },
    { "1e3", "invalid duration \"1e3\": unknown unit \"e\"; " FORMS },
    { "0x10", "invalid duration \"0x10\": unknown unit \"x\"; " FORMS },
    { "soon", "invalid duration \"soon\": " FORMS },
    { "never", "invalid duration \"never\": " FORMS },
};

} // namespace

TEST(DurationText, AcceptedFormsAndTheirSeconds)
{
    for (const auto& a : kAccepted) {
        SCOPED_TRACE(a.text);
        std::string error;
        const auto v = parseDurationSeconds(a.text, &error);
        ASSERT_TRUE(v.has_value()) << error;
        if (std::isinf(a.seconds))
            EXPECT_TRUE(std::isinf(*v) && *v > 0);
        else
            EXPECT_DOUBLE_EQ(*v, a.seconds);
        EXPECT_EQ(error, "");
    }
}

TEST(DurationText, RefusedFormsAndTheirMessages)
{
    for (const auto& r : kRefused) {
        SCOPED_TRACE(r.text);
        std::string error;
        EXPECT_FALSE(parseDurationSeconds(r.text, &error).has_value());
        EXPECT_EQ(error, r.message);
    }
}

TEST(DurationText, ForeverCanBeRefused)
{
    std::string error;
    EXPECT_FALSE(parseDurationSeconds("forever", &error, Forever::Rejected));
    EXPECT_EQ(error, "invalid duration \"forever\": must be finite here");
    EXPECT_FALSE(parseDurationSeconds("5 min", &error, Forever::Rejected));
    EXPECT_EQ(error,
        "invalid duration \"5 min\": unknown unit \" min\"; expected seconds or a duration like 250ms, 90s, "
        "15m, "
        "2h, 1d or 1h30m");
    EXPECT_EQ(parseDurationSeconds("1h", &error, Forever::Rejected), 3600);
}

TEST(DurationText, HugeNumbersAreRefusedNotInfinite)
{
    const std::string digits(400, '9');
    std::string error;
    EXPECT_FALSE(parseDurationSeconds(digits, &error));
    EXPECT_FALSE(parseDurationSeconds(digits + "d", &error));
    EXPECT_FALSE(error.empty());
}

// Law over generated inputs: writing d days, h hours, m minutes and s seconds as parts in any
// order reads back as their sum, and a bare number reads back as itself.
TEST(DurationText, PartsAddUpLaw)
{
    uint32_t state = 12345;
    auto next = [&state](uint32_t n) {
        state = state * 1664525u + 1013904223u;
        return (state >> 8) % n;
    };
    for (int round = 0; round < 2000; ++round) {
        const uint32_t d = next(10), h = next(24), m = next(60), s = next(60), ms = next(1000);
        const std::pair<std::string, double> parts[] = { { std::to_string(d) + "d", d * 86400.0 },
            { std::to_string(h) + "h", h * 3600.0 }, { std::to_string(m) + "m", m * 60.0 },
            { std::to_string(s) + "s", double(s) }, { std::to_string(ms) + "ms", ms / 1000.0 } };
        std::string text;
        double expected = 0;
        const uint32_t first = next(5);
        for (uint32_t k = 0; k < 5; ++k) {
            if (next(3) == 0 && !(k == 4 && text.empty()))
                continue;
            const auto& p = parts[(first + k) % 5];
            text += p.first;
            expected += p.second;
        }
        SCOPED_TRACE(text);
        const auto v = parseDurationSeconds(text);
        ASSERT_TRUE(v.has_value());
        EXPECT_NEAR(*v, expected, 1e-9);
        EXPECT_EQ(parseDurationSeconds(std::to_string(ms)), double(ms));
    }
}

TEST(DurationText, DecimalReader)
{
    size_t i = 2;
    double v = 0;
    EXPECT_TRUE(parseDecimal("x=12.5/h", i, v));
    EXPECT_EQ(i, 6u);
    EXPECT_EQ(v, 12.5);
    i = 0;
    EXPECT_FALSE(parseDecimal("-1", i, v));
    EXPECT_EQ(i, 0u);
    EXPECT_EQ(trimBlanks(" \t a b \t"), "a b");
}
