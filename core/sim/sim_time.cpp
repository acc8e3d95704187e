// SPDX-License-Identifier: Apache-2.0
#include "core/sim/sim_time.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace drasim::sim {

bool parseDuration(const std::string& text, SimTime& out)
{
    if (text.empty())
        return false;
    // A bare number means seconds (what the trace files and most users write).
    char* end = nullptr;
    double bare = std::strtod(text.c_str(), &end);
    if (end && *end == '\0' && std::isfinite(bare) && bare >= 0) {
        out = fromSeconds(bare);
        return true;
    }
    SimTime total = 0;
    size_t i = 0;
    while (i < text.size()) {
        size_t start = i;
        while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
            ++i;
        if (i == start)
            return false;
        double value = std::strtod(text.substr(start, i - start).c_str(), nullptr);
        size_t unitStart = i;
        while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i])))
            ++i;
        std::string unit = text.substr(unitStart, i - unitStart);
        SimTime scale = 0;
        if (unit == "ms")
            scale = kMillisecond;
        else if (unit == "s")
            scale = kSecond;
        else if (unit == "m")
            scale = kMinute;
        else if (unit == "h")
            scale = kHour;
        else if (unit == "d")
            scale = kDay;
        else
            return false;
        total += SimTime(std::llround(value * double(scale)));
    }
    out = total;
    return true;
}

std::string formatDuration(SimTime t)
{
    if (t == 0)
        return "0s";
    std::string out;
    if (t < 0) {
        out = "-";
        t = -t;
    }
    const struct
    {
        SimTime scale;
        const char* unit;
    } units[] = { { kDay, "d" }, { kHour, "h" }, { kMinute, "m" }, { kSecond, "s" }, { kMillisecond, "ms" } };
    for (const auto& u : units) {
        if (t >= u.scale) {
            out += std::to_string(t / u.scale) + u.unit;
            t %= u.scale;
        }
    }
    return out;
}

} // namespace drasim::sim
