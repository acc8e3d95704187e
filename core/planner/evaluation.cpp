// SPDX-License-Identifier: Apache-2.0
#include "core/planner/evaluation.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/sim/sim_time.h"

namespace drasim::planner {

bool Evaluation::feasible(const std::vector<ServiceLevel>& levels) const
{
    if (seeds.empty())
        return false;
    for (const auto& s : seeds) {
        if (s.stoppedEarly || s.values.size() != levels.size())
            return false;
        for (size_t i = 0; i < levels.size(); ++i)
            if (!levels[i].met(s.values[i]))
                return false;
    }
    return true;
}

std::string Evaluation::firstMiss(const std::vector<ServiceLevel>& levels) const
{
    for (size_t i = 0; i < levels.size(); ++i)
        for (const auto& s : seeds) {
            if (s.values.size() != levels.size() || levels[i].met(s.values[i]))
                continue;
            const ServiceLevel& l = levels[i];
            std::string value;
            if (l.metric == Metric::Wait || l.metric == Metric::Pending)
                value = sim::formatDuration(sim::fromSeconds(std::round(s.values[i])));
            else {
                char buf[32];
                std::snprintf(buf, sizeof buf, "%.2f%%", s.values[i] * 100);
                value = buf;
            }
            return l.describe() + " (seed " + std::to_string(s.seed) + ": " + value
                + (s.stoppedEarly ? ", run stopped there" : "") + ")";
        }
    return {};
}

std::string exactNumber(double v)
{
    char buf[40];
    if (v == double(int64_t(v)) && v > -1e15 && v < 1e15) {
        std::snprintf(buf, sizeof buf, "%lld", (long long)v);
        return buf;
    }
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, v);
        if (std::strtod(buf, nullptr) == v)
            break;
    }
    return buf;
}

std::string probeKey(const Mix& mix, double load)
{
    return mixKey(mix) + "@" + exactNumber(load);
}

} // namespace drasim::planner
