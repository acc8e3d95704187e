// SPDX-License-Identifier: Apache-2.0
#include "core/sim/time_text.h"

#include <cmath>

namespace drasim::sim {

std::string timeText(SimTime t)
{
    // Truncated, not rounded, so an event never reads as later than the time it happened.
    return formatDuration(t >= kSecond ? t / kSecond * kSecond : t);
}

std::string exactTimeText(SimTime t)
{
    return formatDuration(t);
}

std::string durationText(double seconds)
{
    if (!(seconds > 0)) // zero, negative or NaN
        return "0s";
    if (std::isinf(seconds)) // the word duration_text.h reads for it
        return "forever";
    // Milliseconds matter only to a wait shorter than a second; "5h37m30s812ms" would be noise.
    const SimTime shown = seconds >= 1 ? std::llround(seconds) * kSecond : fromSeconds(seconds);
    return formatDuration(shown);
}

} // namespace drasim::sim
