// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Study document (apiVersion drasim.dev/v1alpha1, kind Study): which hardware to buy for a
// scenario's workloads. Paths are relative to the study file.
//
//   apiVersion: drasim.dev/v1alpha1
//   kind: Study
//   metadata: {name: alibaba-capacity}
//   spec:
//     scenario: scenario.yaml        # the base Scenario; its nodePools are replaced by the mix
//     cost: purchase                 # or hourly: price per hour x the scenario's duration; or tco:
//     tco: {years: 4, pue: 1.3, energyUSDPerKWh: 0.12}   # purchase + kW x PUE x 8760 h x years x price
//     candidates:                    # catalog shapes (the scenario's catalog and shapes)
//       - {shape: dgx-h100, name: h100, maxNodes: 16, purchaseUSD: 373000, perHourUSD: 98.32,
//          powerWatts: 10200, rackSlots: 8, layout: {nodesPerRack: 4, racksPerBlock: 2},
//          wholeRacks: true}           # counts in whole racks (GB200 NVL72: 18 trays)
//     serviceLevels:                 # every one must hold on every seed; the first is the main one
//       - {metric: wait, percentile: 95, workload: training, max: 10m}
//       - {metric: wait, percentile: 95, priorityClass: inference, max: 1m}   # pods of one class
//       - {metric: pending, max: 1h}              # no pod pending longer than this
//       - {metric: neverScheduled, max: 1%}       # pods never bound / pods created
//       - {metric: placement, within: PIX, min: 100%}   # multi-device claims at PIX or closer
//     constraints: {budgetUSD: 5000000, powerWatts: 200000, rackSlots: 120}
//     seeds: [1, 2, 3]               # default [the scenario's seed]
//     loadGrowth: [10%, 25%, 50%]    # default; arrival rates x (1 + growth)
//     growth: arrivals               # the same jobs sooner (default); or jobs: more jobs over the
//                                    # same span (a trace keeps its times and gains copies of its jobs)
//     policies: [least-allocated, fgd, most-allocated]   # optional: every mix under each scoring
//                                    # policy, each replacing the scenario's spec.scheduler profile
//     owned: {a100: 3}               # optional: nodes already owned, by candidate name; every mix
//                                    # holds at least these and costs only what is bought on top
//     failures:                      # optional: failures by device model for every candidate pool
//       byDeviceModel:               # that carries it (core/scenario/device_model_failures.h)
//         H100-SXM5-80GB: {mtbf: 6300h, repair: {mean: 48h, distribution: lognormal}}
//
// Prices and power default to the catalog shape's; rackSlots (per node) defaults to 1.
// A candidate's pool takes the failure settings (`failures:`, `spot:`) of the scenario's pool of
// its name, or else of its shape; without `failures:` of its own, those of the device models its
// shape carries: the study's spec.failures.byDeviceModel, over the scenario's
// spec.cluster.failures.byDeviceModel for the same model. Each seed draws its own failures, so
// service levels that hold on every seed hold with failures. A named scenario event on a node or pool a mix
// lacks is left out of that mix, with a note, rather than stopping the study.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/scenario/device_model_failures.h"
#include "core/scheduler/scoring_profile.h"
#include "core/topology/rack_layout.h"

namespace drasim::planner {

constexpr const char* kStudyApiVersion = "drasim.dev/v1alpha1";

struct CandidateShape
{
    std::string name; ///< pool name in the scenario (default: the shape name)
    std::string shape; ///< catalog NodeShape name
    int maxNodes = 32;
    std::optional<double> purchaseUsd; ///< default: the catalog price
    std::optional<double> perHourUsd;
    std::optional<double> powerWatts;
    int rackSlots = 1;
    topology::RackLayout layout; ///< how the pool's servers stand in racks (Scenario node pool `layout`)
    bool wholeRacks = false; ///< bought a rack at a time (counts step by the rack's nodes)
    SourcePos pos;
};

enum class Metric {
    Wait, ///< percentile of pod wait (creation to binding; pods never bound count their age at the end)
    Pending, ///< longest time any pod waited or is still waiting
    NeverScheduled, ///< fraction of created pods that were never bound
    Placement, ///< fraction of multi-device claims placed within a distance class
};

struct ServiceLevel
{
    Metric metric = Metric::Wait;
    double percentile = 95; ///< Wait
    std::string workload; ///< Wait, Pending, NeverScheduled: empty = every workload
    /// Wait, Pending, NeverScheduled: only the pods of this PriorityClass; empty = every class.
    std::string priorityClass;
    std::string within = "PIX"; ///< Placement: X, NV, PIX, PXB, PHB, NODE or SYS
    /// The bound: seconds (Wait, Pending) or a fraction in [0, 1]. Placement is a lower bound
    /// (value >= limit), the others upper bounds (value <= limit).
    double limit = 0;
    SourcePos pos;

    bool lowerBound() const { return metric == Metric::Placement; }
    bool met(double value) const { return lowerBound() ? value >= limit : value <= limit; }
    /// "p95 wait of training <= 10m", "pods never scheduled <= 1%".
    std::string describe() const;
    /// Short column name: "wait_p95_training_s", "pending_max_s", "never_scheduled", "placement_pix".
    std::string column() const;
};

enum class CostBasis { Purchase, Hourly, Tco };

/// spec.growth: how a load growth grows the workloads (sim::RunOverrides::growthAddsJobs).
enum class Growth {
    Arrivals, ///< arrival rates x (1 + growth): a count-bounded stream or a trace runs sooner
    Jobs, ///< (1 + growth) x the jobs over the same span: rates and counts, a trace's jobs copied
};

/// spec.tco: the terms of a total cost of ownership (cost: tco). A node costs its purchase price
/// plus the energy it draws over the years: kW x PUE (the facility's overhead on IT power) x
/// 8760 hours a year x years x the energy price.
struct TcoTerms
{
    double years = 0;
    double pue = 1;
    double energyUsdPerKwh = 0;

    /// What one node of `powerWatts` that costs `purchaseUsd` costs over the years.
    double perNode(double purchaseUsd, double powerWatts) const
    {
        return purchaseUsd + powerWatts / 1000.0 * pue * 8760.0 * years * energyUsdPerKwh;
    }
};

/// spec.owned: nodes of a candidate already owned. They stand in every mix the study evaluates,
/// cost nothing, and draw power and take rack slots like bought ones.
struct OwnedNodes
{
    std::string candidate; ///< a candidate's name
    int nodes = 0;
    SourcePos pos;
};

struct Constraints
{
    std::optional<double> budgetUsd;
    std::optional<double> powerWatts;
    std::optional<int64_t> rackSlots;
};

struct Study
{
    std::string name;
    std::string file; ///< as given
    std::string baseDir; ///< directory of the file ("." for a bare name)
    SourcePos pos;
    std::string scenario; ///< as written
    SourcePos scenarioPos; ///< where spec.scenario is written
    CostBasis cost = CostBasis::Purchase;
    TcoTerms tco; ///< cost: tco
    std::vector<CandidateShape> candidates;
    std::vector<ServiceLevel> serviceLevels; ///< the first is the main one (frontier axis)
    Constraints constraints;
    std::vector<uint64_t> seeds; ///< empty = the scenario's seed
    std::vector<double> loadGrowth = { 0.10, 0.25, 0.50 };
    Growth growth = Growth::Arrivals;
    /// spec.policies: the scoring policies to compare, as a dimension of the search (each mix is
    /// searched for under each); empty = the scenario's own scheduler only.
    std::vector<scheduler::ScoringPolicy> policies;
    SourcePos policiesPos; ///< where spec.policies is written
    std::vector<OwnedNodes> owned; ///< spec.owned, in the document's order
    /// spec.failures.byDeviceModel, in the document's order: over the scenario's of the same model.
    std::vector<scenario::DeviceModelFailures> failuresByDeviceModel;

    /// Nodes of `candidate` owned (0 when the study owns none).
    int ownedNodes(const std::string& candidate) const;

    std::string scenarioPath() const; ///< resolved against baseDir
};

/// Parses a study document strictly: unknown fields, wrong types, out-of-range values and
/// duplicates are errors `file:line:column: Study <name>: field.path: message`; nullopt then.
std::optional<Study> parseStudy(std::string_view text, const std::string& file, Diagnostics& diags);
/// Reads and parses a study file.
std::optional<Study> loadStudy(const std::string& path, Diagnostics& diags);

/// "X", "NV", "PIX", ... ordered closest first; -1 when unknown.
int distanceRank(std::string_view cls);

} // namespace drasim::planner
