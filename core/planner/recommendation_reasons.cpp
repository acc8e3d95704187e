// SPDX-License-Identifier: Apache-2.0
#include "core/planner/recommendation_reasons.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/planner/mix.h"

namespace drasim::planner {

namespace {

bool measuresTime(const ServiceLevel& l)
{
    return l.metric == Metric::Wait || l.metric == Metric::Pending;
}

/// How far `value` lies beyond the level's limit, in the level's unit (> 0 when missed).
double beyond(const ServiceLevel& l, double value)
{
    return l.lowerBound() ? l.limit - value : value - l.limit;
}

/// "4m3s" for a time, "0.52 points" for a share (a difference of percentages).
std::string amountText(const ServiceLevel& l, double by)
{
    if (measuresTime(l))
        return formatLevelValue(l, by);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f points", by * 100);
    return buf;
}

/// The main level's worst-seed value, made comparable: larger is better; a value not known (a
/// run stopped early) is the worst of all.
double mainMerit(const MixResult& m, const ServiceLevel& main)
{
    if (m.spread.empty() || !m.spread[0].known)
        return -std::numeric_limits<double>::infinity();
    const double v = m.worstMain(main);
    return main.lowerBound() ? v : -v;
}

/// The frontier over every mix within the constraints: walked by cost (better main first on a
/// tie), a mix missing a level joins it when its main level beats every cheaper mix's; a mix
/// meeting every level joins it when the ranking put it on the frontier (LoadResult::frontier:
/// only mixes meeting every level can beat it).
std::vector<size_t> fullFrontier(const StudyResult& r, const LoadResult& lr)
{
    const ServiceLevel& main = r.levels.front();
    std::vector<size_t> order;
    for (size_t i = 0; i < lr.mixes.size(); ++i)
        if (lr.mixes[i].withinConstraints)
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const MixResult& x = lr.mixes[a];
        const MixResult& y = lr.mixes[b];
        if (x.footprint.costUsd != y.footprint.costUsd)
            return x.footprint.costUsd < y.footprint.costUsd;
        return mainMerit(x, main) > mainMerit(y, main);
    });
    std::vector<size_t> frontier;
    bool first = true;
    double best = -std::numeric_limits<double>::infinity();
    for (size_t i : order) {
        const MixResult& m = lr.mixes[i];
        const double merit = mainMerit(m, main);
        const bool ranked = std::find(lr.frontier.begin(), lr.frontier.end(), i) != lr.frontier.end();
        if (m.feasible ? ranked : (first || merit > best))
            frontier.push_back(i);
        best = std::max(best, merit);
        first = false;
    }
    return frontier;
}

} // namespace

std::vector<LevelShortfall> shortfalls(const MixResult& m, const std::vector<ServiceLevel>& levels)
{
    std::vector<LevelShortfall> out;
    for (size_t i = 0; i < levels.size(); ++i) {
        std::optional<LevelShortfall> worst;
        std::optional<LevelShortfall> stopped;
        for (const SeedOutcome& s : m.seeds) {
            if (s.values.size() != levels.size())
                continue;
            // A stopped run's values are no results: only its stopping level is known missed.
            if (s.stoppedEarly) {
                if (s.stoppingLevel(levels) == int(i) && !stopped)
                    stopped = LevelShortfall { i, false, 0, s.seed, 0, s.stoppedText(levels) };
                continue;
            }
            const double by = beyond(levels[i], s.values[i]);
            if (levels[i].met(s.values[i]) || by <= 0)
                continue;
            if (!worst || by > worst->by)
                worst = LevelShortfall { i, true, s.values[i], s.seed, by, {} };
        }
        // A value known beats a bound: it says by how much.
        if (worst)
            out.push_back(*worst);
        else if (stopped)
            out.push_back(*stopped);
    }
    return out;
}

std::string shortfallText(const LevelShortfall& s, const std::vector<ServiceLevel>& levels)
{
    if (s.level >= levels.size())
        return {};
    const ServiceLevel& l = levels[s.level];
    if (!s.known)
        return l.describe() + " (seed " + std::to_string(s.seed) + ": " + s.stopped + ")";
    return l.describe() + " by " + amountText(l, s.by) + " (" + formatLevelValue(l, s.worst) + " on seed "
        + std::to_string(s.seed) + ")";
}

std::string missesText(const MixResult& m, const std::vector<ServiceLevel>& levels)
{
    std::string out;
    for (const LevelShortfall& s : shortfalls(m, levels))
        out += (out.empty() ? "" : "; ") + shortfallText(s, levels);
    if (out.empty())
        return m.feasible ? "meets every level" : m.miss;
    return out;
}

LoadReasons loadReasons(const StudyResult& r, size_t load)
{
    LoadReasons reasons;
    if (load >= r.loads.size() || r.levels.empty())
        return reasons;
    const LoadResult& lr = r.loads[load];
    reasons.frontier = fullFrontier(r, lr);

    // The mixes the binding level is read from: those cheaper than the recommendation, or every
    // mix when nothing qualified.
    std::vector<size_t> compared;
    const double cost = lr.recommended ? lr.mixes[*lr.recommended].footprint.costUsd
                                       : std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < lr.mixes.size(); ++i)
        if (lr.mixes[i].withinConstraints && lr.mixes[i].footprint.costUsd < cost)
            compared.push_back(i);
    reasons.compared = compared.size();
    std::vector<size_t> misses(r.levels.size(), 0);
    for (size_t i : compared)
        for (const LevelShortfall& s : shortfalls(lr.mixes[i], r.levels))
            ++misses[s.level];
    const auto most = std::max_element(misses.begin(), misses.end());
    if (most != misses.end() && *most > 0) {
        reasons.binding = size_t(most - misses.begin());
        reasons.missingBinding = *most;
    }
    if (!lr.recommended)
        return reasons;

    const size_t rec = *lr.recommended;
    const auto at = std::find(reasons.frontier.begin(), reasons.frontier.end(), rec);
    auto neighbour = [&](Neighbour::Kind kind, size_t mix) {
        reasons.neighbours.push_back(Neighbour { kind, mix, shortfalls(lr.mixes[mix], r.levels) });
    };
    std::optional<size_t> cheaperOnFrontier;
    if (at != reasons.frontier.end() && at != reasons.frontier.begin())
        cheaperOnFrontier = *(at - 1);
    if (cheaperOnFrontier)
        neighbour(Neighbour::Kind::CheaperOnFrontier, *cheaperOnFrontier);
    // The dearest mix below the recommendation's cost (the ranking's order breaks ties): what
    // a buyer saving a little would get.
    std::optional<size_t> next;
    for (size_t i : compared)
        if (!next || lr.mixes[i].footprint.costUsd >= lr.mixes[*next].footprint.costUsd)
            next = i;
    if (next && next != cheaperOnFrontier)
        neighbour(Neighbour::Kind::NextCheaper, *next);
    if (at != reasons.frontier.end() && at + 1 != reasons.frontier.end())
        neighbour(Neighbour::Kind::DearerOnFrontier, *(at + 1));
    return reasons;
}

std::vector<std::string> reasonLines(const StudyResult& r, size_t load, const LoadReasons& reasons)
{
    std::vector<std::string> lines;
    if (load >= r.loads.size() || r.levels.empty())
        return lines;
    const LoadResult& lr = r.loads[load];
    const std::string among = lr.recommended ? " cheaper mixes" : " mixes within the constraints";
    if (reasons.binding)
        lines.push_back("binding service level: " + r.levels[*reasons.binding].describe() + " (missed by "
            + std::to_string(reasons.missingBinding) + " of the " + std::to_string(reasons.compared) + among
            + ")");
    else if (lr.recommended && reasons.compared == 0)
        lines.push_back("binding service level: none (no cheaper mix was evaluated)");
    if (!lr.recommended)
        return lines;
    const double cost = lr.mixes[*lr.recommended].footprint.costUsd;
    for (const Neighbour& n : reasons.neighbours) {
        const MixResult& m = lr.mixes[n.mix];
        const char* label = n.kind == Neighbour::Kind::CheaperOnFrontier ? "cheaper on the frontier: "
            : n.kind == Neighbour::Kind::NextCheaper                     ? "next cheaper: "
                                                                         : "dearer on the frontier: ";
        const double delta = m.footprint.costUsd - cost;
        std::string line = label + formatMix(m.mix, r.candidates) + " (" + formatMoney(m.footprint.costUsd)
            + ", " + formatMoney(std::abs(delta)) + (delta < 0 ? " less" : " more") + ")";
        if (n.misses.empty())
            line += " meets every level, " + r.levels.front().describe() + ": "
                + formatLevelValue(r.levels.front(), m.worstMain(r.levels.front())) + " on its worst seed";
        else
            line += " misses " + missesText(m, r.levels);
        lines.push_back(line);
    }
    return lines;
}

std::string missedColumns(const MixResult& m, const std::vector<ServiceLevel>& levels)
{
    std::string out;
    for (const LevelShortfall& s : shortfalls(m, levels)) {
        if (!out.empty())
            out += ';';
        out += levels[s.level].column();
    }
    // A mix that fails with no level known missed (no seed said which): say so rather than "".
    if (out.empty() && !m.feasible)
        return "unknown";
    return out;
}

namespace {

DataValue nodesData(const MixResult& m, const StudyResult& r)
{
    DataValue counts = DataValue::map();
    for (size_t i = 0; i < m.mix.size() && i < r.candidates.size(); ++i)
        counts.set(r.candidates[i].name, int64_t(r.candidates[i].totalNodes(m.mix[i])));
    return counts;
}

DataValue shortfallsData(const std::vector<LevelShortfall>& misses, const std::vector<ServiceLevel>& levels)
{
    DataValue list = DataValue::list();
    for (const LevelShortfall& s : misses) {
        DataValue d = DataValue::map();
        d.set("level", levels[s.level].column());
        d.set("seed", int64_t(s.seed));
        if (s.known) {
            d.set("worst", s.worst);
            d.set("by", s.by);
        } else {
            d.set("stopped", s.stopped);
        }
        list.push(d);
    }
    return list;
}

const char* kindName(Neighbour::Kind kind)
{
    switch (kind) {
    case Neighbour::Kind::CheaperOnFrontier:
        return "cheaperOnFrontier";
    case Neighbour::Kind::NextCheaper:
        return "nextCheaper";
    case Neighbour::Kind::DearerOnFrontier:
        return "dearerOnFrontier";
    }
    return "";
}

} // namespace

DataValue reasonsData(const StudyResult& r, size_t load, const LoadReasons& reasons)
{
    DataValue d = DataValue::map();
    if (load >= r.loads.size() || r.levels.empty())
        return d;
    const LoadResult& lr = r.loads[load];
    DataValue binding;
    if (reasons.binding) {
        binding = DataValue::map();
        binding.set("level", r.levels[*reasons.binding].column());
        binding.set("description", r.levels[*reasons.binding].describe());
        binding.set("missedBy", int64_t(reasons.missingBinding));
    }
    d.set("binding", binding);
    d.set("compared", int64_t(reasons.compared));
    DataValue frontier = DataValue::list();
    for (size_t i : reasons.frontier) {
        const MixResult& m = lr.mixes[i];
        DataValue x = DataValue::map();
        x.set("nodes", nodesData(m, r));
        x.set("costUSD", m.footprint.costUsd);
        x.set("feasible", m.feasible);
        x.set("misses", shortfallsData(shortfalls(m, r.levels), r.levels));
        frontier.push(x);
    }
    d.set("frontier", frontier);
    DataValue neighbours = DataValue::list();
    const double cost = lr.recommended ? lr.mixes[*lr.recommended].footprint.costUsd : 0.0;
    for (const Neighbour& n : reasons.neighbours) {
        const MixResult& m = lr.mixes[n.mix];
        DataValue x = DataValue::map();
        x.set("kind", kindName(n.kind));
        x.set("nodes", nodesData(m, r));
        x.set("costUSD", m.footprint.costUsd);
        x.set("costDifferenceUSD", m.footprint.costUsd - cost);
        x.set("misses", shortfallsData(n.misses, r.levels));
        neighbours.push(x);
    }
    d.set("neighbours", neighbours);
    DataValue lines = DataValue::list();
    for (const std::string& line : reasonLines(r, load, reasons))
        lines.push(line);
    d.set("lines", lines);
    return d;
}

} // namespace drasim::planner
