// SPDX-License-Identifier: Apache-2.0
// The words every view gives a time or a duration, so that the desktop's tables, charts and
// headers read alike and as the command line reads and prints them.
#pragma once

#include <string>

#include "core/sim/sim_time.h"

namespace drasim::sim {

/// A time of the run, as the time since its start in the units `--time`, `drasim explain --at`
/// and a scenario's events read, and as transcripts print event times (formatDuration()): "0s",
/// "14h", "1d2h30m", "14h54s". Shown to the second, as a clock would: the milliseconds a trace's
/// times carry stay only in the first second ("250ms"); exactTimeText() keeps them.
std::string timeText(SimTime t);

/// The same to the millisecond, as transcripts print it ("14h54s120ms").
std::string exactTimeText(SimTime t);

/// A duration measured in seconds (a wait, a job's completion) in the same units, rounded to
/// the second from one second up ("5h37m31s" for 20250.8) and to the millisecond below it
/// ("400ms"); "0s" for zero or less, "forever" for infinity.
std::string durationText(double seconds);

} // namespace drasim::sim
