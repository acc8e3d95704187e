// SPDX-License-Identifier: Apache-2.0
// RFC 3339 date-times as Kubernetes writes them (metav1.Time: "2024-01-02T03:04:05Z") and as Go's
// time.Parse(time.RFC3339, ...) reads them: fractional seconds and "+01:00" offsets accepted. The
// one parser the manifests (status.startTime) and CEL timestamps share.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace drasim {

/// Days from 1970-01-01 to the given proleptic Gregorian date (month 1-12, day 1-31).
int64_t daysFromCivil(int64_t year, int month, int day);

/// Parses "YYYY-MM-DDTHH:MM:SS[.frac](Z|+hh:mm|-hh:mm)" into seconds since the epoch (UTC) and
/// nanoseconds. On failure returns false and sets `error` (when given) to
///   parsing time "TEXT" as RFC 3339: <why>
bool parseRfc3339(std::string_view text, int64_t& seconds, int32_t& nanos, std::string* error = nullptr);

} // namespace drasim
