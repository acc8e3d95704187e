// SPDX-License-Identifier: Apache-2.0
// The allocation timestamp (formatRfc3339) writes the date itself rather than through gmtime_r and
// strftime: for any time it must give the C library's text.
#include <ctime>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "core/scheduler/share_id.h"

using namespace drasim;

namespace {

std::string libraryText(double seconds)
{
    const std::time_t t = std::time_t(seconds);
    std::tm tm {};
    gmtime_r(&t, &tm);
    char buf[48];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace

TEST(Rfc3339Laws, EveryTimeReadsAsTheLibraryWritesIt)
{
    std::mt19937_64 rng(20261206);
    // Years 1 to 9999 and a little beyond, fractions included (they are cut, as a time_t cast does).
    std::uniform_real_distribution<double> any(-62135596800.0, 253402300799.0 + 86400.0 * 800);
    for (int i = 0; i < 200000; ++i) {
        const double s = any(rng);
        ASSERT_EQ(scheduler::formatRfc3339(s), libraryText(s)) << "at " << s;
    }
}

TEST(Rfc3339Laws, DayAndLeapYearEdges)
{
    const double edges[] = { 0, -1, -0.5, 86399, 86400, 951782400 /* 2000-02-29 */, 951868800,
        4107456000 /* 2100-02-28 */, 4107542400, 1735689599.9, 1735689600, -2208988800 /* 1900 */,
        -30610224001 /* 999-12-31 */, 253402300799, 253402300800 /* 10000 */ };
    for (double s : edges)
        EXPECT_EQ(scheduler::formatRfc3339(s), libraryText(s)) << "at " << s;
    EXPECT_EQ(scheduler::formatRfc3339(0), "1970-01-01T00:00:00Z");
    EXPECT_EQ(scheduler::formatRfc3339(951782400 + 3723), "2000-02-29T01:02:03Z");
}
