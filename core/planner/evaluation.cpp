// SPDX-License-Identifier: Apache-2.0
#include "core/planner/evaluation.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/sim/sim_time.h"
#include "core/sim/time_text.h"

namespace drasim::planner {

bool SeedOutcome::met(const std::vector<ServiceLevel>& levels) const
{
    if (stoppedEarly || values.size() != levels.size())
        return false;
    for (size_t i = 0; i < levels.size(); ++i)
        if (!levels[i].met(values[i]))
            return false;
    return true;
}

bool Evaluation::feasible(const std::vector<ServiceLevel>& levels) const
{
    if (seeds.empty())
        return false;
    for (const auto& s : seeds)
        if (!s.met(levels))
            return false;
    return true;
}

std::optional<uint64_t> Evaluation::missingSeed(const std::vector<ServiceLevel>& levels) const
{
    for (const auto& s : seeds)
        if (!s.met(levels))
            return s.seed;
    return std::nullopt;
}

namespace {

std::string levelValue(const ServiceLevel& l, double v)
{
    if (l.metric == Metric::Wait || l.metric == Metric::Pending)
        return sim::formatDuration(sim::fromSeconds(std::round(v)));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f%%", v * 100);
    return buf;
}

} // namespace

int SeedOutcome::stoppingLevel(const std::vector<ServiceLevel>& levels) const
{
    if (!stoppedEarly || values.size() != levels.size())
        return -1;
    for (size_t i = 0; i < levels.size(); ++i)
        if (levels[i].metric == Metric::Pending && !levels[i].met(values[i]))
            return int(i);
    return -1;
}

std::string SeedOutcome::stoppedText(const std::vector<ServiceLevel>& levels) const
{
    const int i = stoppingLevel(levels);
    if (i < 0)
        return {};
    return "> " + levelValue(levels[size_t(i)], levels[size_t(i)].limit) + ", " + stopText();
}

std::string SeedOutcome::stopText() const
{
    if (stoppedAtSeconds < 0)
        return "run stopped";
    // A time of the run in the words every view and --time use ("8h9m36s", not "0.34d").
    return "run stopped at " + sim::timeText(sim::fromSeconds(stoppedAtSeconds));
}

std::string Evaluation::firstMiss(const std::vector<ServiceLevel>& levels) const
{
    for (size_t i = 0; i < levels.size(); ++i)
        for (const auto& s : seeds) {
            if (s.values.size() != levels.size())
                continue;
            // A stopped run's values are no results: only its stopping level is known missed.
            if (s.stoppedEarly) {
                if (s.stoppingLevel(levels) == int(i))
                    return levels[i].describe() + " (seed " + std::to_string(s.seed) + ": "
                        + s.stoppedText(levels) + ")";
                continue;
            }
            if (levels[i].met(s.values[i]))
                continue;
            return levels[i].describe() + " (seed " + std::to_string(s.seed) + ": "
                + levelValue(levels[i], s.values[i]) + ")";
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
