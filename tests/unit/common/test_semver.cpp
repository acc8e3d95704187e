// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/common/semver.h"

using drasim::SemVer;

namespace {

SemVer v(const char* s, bool normalize = false)
{
    std::string error;
    auto r = SemVer::parse(s, normalize, &error);
    EXPECT_TRUE(r.has_value()) << s << ": " << error;
    return r.value_or(SemVer {});
}

TEST(SemVer, StrictParse)
{
    const SemVer a = v("1.2.3-alpha.1+build.5");
    EXPECT_EQ(a.major, 1u);
    EXPECT_EQ(a.minor, 2u);
    EXPECT_EQ(a.patch, 3u);
    EXPECT_EQ(a.pre, (std::vector<std::string> { "alpha", "1" }));
    EXPECT_EQ(a.build, (std::vector<std::string> { "build", "5" }));
    EXPECT_EQ(a.toString(), "1.2.3-alpha.1+build.5");
    EXPECT_EQ(v("550.54.15").toString(), "550.54.15");
}

struct Bad
{
    const char* text;
    bool normalize;
    const char* message;
};

class SemVerErrorTest : public ::testing::TestWithParam<Bad>
{
};

TEST_P(SemVerErrorTest, Rejects)
{
    std::string error;
    EXPECT_FALSE(SemVer::parse(GetParam().text, GetParam().normalize, &error).has_value()) << GetParam().text;
    EXPECT_EQ(error, GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(SemVer, SemVerErrorTest,
    ::testing::Values(Bad { "", false, "Version string empty" },
        Bad { "1.2", false, "No Major.Minor.Patch elements found" },
        Bad { "v1.2.3", false, "Invalid character(s) found in major number \"v1\"" },
        Bad { "01.2.3", false, "Major number must not contain leading zeroes \"01\"" },
        Bad { "1.02.3", false, "Minor number must not contain leading zeroes \"02\"" },
        Bad { "1.2.03", false, "Patch number must not contain leading zeroes \"03\"" },
        Bad { "1.2.x", false, "Invalid character(s) found in patch number \"x\"" },
        Bad { "1.2.3-", false, "Prerelease is empty" },
        Bad { "1.2.3-01", false, "Numeric PreRelease version must not contain leading zeroes \"01\"" },
        Bad { "1.2.3-a_b", false, "Invalid character(s) found in prerelease \"a_b\"" },
        Bad { "1.2.3+", false, "Build meta data is empty" },
        Bad { "1.2.3+a!", false, "Invalid character(s) found in build meta data \"a!\"" },
        Bad { "1.2-beta", true, "short version cannot contain PreRelease/Build meta data" },
        Bad { "1..3", false, "strconv.ParseUint: parsing \"\": invalid syntax" }));

TEST(SemVer, NormalizingParse)
{
    EXPECT_EQ(v("v1.2.3", true).toString(), "1.2.3");
    EXPECT_EQ(v("1", true).toString(), "1.0.0");
    EXPECT_EQ(v("v1.2", true).toString(), "1.2.0");
    EXPECT_EQ(v("01.002.0003", true).toString(), "1.2.3");
    EXPECT_EQ(v("1.0.0-rc.1", true).toString(), "1.0.0-rc.1");
}

TEST(SemVer, PrecedenceFollowsSemVer2)
{
    // 1.0.0-alpha < 1.0.0-alpha.1 < 1.0.0-alpha.beta < 1.0.0-beta < 1.0.0-beta.2 < 1.0.0-beta.11
    //   < 1.0.0-rc.1 < 1.0.0 (semver.org §11)
    const char* order[] = { "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
        "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "2.0.0" };
    for (size_t i = 0; i + 1 < std::size(order); ++i) {
        EXPECT_EQ(v(order[i]).compare(v(order[i + 1])), -1) << order[i] << " < " << order[i + 1];
        EXPECT_EQ(v(order[i + 1]).compare(v(order[i])), 1);
    }
    EXPECT_TRUE(v("1.2.3+a") == v("1.2.3+b")); // build metadata ignored
    EXPECT_EQ(v("10.0.0").compare(v("9.0.0")), 1);
}

} // namespace
