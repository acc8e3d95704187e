// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a study concludes, per load level: the recommended mix, the Pareto frontier of cost
// against the main service level, and every mix evaluated with its spread across seeds. A plain
// value (the GUI shows it; the CLI prints it as text, CSV and JSON).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/data_value.h"
#include "core/planner/evaluation.h"
#include "core/planner/mix.h"
#include "core/planner/search.h"

namespace drasim::planner {

struct Spread
{
    double min = 0;
    double mean = 0;
    double max = 0;
    /// False when a seed's run stopped early: its values are no results, so neither is the spread.
    bool known = true;
};

struct MixResult
{
    Mix mix;
    MixFootprint footprint;
    bool feasible = false; ///< every level met on every seed
    bool withinConstraints = false;
    std::string miss; ///< the first level missed (Evaluation::firstMiss)
    std::vector<Spread> spread; ///< per service level, over seeds
    std::vector<SeedOutcome> seeds;
    /// Every seed of the study ran. A mix that missed a level is decided by its first seed that
    /// missed and the seeds after it are not simulated: its worst seed is then a bound.
    bool everySeed = true;

    /// The main level's value on its worst seed.
    double worstMain(const ServiceLevel& main) const;
};

struct LoadResult
{
    double load = 1.0;
    std::vector<MixResult> mixes; ///< every mix evaluated, by cost, then node counts
    std::optional<size_t> recommended; ///< index into mixes
    std::vector<size_t> frontier; ///< indices into mixes, by cost
};

struct StudyResult
{
    std::string study;
    std::string scenario;
    CostBasis cost = CostBasis::Purchase;
    TcoTerms tco; ///< cost: tco
    Growth growth = Growth::Arrivals;
    double durationHours = 0;
    std::vector<PricedCandidate> candidates;
    std::vector<ServiceLevel> levels;
    std::vector<uint64_t> seeds;
    std::vector<LoadResult> loads; ///< the first is today's load (1.0)
    int64_t evaluations = 0; ///< distinct (mix, load) points
    int64_t simulations = 0; ///< seeds simulated over every evaluation (each up to its first miss)
};

/// Ranks what the search found: feasibility, constraints, recommendation, frontier.
/// `header` carries everything but `loads`, `evaluations` and `simulations`.
StudyResult summarize(const SearchResult& search, const std::vector<double>& loads,
    const Constraints& constraints, StudyResult header);

/// A level's value as reports print it: a duration in whole seconds ("14m3s") for waits and
/// pending times, a percentage with two decimals for fractions.
std::string formatLevelValue(const ServiceLevel& level, double value);
/// The main level's value on the mix's worst seed as reports print it; for a mix with a run
/// stopped early a bound or nothing: "> 1h, run stopped at 0.34d" when the main level stopped it,
/// "unknown, run stopped at 0.34d" otherwise; "at least 12m" (at most, for a level with a floor)
/// when the mix was decided before its last seed.
std::string worstMainText(const MixResult& mix, const std::vector<ServiceLevel>& levels);
/// "purchase price", "hourly price x 24.0 h" or "total cost of ownership over 4 years: purchase +
/// power x PUE 1.3 x 8760 h/year x $0.12/kWh".
std::string costBasisText(const StudyResult& result);
/// How the study grows its load: "more jobs over the same span (a trace keeps its times, its jobs
/// copied)" or "the same jobs arriving sooner (arrival rates x the load)".
std::string growthText(const StudyResult& result);
/// What one node of a candidate costs under a total cost of ownership, with its parts:
/// "$169,132 a node ($150,000 purchase, 3.5 kW)".
std::string tcoNodeText(const StudyResult& result, const PricedCandidate& candidate);
/// "$1,234,567" (whole dollars).
std::string formatMoney(double usd);
/// "today's load" for 1, "load +25%" above.
std::string loadLabel(double load);
/// How a recommendation differs from today's: "+1 a100, -1 l40s, +$85,000" (or "the same mix, +$0").
std::string versusText(const MixResult& rec, const MixResult& today, const StudyResult& r);

/// The recommendation for each load, its spread across seeds, the frontier (mixes that miss a
/// level marked with what they miss) and why this mix (reasonLines), for people.
std::string formatText(const StudyResult& result);
/// The frontier of every load level as CSV (one row per frontier mix, those that miss a level
/// included: the last column, `misses`, names the levels they miss, empty for the others).
std::string frontierCsv(const StudyResult& result);
/// Everything, for programs (keys in a fixed order).
DataValue toData(const StudyResult& result);

} // namespace drasim::planner
