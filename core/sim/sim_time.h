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

/// Parses a finite duration in the grammar of core/common/duration_text.h ("90s", "15m", "1h30m",
/// "2d", "500ms", a bare number of seconds), rounded to the nearest millisecond. Returns false
/// (leaving out untouched, and setting `error` when given) when the text is not one.
bool parseDuration(const std::string& text, SimTime& out, std::string* error = nullptr);

/// Prints a duration in the largest exact units ("1d2h", "90s" → "1m30s", "0s").
std::string formatDuration(SimTime t);

} // namespace drasim::sim
