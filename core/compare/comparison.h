// SPDX-License-Identifier: Apache-2.0
#pragma once

// Runs side by side (`drasim compare`, the GUI's Compare view). Load the runs from a store, then
// compare them; everything after loading is a pure function of the runs given:
//
//   storage::RunStore store(path);
//   auto runs = compare::loadRuns(store, {3, 7});      // throws CompareError naming a bad run
//   compare::Comparison c = compare::compareRuns(runs);
//   for (const compare::Kpi& k : c.kpis) ...            // values[i] is run i's, deltas against run 0
//   for (const compare::AlignedSeries& s : c.series) ... // one time axis per metric, a line per run
//
// The first run is the baseline. Output formats (text, JSON, CSV) are in compare_format.h.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/storage/run_store.h"

namespace drasim::compare {

/// A run that cannot be compared: not in the store, or without a summary (never finished).
class CompareError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// One stored run as the comparison reads it.
struct RunData
{
    storage::RunInfo info; ///< summaryJson holds the run's summary (sim::toData as JSON)
    std::vector<storage::SeriesPoint> series; ///< every metric ("metric" or "metric/key"), any order
};

/// Reads the runs, in the order given. Throws CompareError: "run 7 is not in the store <path>",
/// "run 3 (status interrupted) has no summary to compare"; storage::StorageError on a bad file.
std::vector<RunData> loadRuns(storage::RunStore& store, const std::vector<int64_t>& ids);

/// A column header: which run, of which scenario revision.
struct RunColumn
{
    int64_t id = 0;
    std::string scenario;
    int64_t revision = 0; ///< 0 = unknown
    uint64_t seed = 0;
    std::string label;
    std::string status;
};

/// What a value or a difference is: exact, or only a bound of the true one (a wait percentile that
/// pods never scheduled could still raise is at least its value; subtracting such a value from an
/// exact one gives at most the difference).
enum class Bound { Exact, AtLeast, AtMost };

/// Which direction of a KPI is the good one (the GUI may colour differences with it).
enum class Better { Lower, Higher, Neither };

/// One row of the table. Rows come grouped, in a fixed order: pods, wait, gangs (runs with
/// grouped jobs only), utilization, cost, fragmentation, placement; keys (workloads, models, pools, reasons)
/// in name order, the union over the runs.
struct Kpi
{
    std::string group; ///< "pods", "wait", "gangs", "utilization", "cost", "fragmentation", "placement"
    /// Stable identifier, e.g. "pods.neverScheduled", "wait.p95/training", "utilization.mean/NVIDIA
    /// H100 80GB HBM3", "placement.share/PIX" (the part after '/' is a key from the runs).
    std::string name;
    std::string unit; ///< "pods", "s", "%", "USD", "devices", "claims", "jobs", "device-h", "cycles"
    Better better = Better::Neither;
    /// One per run; nullopt when the run has no such key (a workload or model it does not have).
    std::vector<std::optional<double>> values;
    /// values[i] - values[0]; nullopt for i == 0 and wherever either value is missing.
    std::vector<std::optional<double>> deltas;
    std::vector<Bound> valueBounds; ///< one per run
    /// One per run (Exact for run 0); a difference of two lower bounds is unknown (no delta).
    std::vector<Bound> deltaBounds;
};

/// One metric of the runs' series on a common time axis, so that lines can be overlaid.
struct AlignedSeries
{
    std::string metric; ///< as stored: "pods.pending", "utilization.model/NVIDIA L40S", ...
    std::vector<double> times; ///< simulated seconds, ascending: every sample time of any run
    /// values[run][t]: the run's sample at times[t], nullopt where that run has none.
    std::vector<std::vector<std::optional<double>>> values;
};

struct Comparison
{
    std::vector<RunColumn> runs;
    std::vector<Kpi> kpis;
    std::vector<AlignedSeries> series; ///< by metric name; metrics of any run
};

/// The comparison of the runs (at least one). Throws CompareError when a run's summary is not a
/// summary document ("run 3: the stored summary is not valid JSON").
Comparison compareRuns(const std::vector<RunData>& runs);

} // namespace drasim::compare
