// SPDX-License-Identifier: Apache-2.0
#include "core/common/duration_text.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace drasim {

namespace {

std::string forms(Forever foreverRule)
{
    return foreverRule == Forever::Allowed
        ? "expected seconds or a duration like 250ms, 90s, 15m, 2h, 1d, 1h30m, or forever"
        : "expected seconds or a duration like 250ms, 90s, 15m, 2h, 1d or 1h30m";
}

/// Seconds per unit; 0 for an unknown unit.
double unitSeconds(std::string_view unit)
{
    if (unit == "ns")
        return 1e-9;
    if (unit == "us")
        return 1e-6;
    if (unit == "ms")
        return 1e-3;
    if (unit == "s")
        return 1;
    if (unit == "m")
        return 60;
    if (unit == "h")
        return 3600;
    if (unit == "d")
        return 86400;
    return 0;
}

bool isNumberChar(char c)
{
    return (c >= '0' && c <= '9') || c == '.';
}

} // namespace

std::string_view trimBlanks(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

bool parseDecimal(std::string_view text, size_t& i, double& out)
{
    size_t j = i;
    while (j < text.size() && isNumberChar(text[j]))
        ++j;
    if (j == i)
        return false;
    // from_chars (unlike strtod) ignores the locale; it stops at a second '.', which then fails.
    const auto res = std::from_chars(text.data() + i, text.data() + j, out);
    if (res.ec != std::errc() || res.ptr != text.data() + j)
        return false;
    i = j;
    return true;
}

std::optional<double> parseDurationSeconds(std::string_view text, std::string* error, Forever foreverRule)
{
    text = trimBlanks(text);
    auto fail = [&](const std::string& why) -> std::optional<double> {
        if (error)
            *error = "invalid duration \"" + std::string(text) + "\": " + why;
        return std::nullopt;
    };
    if (text == "forever" || text == "inf" || text == "infinity") {
        if (foreverRule == Forever::Rejected)
            return fail("must be finite here");
        return std::numeric_limits<double>::infinity();
    }
    if (text.empty()) {
        if (error)
            *error = "empty duration; " + forms(foreverRule);
        return std::nullopt;
    }
    if (text.front() == '-')
        return fail("must not be negative");
    size_t i = 0;
    double value = 0;
    if (!parseDecimal(text, i, value))
        return fail(forms(foreverRule));
    if (i == text.size())
        return value; // a bare number: seconds
    double total = 0;
    while (true) {
        const size_t unitStart = i;
        while (i < text.size() && !isNumberChar(text[i]))
            ++i;
        const std::string_view unit = text.substr(unitStart, i - unitStart);
        const double scale = unitSeconds(unit);
        if (scale == 0)
            return fail("unknown unit \"" + std::string(unit) + "\"; " + forms(foreverRule));
        total += value * scale;
        if (i == text.size())
            break;
        // Another part must follow: a number, then its unit ("1h30" lacks the unit).
        if (!parseDecimal(text, i, value) || i == text.size())
            return fail(forms(foreverRule));
    }
    if (!std::isfinite(total))
        return fail("out of range");
    return total;
}

std::optional<int64_t> parseDurationMillis(std::string_view text, std::string* error)
{
    const auto seconds = parseDurationSeconds(text, error, Forever::Rejected);
    if (!seconds)
        return std::nullopt;
    const double ms = *seconds * 1000.0;
    if (ms >= 9.2e18) {
        if (error)
            *error = "invalid duration \"" + std::string(trimBlanks(text)) + "\": out of range";
        return std::nullopt;
    }
    return int64_t(std::llround(ms));
}

} // namespace drasim
