// SPDX-License-Identifier: Apache-2.0
#include "ui/models/time_ticks.h"

#include <array>

#include "ui/models/time_text.h"

namespace drasim::ui {

namespace {

using sim::kDay;
using sim::kHour;
using sim::kMinute;

/// Round steps: clock divisions below a day, calendar-like ones above it.
constexpr std::array kSteps { kMinute, 5 * kMinute, 10 * kMinute, 15 * kMinute, 30 * kMinute, kHour,
    2 * kHour, 3 * kHour, 6 * kHour, 12 * kHour, kDay, 2 * kDay, 7 * kDay, 14 * kDay, 30 * kDay, 60 * kDay,
    90 * kDay, 180 * kDay, 365 * kDay };

} // namespace

sim::SimTime timeTickStep(sim::SimTime end, double widthPx, double labelPx)
{
    if (end <= 0 || widthPx <= 0)
        return kSteps.back();
    for (sim::SimTime step : kSteps)
        if (double(step) / double(end) * widthPx >= labelPx)
            return step;
    return kSteps.back();
}

std::vector<TimeTick> timeTicks(sim::SimTime end, double widthPx, double labelPx)
{
    return timeTicksBetween(0, end, widthPx, labelPx);
}

std::vector<TimeTick> timeTicksBetween(sim::SimTime from, sim::SimTime to, double widthPx, double labelPx)
{
    std::vector<TimeTick> ticks;
    if (to <= from || widthPx <= 0)
        return ticks;
    const sim::SimTime step = timeTickStep(to - from, widthPx, labelPx);
    // The first multiple of the step at or after `from`, so a zoomed axis keeps round ticks.
    const sim::SimTime first = from <= 0 ? 0 : (from + step - 1) / step * step;
    for (sim::SimTime t = first; t <= to; t += step)
        ticks.push_back({ t, formatSimTime(t) });
    return ticks;
}

} // namespace drasim::ui
