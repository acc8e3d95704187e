// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace drasim::workload {

/// Parses a time span: a plain number of seconds ("90", "1.5"), or one or more number+unit parts
/// in Go time.Duration style plus days ("250ms", "90s", "15m", "2h", "1d", "1h30m", "1.5h"), or
/// "forever" (infinity). Negative values are rejected. On failure returns nullopt and sets
/// `error` to a message naming the accepted forms.
std::optional<double> parseSeconds(std::string_view text, std::string* error = nullptr);

/// Parses a rate "<number>/<unit>" with unit s, m, h or d ("12/h" = 12 per hour) into events per
/// second. A bare number is rejected on purpose: "10" could mean per second or per hour.
std::optional<double> parseRatePerSecond(std::string_view text, std::string* error = nullptr);

} // namespace drasim::workload
