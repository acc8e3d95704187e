// SPDX-License-Identifier: Apache-2.0
#include "ui/models/time_ticks.h"

#include <array>

namespace drasim::ui {

namespace {

using sim::kDay;
using sim::kHour;
using sim::kMinute;

/// Round steps: clock divisions below a day, calendar-like ones above it.
constexpr std::array kSteps { kMinute, 5 * kMinute, 10 * kMinute, 15 * kMinute, 30 * kMinute, kHour,
    2 * kHour, 3 * kHour, 6 * kHour, 12 * kHour, kDay, 2 * kDay, 7 * kDay, 14 * kDay, 30 * kDay, 60 * kDay,
    90 * kDay, 180 * kDay, 365 * kDay };

QString tickLabel(sim::SimTime t, sim::SimTime step)
{
    // Day numbers count from 1, as formatSimTime writes them ("d1 00:00:00" is the start).
    if (t % kDay == 0 && (t > 0 || step >= kDay))
        return QStringLiteral("d%1").arg(t / kDay + 1);
    const sim::SimTime inDay = t % kDay;
    if (inDay % kHour == 0)
        return QStringLiteral("%1h").arg(inDay / kHour);
    return QStringLiteral("%1:%2").arg(inDay / kHour).arg(inDay % kHour / kMinute, 2, 10, QLatin1Char('0'));
}

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
    std::vector<TimeTick> ticks;
    if (end <= 0 || widthPx <= 0)
        return ticks;
    const sim::SimTime step = timeTickStep(end, widthPx, labelPx);
    for (sim::SimTime t = 0; t <= end; t += step)
        ticks.push_back({ t, tickLabel(t, step) });
    return ticks;
}

} // namespace drasim::ui
