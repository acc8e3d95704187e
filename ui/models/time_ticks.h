// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include <QString>

#include "core/sim/sim_time.h"

namespace drasim::ui {

/// One labelled mark on a time axis.
struct TimeTick
{
    sim::SimTime time = 0;
    QString label;
};

/// Ticks for an axis from 0 to `end` drawn `widthPx` wide, labelled as every view writes a time
/// (formatSimTime(): "7d", "1d6h", "2h15m"). The step is the smallest round one (1, 5, 10, 15, 30 minutes; 1,
/// 2, 3, 6, 12 hours; 1, 2, 7, 14, 30 days...) whose ticks stand at least `labelPx` apart, so the labels of a
/// 150-day run do not run into each other and an hour-long run still gets minutes.
std::vector<TimeTick> timeTicks(sim::SimTime end, double widthPx, double labelPx);

/// The same for an axis showing only `from` to `to` (a zoomed chart): ticks at the multiples of
/// the step chosen for that span, so they stay round.
std::vector<TimeTick> timeTicksBetween(sim::SimTime from, sim::SimTime to, double widthPx, double labelPx);

/// The step timeTicks() picks for the same arguments.
sim::SimTime timeTickStep(sim::SimTime end, double widthPx, double labelPx);

} // namespace drasim::ui
