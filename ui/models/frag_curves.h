// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include <QList>
#include <QPointF>
#include <QString>

#include "core/fragstudy/frag_study.h"

namespace drasim::ui {

/// Which value of a fragmentation study a chart draws (both % of the GPU capacity).
enum class FragMeasure { Allocated, Fragmentation };

/// One policy's line for a chart: (arrived %, median across seeds) and the quartiles around it,
/// at the same x values.
struct FragCurve
{
    QString policy; ///< as written on the command line ("fgd")
    QList<QPointF> median;
    QList<QPointF> lowerQuartile;
    QList<QPointF> upperQuartile;
};

/// The curves of `result` from `fromPercent` to `toPercent` arrived (both included), one per
/// policy in the study's order; an arrived % that no run reached has no point.
std::vector<FragCurve> fragCurves(
    const fragstudy::StudyResult& result, FragMeasure measure, int fromPercent = 75, int toPercent = 130);

} // namespace drasim::ui
