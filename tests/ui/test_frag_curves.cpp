// SPDX-License-Identifier: Apache-2.0
// A fragmentation study's result as chart points: one curve per policy in the study's order,
// median and quartiles at each arrived % of the range, nothing where no run arrived.
#include <gtest/gtest.h>

#include "ui/models/frag_curves.h"

// A namespace of its own: a unity build puts this file beside tests that name planner::StudyResult.
namespace frag_curves_test {

using drasim::fragstudy::PolicyCurves;
using drasim::fragstudy::SeedStats;
using drasim::fragstudy::StudyResult;
using drasim::gpushare::SharePolicy;
using drasim::ui::fragCurves;
using drasim::ui::FragMeasure;

// Allocated at x: median x/2 (quartiles +-1), fragmentation 3; runs reach `reached` % arrived.
PolicyCurves policyCurves(SharePolicy policy, int reached)
{
    PolicyCurves p { policy, {}, {}, {}, 0, 0 };
    for (int x = 0; x <= 130; ++x) {
        const size_t seeds = x <= reached ? 2 : 0;
        p.allocated.push_back(SeedStats { seeds, x / 2.0, x / 2.0, x / 2.0 - 1, x / 2.0 + 1 });
        p.fragment.push_back(SeedStats { seeds, 3, 3, 2.5, 3.5 });
        p.fragmentRate.push_back(SeedStats { seeds, 9, 9, 9, 9 });
    }
    return p;
}

StudyResult twoPolicies()
{
    StudyResult result;
    result.policies.push_back(policyCurves(SharePolicy::Fgd, 130));
    result.policies.push_back(policyCurves(SharePolicy::Random, 120));
    return result;
}

TEST(FragCurves, OneCurvePerPolicyInTheStudysOrderNamedAsOnTheCommandLine)
{
    const auto curves = fragCurves(twoPolicies(), FragMeasure::Allocated);
    ASSERT_EQ(curves.size(), 2u);
    EXPECT_EQ(curves[0].policy, QStringLiteral("fgd"));
    EXPECT_EQ(curves[1].policy, QStringLiteral("random"));
}

TEST(FragCurves, MedianAndQuartilesAtEachArrivedPercentOfTheRange)
{
    const auto curves = fragCurves(twoPolicies(), FragMeasure::Allocated, 75, 130);
    const auto& fgd = curves[0];
    ASSERT_EQ(fgd.median.size(), 56); // 75..130
    EXPECT_EQ(fgd.median.front(), QPointF(75, 37.5));
    EXPECT_EQ(fgd.lowerQuartile.front(), QPointF(75, 36.5));
    EXPECT_EQ(fgd.upperQuartile.front(), QPointF(75, 38.5));
    EXPECT_EQ(fgd.median.back(), QPointF(130, 65));
}

TEST(FragCurves, NoPointWhereNoRunArrived)
{
    const auto curves = fragCurves(twoPolicies(), FragMeasure::Allocated, 75, 130);
    const auto& random = curves[1];
    ASSERT_EQ(random.median.size(), 46); // 75..120
    EXPECT_EQ(random.median.back().x(), 120);
    EXPECT_EQ(random.upperQuartile.size(), random.median.size());
}

TEST(FragCurves, FragmentationMeasureAndARangeBeyondTheBinsIsCut)
{
    const auto curves = fragCurves(twoPolicies(), FragMeasure::Fragmentation, 100, 500);
    ASSERT_EQ(curves[0].median.size(), 31); // 100..130
    EXPECT_EQ(curves[0].median.front(), QPointF(100, 3));
    EXPECT_EQ(curves[0].lowerQuartile.front(), QPointF(100, 2.5));
}

} // namespace frag_curves_test
