// SPDX-License-Identifier: Apache-2.0
#pragma once

// CEL timestamps and durations (cel.md §6): Go time semantics as cel-go uses them. Timestamps are
// limited to years 0001-9999, durations to the int64 nanosecond range (about +-292 years).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace drasim::cel {

constexpr int64_t kNanosPerSecond = 1000000000;
/// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in Unix seconds.
constexpr int64_t kMinTimestampSeconds = -62135596800;
constexpr int64_t kMaxTimestampSeconds = 253402300799;

/// Go time.ParseDuration: "1h30m", "-1.5s", "300ms", "2us"/"2µs", "0". No days.
std::optional<int64_t> parseDuration(std::string_view text, std::string* error);
/// Go's Duration.String()-like seconds form used by CEL string(duration): "60.001s", "-1.5s", "0s".
std::string formatDuration(int64_t nanos);

/// RFC 3339 ("2024-01-02T03:04:05.123Z", offsets "+01:00"); seconds and nanos since the epoch.
bool parseTimestamp(std::string_view text, int64_t* seconds, int32_t* nanos, std::string* error);
/// RFC 3339 in UTC with the shortest fractional seconds, like Go's time.RFC3339Nano.
std::string formatTimestamp(int64_t seconds, int32_t nanos);

/// Broken-down civil time at a UTC offset.
struct CivilTime
{
    int64_t year;
    int month; ///< 1-12
    int day; ///< 1-31
    int dayOfYear; ///< 0-based
    int dayOfWeek; ///< 0 = Sunday
    int hour, minute, second;
};
CivilTime civilFromUnix(int64_t seconds, int64_t offsetSeconds);

/// Time zone argument of the timestamp accessors: "UTC", "+05:30", "-08:00", or an IANA name
/// looked up in the system zoneinfo database. Returns the UTC offset in effect at `atSeconds`.
std::optional<int64_t> zoneOffset(std::string_view zone, int64_t atSeconds, std::string* error);

} // namespace drasim::cel
