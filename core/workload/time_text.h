// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/common/duration_text.h" // durations: parseDurationSeconds

namespace drasim::workload {

/// Parses a rate "<number>/<unit>" with unit s, m, h or d ("12/h" = 12 per hour) into events per
/// second. A bare number is rejected on purpose: "10" could mean per second or per hour.
std::optional<double> parseRatePerSecond(std::string_view text, std::string* error = nullptr);

} // namespace drasim::workload
