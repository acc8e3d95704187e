// SPDX-License-Identifier: Apache-2.0
#include "core/workload/time_text.h"

namespace drasim::workload {

std::optional<double> parseRatePerSecond(std::string_view text, std::string* error)
{
    auto fail = [&](std::string msg) -> std::optional<double> {
        if (error)
            *error = std::move(msg);
        return std::nullopt;
    };
    text = trimBlanks(text);
    const size_t slash = text.find('/');
    if (slash == std::string_view::npos)
        return fail("invalid rate \"" + std::string(text) + "\": expected <number>/<s|m|h|d>, e.g. 12/h");
    std::string_view num = trimBlanks(text.substr(0, slash));
    std::string_view unit = trimBlanks(text.substr(slash + 1));
    size_t i = 0;
    double value = 0;
    if (num.empty() || num.front() == '-' || !parseDecimal(num, i, value) || i != num.size())
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
