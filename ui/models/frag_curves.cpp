// SPDX-License-Identifier: Apache-2.0
#include "ui/models/frag_curves.h"

#include <algorithm>

#include "core/gpushare/share_policies.h"

namespace drasim::ui {

std::vector<FragCurve> fragCurves(
    const fragstudy::StudyResult& result, FragMeasure measure, int fromPercent, int toPercent)
{
    std::vector<FragCurve> curves;
    for (const fragstudy::PolicyCurves& p : result.policies) {
        const std::vector<fragstudy::SeedStats>& values
            = measure == FragMeasure::Allocated ? p.allocated : p.fragment;
        FragCurve curve;
        curve.policy = QString::fromUtf8(gpushare::sharePolicyInfo(p.policy).name);
        const int last = std::min(toPercent, int(values.size()) - 1);
        for (int x = std::max(0, fromPercent); x <= last; ++x) {
            const fragstudy::SeedStats& s = values[size_t(x)];
            if (s.seeds == 0)
                continue; // no run reached this arrived %
            curve.median << QPointF(x, s.median);
            curve.lowerQuartile << QPointF(x, s.lowerQuartile);
            curve.upperQuartile << QPointF(x, s.upperQuartile);
        }
        curves.push_back(std::move(curve));
    }
    return curves;
}

} // namespace drasim::ui
