// SPDX-License-Identifier: Apache-2.0
#pragma once

// A mix: how many nodes of each candidate shape, and what it costs in money, power and rack space.

#include <cstdint>
#include <string>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/planner/study.h"
#include "core/scenario/scenario.h"

namespace drasim::scenario {
struct LoadedCatalog;
}

namespace drasim::planner {

/// Counts bought, one per study candidate, in the study's order: nodes, or whole racks for a
/// candidate bought by the rack (PricedCandidate::nodesPerUnit). What the study owns already
/// (PricedCandidate::ownedUnits) stands in every mix on top of these counts.
using Mix = std::vector<int>;

/// A candidate with its prices and power settled (study value, else the catalog shape's).
struct PricedCandidate
{
    std::string name;
    std::string shape;
    int maxNodes = 0;
    double purchaseUsd = 0;
    double perHourUsd = 0;
    double powerWatts = 0;
    int rackSlots = 1;
    topology::RackLayout layout;
    int nodesPerUnit = 1; ///< nodes one count of a mix buys: the rack's with wholeRacks, else 1
    int ownedUnits = 0; ///< counts already owned (spec.owned), in the mix's units

    int nodes(int count) const { return count * nodesPerUnit; }
    int ownedNodes() const { return nodes(ownedUnits); }
    /// Nodes a mix's count stands for: the owned ones and those bought on top.
    int totalNodes(int count) const { return nodes(ownedUnits + count); }
};

/// Whether the study owns any node of its candidates (then mixes read "buy on top").
bool anyOwned(const std::vector<PricedCandidate>& candidates);

/// Looks every candidate's shape up in the scenario's catalog (its `catalog` folder or the
/// built-in one, plus its `shapes` files). Unknown shapes are errors located at the candidate.
/// `catalog`: that catalog read already (scenario::loadScenarioCatalog of `scenario`); null: read it.
std::vector<PricedCandidate> priceCandidates(const Study& study, const scenario::Scenario& scenario,
    Diagnostics& diags, const scenario::LoadedCatalog* catalog = nullptr);

struct MixFootprint
{
    double costUsd = 0; ///< of the nodes bought: purchase, or hourly price x the simulated duration
    double powerWatts = 0; ///< owned and bought nodes
    int64_t rackSlots = 0; ///< owned and bought nodes
    int64_t nodes = 0; ///< owned and bought
};

/// `tco` is read with CostBasis::Tco only.
MixFootprint footprint(const Mix& mix, const std::vector<PricedCandidate>& candidates, CostBasis basis,
    double durationHours, const TcoTerms& tco = {});
/// What one node of a candidate costs on a basis: its purchase, its hourly price x the hours, or
/// its total cost of ownership.
double nodeCost(const PricedCandidate& c, CostBasis basis, double durationHours, const TcoTerms& tco);
/// Whether a mix respects the study's budget, power and rack limits (maxNodes bounds the search).
bool withinConstraints(const MixFootprint& f, const Constraints& c);

/// "h100=3 l40s=0", in nodes; the key used in stores and shard files is mixKey ("3,0"), in counts.
/// With owned nodes, what is bought on top and what is owned: "h100=+2 (owns a100=3)", or
/// "nothing to buy (owns a100=3)".
std::string formatMix(const Mix& mix, const std::vector<PricedCandidate>& candidates);
std::string mixKey(const Mix& mix);
/// Parses mixKey's form; false when malformed or of another length.
bool parseMixKey(const std::string& text, size_t size, Mix& out);

/// The scenario with its node pools replaced by the mix and the owned nodes (one pool per candidate with
/// nodes; named after the candidate, priced per hour as the study says).
scenario::Scenario scenarioForMix(
    const scenario::Scenario& base, const Mix& mix, const std::vector<PricedCandidate>& candidates);

} // namespace drasim::planner
