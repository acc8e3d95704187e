// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>

namespace drasim::sim {

/// Simulated time in milliseconds since the start of the run. Integer so that event order and
/// every printed time are exact and identical across machines (no floating-point drift).
using SimTime = int64_t;

constexpr SimTime kMillisecond = 1;
constexpr SimTime kSecond = 1000;
constexpr SimTime kMinute = 60 * kSecond;
constexpr SimTime kHour = 60 * kMinute;
constexpr SimTime kDay = 24 * kHour;

inline double toSeconds(SimTime t)
{
    return double(t) / double(kSecond);
}
inline SimTime fromSeconds(double s)
{
    return SimTime(s * double(kSecond) + (s >= 0 ? 0.5 : -0.5));
}

/// Parses a duration such as "90s", "15m", "1h30m", "2d", "500ms" or a bare number of seconds.
/// Returns false (and leaves out untouched) when the text is not a duration.
bool parseDuration(const std::string& text, SimTime& out);

/// Prints a duration in the largest exact units ("1d2h", "90s" → "1m30s", "0s").
std::string formatDuration(SimTime t);

} // namespace drasim::sim
