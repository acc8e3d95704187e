// SPDX-License-Identifier: Apache-2.0
#include "ui/models/time_text.h"

#include "core/sim/time_text.h"

namespace drasim::ui {

QString formatSimTime(sim::SimTime t)
{
    return QString::fromStdString(sim::timeText(t));
}

QString formatExactSimTime(sim::SimTime t)
{
    return QString::fromStdString(sim::exactTimeText(t));
}

QString formatHours(double hours)
{
    return formatSeconds(hours * 3600.0);
}

QString formatSeconds(double seconds, bool atLeast)
{
    const QString text = QString::fromStdString(sim::durationText(seconds));
    return atLeast ? QStringLiteral("≥ ") + text : text;
}

} // namespace drasim::ui
