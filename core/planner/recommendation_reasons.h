// SPDX-License-Identifier: Apache-2.0
#pragma once

// Why a study recommends what it does at one load level, for a buyer: the frontier of cost
// against the main service level over every mix within the constraints, the ones that miss a
// level included and marked; the recommendation's neighbours on it (and the dearest mix below
// its cost) with each level they miss and by how much; and the binding service level, the one
// that the cheaper mixes miss most often. Plain values and words; the desktop shows them, and
// `drasim plan` prints them (text, JSON and the frontier CSV).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/data_value.h"
#include "core/planner/study_result.h"

namespace drasim::planner {

/// How a mix misses one service level, on its worst seed.
struct LevelShortfall
{
    size_t level = 0; ///< index into StudyResult::levels
    /// False when only a run stopped early tells the miss: the value is not known, only that it
    /// is beyond the limit (`stopped` says when the run stopped).
    bool known = true;
    double worst = 0; ///< the value on the worst seed (known only)
    uint64_t seed = 0; ///< that seed (or the stopped run's)
    double by = 0; ///< how far beyond the limit: seconds, or a fraction (known only; > 0)
    std::string stopped; ///< "> 1h, run stopped at 8h12m50s" (not known only)
};

/// Every level `mix` misses on some seed, in the study's order; empty when it meets them all.
std::vector<LevelShortfall> shortfalls(const MixResult& mix, const std::vector<ServiceLevel>& levels);

/// "p95 wait of openb <= 10m by 4m3s (14m3s on seed 43)", "never scheduled <= 1% by 0.52 points
/// (1.52% on seed 2)", "longest pending <= 1h (seed 1: > 1h, run stopped at 8h12m50s)".
std::string shortfallText(const LevelShortfall& shortfall, const std::vector<ServiceLevel>& levels);

/// The shortfalls of `mix` joined with "; ", or "meets every level".
std::string missesText(const MixResult& mix, const std::vector<ServiceLevel>& levels);

/// A mix the explanation compares the recommendation with.
struct Neighbour
{
    enum class Kind {
        CheaperOnFrontier, ///< the frontier point just below the recommendation's cost
        DearerOnFrontier, ///< the frontier point just above it
        NextCheaper, ///< the dearest mix below its cost, when not on the frontier
    };
    Kind kind = Kind::CheaperOnFrontier;
    size_t mix = 0; ///< index into LoadResult::mixes
    std::vector<LevelShortfall> misses; ///< empty: meets every level
};

struct LoadReasons
{
    /// Indices into LoadResult::mixes, by cost: each mix within the constraints that no other
    /// mix beats, at no higher cost, on the main level (worst seed) while meeting at least as
    /// much. The mixes meeting every level are LoadResult::frontier; the others miss a level.
    std::vector<size_t> frontier;
    std::vector<Neighbour> neighbours; ///< cheaper on the frontier, next cheaper, dearer
    /// The level the mixes cheaper than the recommendation (every mix within the constraints
    /// when there is none) miss most often; the first such level on a tie. None when they all
    /// meet every level.
    std::optional<size_t> binding;
    size_t compared = 0; ///< mixes within the constraints cheaper than the recommendation (or all)
    size_t missingBinding = 0; ///< how many of them miss the binding level
};

/// The reasons at `load` (an index into result.loads); empty reasons for a bad index.
LoadReasons loadReasons(const StudyResult& result, size_t load);

/// The reasons as lines for people, the binding level first, then each neighbour:
///   binding service level: p95 wait of openb <= 10m (missed by 38 of the 40 cheaper mixes)
///   cheaper on the frontier: a100=2 l40s=6 ($700,000, $55,000 less) misses p95 wait ... by 4m3s (...)
///   dearer on the frontier: a100=3 l40s=7 ($900,000, $145,000 more) meets every level
std::vector<std::string> reasonLines(const StudyResult& result, size_t load, const LoadReasons& reasons);

/// The column names of the levels `mix` misses joined with ';' ("p95_wait_openb;never_scheduled"),
/// "" when it meets every level; what the frontier CSV says of a failing mix.
std::string missedColumns(const MixResult& mix, const std::vector<ServiceLevel>& levels);

/// The reasons for programs (keys in a fixed order): "binding" (the level's name and description,
/// how many of the compared mixes miss it; null when none), "compared", "frontier" (each mix with
/// its nodes, cost, whether it meets every level and what it misses), "neighbours" (kind, nodes,
/// cost, the difference to the recommendation, what it misses) and "lines" (reasonLines).
DataValue reasonsData(const StudyResult& result, size_t load, const LoadReasons& reasons);

} // namespace drasim::planner
