// SPDX-License-Identifier: Apache-2.0
#include "core/planner/study_result.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/common/money_text.h"
#include "core/planner/recommendation_reasons.h"
#include "core/scenario/rack_layout_yaml.h"
#include "core/sim/sim_time.h"

namespace drasim::planner {

namespace {

bool isTime(const ServiceLevel& l)
{
    return l.metric == Metric::Wait || l.metric == Metric::Pending;
}

std::string fixed(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

/// Better main value first: smaller for upper bounds, larger for lower bounds.
bool betterMain(const ServiceLevel& main, double a, double b)
{
    return main.lowerBound() ? a > b : a < b;
}

MixResult mixResult(const Evaluation& e, const StudyResult& h)
{
    MixResult r;
    r.mix = e.mix;
    r.footprint = footprint(e.mix, h.candidates, h.cost, h.durationHours, h.tco);
    r.feasible = e.feasible(h.levels);
    r.withinConstraints = true; // set by the caller, who knows the constraints
    r.miss = e.firstMiss(h.levels);
    if (r.miss.empty() && !r.feasible)
        r.miss = "a run stopped early";
    r.seeds = e.seeds;
    r.everySeed = e.seeds.size() >= h.seeds.size();
    for (size_t i = 0; i < h.levels.size(); ++i) {
        Spread s;
        bool first = true;
        double sum = 0;
        for (const auto& seed : e.seeds) {
            const double v = i < seed.values.size() ? seed.values[i] : 0.0;
            s.min = first ? v : std::min(s.min, v);
            s.max = first ? v : std::max(s.max, v);
            sum += v;
            first = false;
        }
        s.mean = e.seeds.empty() ? 0.0 : sum / double(e.seeds.size());
        // Over the seeds that ran: a mix that missed was decided by its first seed that missed,
        // and the seeds after it were not simulated (Evaluation::seeds).
        s.known = std::none_of(
            e.seeds.begin(), e.seeds.end(), [](const SeedOutcome& o) { return o.stoppedEarly; });
        r.spread.push_back(s);
    }
    return r;
}

std::string mixText(const MixResult& m, const StudyResult& r)
{
    return formatMix(m.mix, r.candidates);
}

std::string footprintText(const MixResult& m)
{
    return formatMoney(m.footprint.costUsd) + ", " + fixed(m.footprint.powerWatts / 1000.0, 1) + " kW, "
        + std::to_string(m.footprint.rackSlots) + " rack slots, " + std::to_string(m.footprint.nodes)
        + " nodes";
}

/// A seed's value of level i: a number for a run that finished; for one stopped early a bound,
/// {"stoppedAtSeconds": T, "above": limit} for the level that stopped it and {"stoppedAtSeconds":
/// T} (nothing known) for the others.
DataValue seedValue(const SeedOutcome& s, size_t i, const std::vector<ServiceLevel>& levels)
{
    if (i >= s.values.size())
        return DataValue();
    if (!s.stoppedEarly)
        return DataValue(s.values[i]);
    DataValue d = DataValue::map();
    d.set("stoppedAtSeconds", s.stoppedAtSeconds >= 0 ? DataValue(s.stoppedAtSeconds) : DataValue());
    if (s.stoppingLevel(levels) == int(i))
        d.set("above", levels[i].limit);
    return d;
}

DataValue mixData(const MixResult& m, const StudyResult& r)
{
    DataValue d = DataValue::map();
    DataValue counts = DataValue::map();
    DataValue bought = DataValue::map();
    for (size_t i = 0; i < m.mix.size() && i < r.candidates.size(); ++i) {
        counts.set(r.candidates[i].name, int64_t(r.candidates[i].totalNodes(m.mix[i])));
        bought.set(r.candidates[i].name, int64_t(r.candidates[i].nodes(m.mix[i])));
    }
    d.set("nodes", counts); // owned and bought
    if (anyOwned(r.candidates))
        d.set("buy", bought); // on top of what is owned
    d.set("costUSD", m.footprint.costUsd);
    d.set("powerWatts", m.footprint.powerWatts);
    d.set("rackSlots", m.footprint.rackSlots);
    d.set("feasible", m.feasible);
    d.set("withinConstraints", m.withinConstraints);
    // Fewer than the study's seeds when one missed a level: the ones after it were not run, and
    // min / mean / max are over the seeds that ran.
    d.set("seedsRun", int64_t(m.seeds.size()));
    if (!m.miss.empty())
        d.set("missed", m.miss);
    DataValue levels = DataValue::list();
    for (size_t i = 0; i < r.levels.size() && i < m.spread.size(); ++i) {
        DataValue l = DataValue::map();
        l.set("level", r.levels[i].column());
        const bool known = m.spread[i].known;
        l.set("min", known ? DataValue(m.spread[i].min) : DataValue());
        l.set("mean", known ? DataValue(m.spread[i].mean) : DataValue());
        l.set("max", known ? DataValue(m.spread[i].max) : DataValue());
        // One entry per study seed; {"notRun": true} for a seed left out once another had missed.
        DataValue perSeed = DataValue::list();
        for (uint64_t seed : r.seeds) {
            auto s = std::find_if(
                m.seeds.begin(), m.seeds.end(), [&](const SeedOutcome& o) { return o.seed == seed; });
            if (s != m.seeds.end()) {
                perSeed.push(seedValue(*s, i, r.levels));
                continue;
            }
            DataValue notRun = DataValue::map();
            notRun.set("notRun", true);
            perSeed.push(notRun);
        }
        l.set("bySeed", perSeed);
        levels.push(l);
    }
    d.set("serviceLevels", levels);
    return d;
}

/// The frontier's lines: cost, mix and the main level on the worst seed; a mix missing a level
/// marked with what it misses, so a buyer sees what the cheaper points give up.
/// One line per frontier mix: its cost, the mix, what it draws and takes of the racks, the main
/// level on its worst seed and what it misses; the recommended one says so.
std::string frontierText(const StudyResult& r, const LoadResult& lr, const LoadReasons& reasons)
{
    std::string out;
    for (size_t i : reasons.frontier) {
        const MixResult& m = lr.mixes[i];
        out += "    " + formatMoney(m.footprint.costUsd) + "  " + mixText(m, r) + "  ("
            + fixed(m.footprint.powerWatts / 1000.0, 1) + " kW, " + std::to_string(m.footprint.rackSlots)
            + " rack slots)  ";
        if (m.feasible)
            out += formatLevelValue(r.levels.front(), m.worstMain(r.levels.front()));
        else
            out += worstMainText(m, r.levels) + "  misses " + missesText(m, r.levels);
        out += lr.recommended && *lr.recommended == i ? "  <- recommended\n" : "\n";
    }
    return out;
}

} // namespace

/// Applies the constraints, picks the recommendation and the frontier of each load level.
static void rank(StudyResult& r, const Constraints& constraints);

double MixResult::worstMain(const ServiceLevel& main) const
{
    if (spread.empty())
        return 0;
    return main.lowerBound() ? spread[0].min : spread[0].max;
}

StudyResult summarize(const SearchResult& search, const std::vector<double>& loads,
    const Constraints& constraints, StudyResult header)
{
    StudyResult r = std::move(header);
    r.loads.clear();
    r.evaluations = search.probes;
    r.simulations = 0; // a mix's seeds stop at the first that misses a level
    for (const auto& load : search.byLoad)
        for (const auto& e : load)
            r.simulations += int64_t(e.seeds.size());
    for (size_t l = 0; l < loads.size() && l < search.byLoad.size(); ++l) {
        LoadResult lr;
        lr.load = loads[l];
        for (const auto& e : search.byLoad[l])
            lr.mixes.push_back(mixResult(e, r));
        std::sort(lr.mixes.begin(), lr.mixes.end(), [](const MixResult& a, const MixResult& b) {
            if (a.footprint.costUsd != b.footprint.costUsd)
                return a.footprint.costUsd < b.footprint.costUsd;
            return a.mix < b.mix;
        });
        r.loads.push_back(std::move(lr));
    }
    rank(r, constraints);
    return r;
}

static void rank(StudyResult& r, const Constraints& constraints)
{
    const ServiceLevel& main = r.levels.front();
    for (auto& lr : r.loads) {
        lr.recommended.reset();
        lr.frontier.clear();
        std::vector<size_t> ok;
        for (size_t i = 0; i < lr.mixes.size(); ++i) {
            MixResult& m = lr.mixes[i];
            m.withinConstraints = withinConstraints(m.footprint, constraints);
            if (m.feasible && m.withinConstraints)
                ok.push_back(i);
        }
        // Cheapest first; among equal costs the better main level, then fewer nodes.
        std::stable_sort(ok.begin(), ok.end(), [&](size_t a, size_t b) {
            const MixResult& x = lr.mixes[a];
            const MixResult& y = lr.mixes[b];
            if (x.footprint.costUsd != y.footprint.costUsd)
                return x.footprint.costUsd < y.footprint.costUsd;
            if (x.worstMain(main) != y.worstMain(main))
                return betterMain(main, x.worstMain(main), y.worstMain(main));
            if (x.footprint.nodes != y.footprint.nodes)
                return x.footprint.nodes < y.footprint.nodes;
            return x.mix < y.mix;
        });
        if (!ok.empty())
            lr.recommended = ok.front();
        for (size_t i : ok) {
            const double v = lr.mixes[i].worstMain(main);
            if (lr.frontier.empty() || betterMain(main, v, lr.mixes[lr.frontier.back()].worstMain(main)))
                lr.frontier.push_back(i);
        }
    }
}

std::string formatLevelValue(const ServiceLevel& l, double v)
{
    if (isTime(l)) // whole seconds: milliseconds of a wait percentile are noise to a buyer
        return sim::formatDuration(sim::fromSeconds(std::round(v)));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f%%", v * 100);
    return buf;
}

std::string worstMainText(const MixResult& m, const std::vector<ServiceLevel>& levels)
{
    if (levels.empty() || m.spread.empty())
        return {};
    if (m.spread[0].known) {
        // Over fewer seeds than the study's, the worst seed could only be worse.
        const std::string bound = m.everySeed ? "" : levels[0].lowerBound() ? "at most " : "at least ";
        return bound + formatLevelValue(levels[0], m.worstMain(levels[0]));
    }
    for (const auto& s : m.seeds)
        if (s.stoppedEarly) {
            if (s.stoppingLevel(levels) == 0)
                return s.stoppedText(levels);
            return "unknown, " + s.stopText();
        }
    return {};
}

std::string costBasisText(const StudyResult& r)
{
    char buf[160];
    switch (r.cost) {
    case CostBasis::Purchase:
        return "purchase price";
    case CostBasis::Hourly:
        return "hourly price x " + fixed(r.durationHours, 1) + " h";
    case CostBasis::Tco:
        std::snprintf(buf, sizeof buf,
            "total cost of ownership over %g years: purchase + power x PUE %g x 8760 h/year x $%g/kWh",
            r.tco.years, r.tco.pue, r.tco.energyUsdPerKwh);
        return buf;
    }
    return {};
}

std::string growthText(const StudyResult& r)
{
    return r.growth == Growth::Jobs
        ? "more jobs over the same span (a trace keeps its times, its jobs copied)"
        : "the same jobs arriving sooner (arrival rates x the load)";
}

std::string tcoNodeText(const StudyResult& r, const PricedCandidate& c)
{
    return formatMoney(nodeCost(c, CostBasis::Tco, r.durationHours, r.tco)) + " a node ("
        + formatMoney(c.purchaseUsd) + " purchase, " + fixed(c.powerWatts / 1000.0, 1) + " kW)";
}

std::string formatMoney(double usd)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", usd);
    std::string digits = buf, out;
    const size_t start = digits[0] == '-' ? 1 : 0;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > start && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return "$" + out;
}

std::string loadLabel(double load)
{
    if (load == 1.0)
        return "today's load";
    char buf[64];
    std::snprintf(buf, sizeof buf, "load +%g%%", (load - 1.0) * 100.0);
    return buf;
}

std::string versusText(const MixResult& rec, const MixResult& today, const StudyResult& r)
{
    std::string delta;
    for (size_t i = 0; i < rec.mix.size() && i < today.mix.size() && i < r.candidates.size(); ++i) {
        const int d = r.candidates[i].nodes(rec.mix[i] - today.mix[i]);
        if (d != 0)
            delta += std::string(delta.empty() ? "" : ", ") + (d > 0 ? "+" : "") + std::to_string(d) + " "
                + r.candidates[i].name;
    }
    return (delta.empty() ? std::string("the same mix") : delta) + ", "
        + (rec.footprint.costUsd >= today.footprint.costUsd ? "+" : "-")
        + formatMoney(std::abs(rec.footprint.costUsd - today.footprint.costUsd));
}

std::string formatText(const StudyResult& r)
{
    std::string out = "study " + r.study + " (scenario " + r.scenario
        + "): " + std::to_string(r.candidates.size()) + " candidate shapes, " + std::to_string(r.seeds.size())
        + " seeds, " + std::to_string(r.loads.size()) + " load levels; " + std::to_string(r.evaluations)
        + " mixes evaluated, " + std::to_string(r.simulations) + " simulations\n";
    out += "cost basis: " + costBasisText(r) + "\n";
    if (r.cost == CostBasis::Tco)
        for (const auto& c : r.candidates)
            out += "  " + c.name + ": " + tcoNodeText(r, c) + "\n";
    if (r.growth == Growth::Jobs)
        out += "load growth: " + growthText(r) + "\n";
    out += "service levels (every seed):\n";
    for (size_t i = 0; i < r.levels.size(); ++i)
        out += "  " + r.levels[i].describe() + (i == 0 ? "  (main)" : "") + "\n";
    const ServiceLevel& main = r.levels.front();
    const MixResult* today = nullptr;
    for (size_t load = 0; load < r.loads.size(); ++load) {
        const LoadResult& lr = r.loads[load];
        const LoadReasons reasons = loadReasons(r, load);
        out += "\n" + loadLabel(lr.load) + ":\n";
        if (!lr.recommended) {
            out += "  no mix within maxNodes and the constraints meets every service level\n";
            // Say why the largest mixes tried fell short.
            for (auto it = lr.mixes.rbegin(); it != lr.mixes.rend(); ++it)
                if (!it->feasible) {
                    out += "  e.g. " + mixText(*it, r) + ": missed " + it->miss + "\n";
                    break;
                }
            for (const std::string& line : reasonLines(r, load, reasons))
                out += "  " + line + "\n";
            continue;
        }
        const MixResult& rec = lr.mixes[*lr.recommended];
        out += "  recommended: " + mixText(rec, r) + "  (" + footprintText(rec) + ")\n";
        if (anyOwned(r.candidates)
            && std::all_of(rec.mix.begin(), rec.mix.end(), [](int n) { return n == 0; }))
            out += "  the hardware owned meets every service level at this load: nothing to buy\n";
        if (today && lr.load != 1.0)
            out += "  versus today: " + versusText(rec, *today, r) + "\n";
        out += "  across seeds (min / mean / max):\n";
        for (size_t i = 0; i < r.levels.size(); ++i)
            out += "    " + r.levels[i].describe() + ": " + formatLevelValue(r.levels[i], rec.spread[i].min)
                + " / " + formatLevelValue(r.levels[i], rec.spread[i].mean) + " / "
                + formatLevelValue(r.levels[i], rec.spread[i].max) + "\n";
        out += "  frontier (cost against " + main.describe() + ", worst seed):\n";
        out += frontierText(r, lr, reasons);
        const auto lines = reasonLines(r, load, reasons);
        if (!lines.empty())
            out += "  why this mix:\n";
        for (const std::string& line : lines)
            out += "    " + line + "\n";
        if (lr.load == 1.0)
            today = &rec;
    }
    return out;
}

std::string frontierCsv(const StudyResult& r)
{
    const ServiceLevel& main = r.levels.front();
    std::string out = "load,recommended";
    const bool owned = anyOwned(r.candidates); // then each candidate's owned nodes and those to buy
    for (const auto& c : r.candidates)
        out += owned ? "," + c.name + "_owned," + c.name + "_buy" : "," + c.name;
    out += ",cost_usd,power_w,rack_slots," + main.column() + "_min," + main.column() + "_mean,"
        + main.column() + "_max,misses\n";
    for (size_t load = 0; load < r.loads.size(); ++load) {
        const LoadResult& lr = r.loads[load];
        for (size_t i : loadReasons(r, load).frontier) {
            const MixResult& m = lr.mixes[i];
            out += exactNumber(lr.load) + "," + (lr.recommended && *lr.recommended == i ? "true" : "false");
            for (size_t k = 0; k < m.mix.size() && k < r.candidates.size(); ++k) {
                if (owned)
                    out.append(",").append(std::to_string(r.candidates[k].ownedNodes()));
                out.append(",").append(std::to_string(r.candidates[k].nodes(m.mix[k])));
            }
            out += ',';
            out += moneyCsv(m.footprint.costUsd) + "," + exactNumber(m.footprint.powerWatts) + ","
                + std::to_string(m.footprint.rackSlots) + ",";
            // A run stopped early leaves the main level unknown: empty fields, no numbers.
            if (m.spread[0].known)
                out += exactNumber(m.spread[0].min) + "," + exactNumber(m.spread[0].mean) + ","
                    + exactNumber(m.spread[0].max);
            else
                out += ",,";
            out += ',';
            out += missedColumns(m, r.levels);
            out += '\n';
        }
    }
    return out;
}

DataValue toData(const StudyResult& r)
{
    DataValue d = DataValue::map();
    d.set("study", r.study);
    d.set("scenario", r.scenario);
    d.set("cost",
        r.cost == CostBasis::Purchase     ? "purchase"
            : r.cost == CostBasis::Hourly ? "hourly"
                                          : "tco");
    if (r.growth == Growth::Jobs)
        d.set("growth", "jobs");
    if (r.cost == CostBasis::Tco) {
        DataValue t = DataValue::map();
        t.set("years", r.tco.years);
        t.set("pue", r.tco.pue);
        t.set("energyUSDPerKWh", r.tco.energyUsdPerKwh);
        d.set("tco", t);
    }
    DataValue cands = DataValue::list();
    for (const auto& c : r.candidates) {
        DataValue x = DataValue::map();
        x.set("name", c.name);
        x.set("shape", c.shape);
        x.set("maxNodes", int64_t(c.maxNodes));
        x.set("purchaseUSD", c.purchaseUsd);
        x.set("perHourUSD", c.perHourUsd);
        x.set("powerWatts", c.powerWatts);
        x.set("rackSlots", int64_t(c.rackSlots));
        if (c.layout != topology::RackLayout {})
            x.set("layout", scenario::rackLayoutData(c.layout));
        if (c.nodesPerUnit > 1)
            x.set("nodesPerUnit", int64_t(c.nodesPerUnit));
        if (c.ownedUnits > 0)
            x.set("ownedNodes", int64_t(c.ownedNodes()));
        if (r.cost == CostBasis::Tco)
            x.set("tcoUSDPerNode", nodeCost(c, r.cost, r.durationHours, r.tco));
        cands.push(x);
    }
    d.set("candidates", cands);
    DataValue levels = DataValue::list();
    for (const auto& l : r.levels) {
        DataValue x = DataValue::map();
        x.set("name", l.column());
        x.set("description", l.describe());
        levels.push(x);
    }
    d.set("serviceLevels", levels);
    DataValue seeds = DataValue::list();
    for (uint64_t s : r.seeds)
        seeds.push(int64_t(s));
    d.set("seeds", seeds);
    d.set("evaluations", r.evaluations);
    d.set("simulations", r.simulations);
    DataValue loads = DataValue::list();
    for (size_t load = 0; load < r.loads.size(); ++load) {
        const LoadResult& lr = r.loads[load];
        DataValue x = DataValue::map();
        x.set("load", lr.load);
        x.set("recommended", lr.recommended ? mixData(lr.mixes[*lr.recommended], r) : DataValue());
        DataValue frontier = DataValue::list();
        for (size_t i : lr.frontier)
            frontier.push(mixData(lr.mixes[i], r));
        x.set("frontier", frontier);
        x.set("reasons", reasonsData(r, load, loadReasons(r, load)));
        DataValue all = DataValue::list();
        for (const auto& m : lr.mixes)
            all.push(mixData(m, r));
        x.set("evaluated", all);
        loads.push(x);
    }
    d.set("loads", loads);
    return d;
}

} // namespace drasim::planner
