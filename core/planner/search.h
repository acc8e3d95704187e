// SPDX-License-Identifier: Apache-2.0
#pragma once

// The capacity search. Service levels are assumed monotone in node counts (more nodes of any
// shape never hurt), so:
//  1. each shape alone is bisected: the fewest nodes of it that meet every level on every seed
//     (or none within its maxNodes and the constraints);
//  2. the cheapest single shape bounds the cost of anything worth recommending; mixes are then
//     searched slice by slice (every count of the first shapes, then a staircase walk over the
//     last two: for each count of the second-to-last shape, the fewest of the last by
//     bisection, which can only shrink as the other grows). Mixes dearer than that bound or
//     outside the constraints are never simulated; a mix above one known to meet the levels, or
//     below one known to miss them, is decided without simulating.
// Each load level (1 and 1 + every growth) is searched on its own. The units of work (one
// bisection, one slice) advance in lockstep so every round is one batch for the thread pool, and
// what a unit decides depends only on its own answers and the bisections, never on another
// slice: that is what lets shards split the slices and still reproduce the single-process answer.
// With hardware owned, the owned cluster alone is asked beside the bisections' first probes: when
// it meets every level nothing needs buying, and every bisection is decided without simulating.
// The bisections are the same in every shard: a split runs them once, as a stage of their own
// (Shard::bisectionsOnly), and each shard then reads their answers instead of simulating them
// again (runSearch's `bisections`).

#include <cstdint>
#include <functional>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/planner/evaluation.h"
#include "core/planner/oracle.h"

namespace drasim::planner {

struct SearchSpace
{
    std::vector<int> maxNodes; ///< per candidate
    std::vector<double> loads; ///< load levels, searched independently
    std::vector<ServiceLevel> levels;
    std::function<double(const Mix&)> cost;
    std::function<bool(const Mix&)> withinConstraints;
    /// Hardware is owned already (Study spec.owned): the mix of zeros, nothing bought, is a cluster
    /// worth asking about first.
    bool owned = false;
};

/// Which part of the search this process runs: slice i (numbered over every load level) when
/// i % count == index, after the bisections (run here, or answered by the shared stage).
struct Shard
{
    int index = 0;
    int count = 1;
    /// The per-shape bisections alone: the stage run once before the shards of a split, whose
    /// answers every shard reads (index and count are then not used).
    bool bisectionsOnly = false;
};

struct SearchProgress
{
    int64_t probesDone = 0;
    int64_t probesEstimated = 0; ///< done + a rough bound on what is left
    int phase = 1; ///< 1: bisections, 2: mixes
};

struct SearchResult
{
    /// Per load level (SearchSpace::loads order): every evaluation the search asked for, each once.
    std::vector<std::vector<Evaluation>> byLoad;
    int64_t probes = 0; ///< distinct evaluations (each ran every seed)
};

/// Runs the search against `oracle`. False when an oracle failed or was cancelled. With
/// `bisectionAnswers` (the shared stage's answers, e.g. a CacheOracle), the bisections ask it instead
/// of `oracle`; the result is the same.
bool runSearch(const SearchSpace& space, Oracle& oracle, const Shard& shard, Diagnostics& diags,
    SearchResult& result, const std::function<void(const SearchProgress&)>& onRound = {},
    Oracle* bisectionAnswers = nullptr);

} // namespace drasim::planner
