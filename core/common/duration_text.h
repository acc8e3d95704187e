// SPDX-License-Identifier: Apache-2.0
// The one way drasim reads a duration, in every document and column: Scenario fields, workload
// specs, trace columns, Kubernetes annotations and distribution arguments.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace drasim {

/// Whether "forever" (and its synonyms) is a valid answer where a duration is read.
enum class Forever { Allowed, Rejected };

/// Parses a duration into seconds. The grammar:
///
///   duration = blanks ( "forever" | "inf" | "infinity" | number | part { part } ) blanks
///   part     = number unit
///   unit     = "ns" | "us" | "ms" | "s" | "m" | "h" | "d"
///   number   = digits [ "." [ digits ] ] | "." digits        (no sign, no exponent)
///   blanks   = { " " | "\t" }
///
/// A bare number is seconds ("90", "1.5"); parts add up ("1h30m", "1.5h", "2m10s"), as Go's
/// time.ParseDuration reads them, plus days. Negative durations do not exist; "forever" is
/// +infinity where allowed. On failure returns nullopt and sets `error` to one line naming the
/// text and the accepted forms, e.g.
///   invalid duration "5 min": unknown unit " min"; expected seconds or a duration like 250ms, 90s,
///   15m, 2h, 1d, 1h30m, or forever
std::optional<double> parseDurationSeconds(
    std::string_view text, std::string* error = nullptr, Forever foreverRule = Forever::Allowed);

/// The same grammar, finite only, rounded to the nearest millisecond (the simulator's clock);
/// "out of range" beyond what an int64 of milliseconds holds.
std::optional<int64_t> parseDurationMillis(std::string_view text, std::string* error = nullptr);

/// `text` without the spaces and tabs around it.
std::string_view trimBlanks(std::string_view text);

/// Reads an unsigned decimal number (the `number` rule above) at text[i]; on success advances i
/// past it. Locale-independent.
bool parseDecimal(std::string_view text, size_t& i, double& out);

} // namespace drasim
