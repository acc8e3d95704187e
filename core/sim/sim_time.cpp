// SPDX-License-Identifier: Apache-2.0
#include "core/sim/sim_time.h"

#include "core/common/duration_text.h"

namespace drasim::sim {

bool parseDuration(const std::string& text, SimTime& out, std::string* error)
{
    const auto ms = parseDurationMillis(text, error);
    if (ms)
        out = *ms;
    return ms.has_value();
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
