// SPDX-License-Identifier: Apache-2.0
// Times and durations as every view shows them: the words of core/sim/time_text.h ("14h",
// "1d2h30m", "5h37m31s"), the same in tables, headers, tooltips and chart axes.
#pragma once

#include <QString>

#include "core/sim/sim_time.h"

namespace drasim::ui {

/// A time of the run as the time since its start ("14h54s"), as `--time` takes it.
QString formatSimTime(sim::SimTime t);

/// The same to the millisecond ("14h54s120ms"), as `drasim simulate --events` prints it.
QString formatExactSimTime(sim::SimTime t);

/// The same for a time in hours, as the charts draw time ("12h30m" for 12.5), to the second.
QString formatHours(double hours);

/// A duration in seconds ("5h37m31s"); "≥ 5h37m31s" when it is a lower bound (a wait that pods
/// never scheduled could still raise, core/sim/percentiles.h).
QString formatSeconds(double seconds, bool atLeast = false);

} // namespace drasim::ui
