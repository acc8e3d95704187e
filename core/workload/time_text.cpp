// SPDX-License-Identifier: Apache-2.0
#include "core/workload/time_text.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace drasim::workload {

namespace {

const char* const kTimeForms = "expected seconds or a time like 250ms, 90s, 15m, 2h, 1d, 1h30m, or forever";

// from_chars for double is available in libstdc++ 11+, and unlike strtod it ignores the locale.
bool parseNumber(std::string_view text, size_t& i, double& out)
{
    size_t j = i;
    while (j < text.size() && ((text[j] >= '0' && text[j] <= '9') || text[j] == '.'))
        ++j;
    if (j == i)
        return false;
    auto res = std::from_chars(text.data() + i, text.data() + j, out);
    if (res.ec != std::errc() || res.ptr != text.data() + j)
        return false;
    i = j;
    return true;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

} // namespace

std::optional<double> parseSeconds(std::string_view text, std::string* error)
{
    auto fail = [&](std::string msg) -> std::optional<double> {
        if (error)
            *error = std::move(msg);
        return std::nullopt;
    };
    text = trim(text);
    if (text == "forever" || text == "inf" || text == "infinity")
        return std::numeric_limits<double>::infinity();
    if (text.empty())
        return fail(std::string("empty time; ") + kTimeForms);
    if (text.front() == '-')
        return fail("invalid time \"" + std::string(text) + "\": must not be negative");
    size_t i = 0;
    double first = 0;
    if (!parseNumber(text, i, first))
        return fail("invalid time \"" + std::string(text) + "\": " + kTimeForms);
    if (i == text.size())
        return first; // plain seconds
    double total = 0;
    double value = first;
    while (true) {
        size_t u = i;
        while (i < text.size() && !((text[i] >= '0' && text[i] <= '9') || text[i] == '.'))
            ++i;
        std::string_view unit = text.substr(u, i - u);
        double scale;
        if (unit == "ns")
            scale = 1e-9;
        else if (unit == "us")
            scale = 1e-6;
        else if (unit == "ms")
            scale = 1e-3;
        else if (unit == "s")
            scale = 1;
        else if (unit == "m")
            scale = 60;
        else if (unit == "h")
            scale = 3600;
        else if (unit == "d")
            scale = 86400;
        else
            return fail("invalid time \"" + std::string(text) + "\": unknown unit \"" + std::string(unit)
                + "\"; " + kTimeForms);
        total += value * scale;
        if (i == text.size())
            break;
        if (!parseNumber(text, i, value) || i == text.size())
            return fail("invalid time \"" + std::string(text) + "\": " + kTimeForms);
    }
    if (!std::isfinite(total))
        return fail("invalid time \"" + std::string(text) + "\": out of range");
    return total;
}

std::optional<double> parseRatePerSecond(std::string_view text, std::string* error)
{
    auto fail = [&](std::string msg) -> std::optional<double> {
        if (error)
            *error = std::move(msg);
        return std::nullopt;
    };
    text = trim(text);
    const size_t slash = text.find('/');
    if (slash == std::string_view::npos)
        return fail("invalid rate \"" + std::string(text) + "\": expected <number>/<s|m|h|d>, e.g. 12/h");
    std::string_view num = trim(text.substr(0, slash));
    std::string_view unit = trim(text.substr(slash + 1));
    size_t i = 0;
    double value = 0;
    if (num.empty() || num.front() == '-' || !parseNumber(num, i, value) || i != num.size())
        return fail("invalid rate \"" + std::string(text) + "\": expected a non-negative number before '/'");
    double per;
    if (unit == "s")
        per = 1;
    else if (unit == "m")
        per = 60;
    else if (unit == "h")
        per = 3600;
    else if (unit == "d")
        per = 86400;
    else
        return fail("invalid rate \"" + std::string(text) + "\": unit after '/' must be s, m, h or d");
    return value / per;
}

} // namespace drasim::workload
