// SPDX-License-Identifier: Apache-2.0
#include "core/planner/mix.h"

#include <algorithm>
#include <cstdlib>

#include "core/scenario/prepare.h"
#include "core/topology/catalog.h"
#include "core/topology/shape_reader.h"

namespace drasim::planner {

std::vector<PricedCandidate> priceCandidates(const Study& study, const scenario::Scenario& scenario,
    Diagnostics& diags, const scenario::LoadedCatalog* given)
{
    // The same lookup preparation does: extra shape files first, then the catalog folder.
    std::shared_ptr<const scenario::LoadedCatalog> read;
    if (!given)
        read = scenario::loadScenarioCatalog(scenario);
    const std::string& dir = given ? given->directory : read->directory;
    const topology::Catalog& catalog = given ? given->catalog : read->catalog;
    std::vector<topology::NodeShape> extra;
    for (const auto& f : scenario.shapeFiles) {
        auto more = topology::loadNodeShapeFile(scenario.resolvedPath(f), diags);
        extra.insert(extra.end(), more.begin(), more.end());
    }
    auto find = [&](const std::string& name) -> const topology::NodeShape* {
        for (const auto& s : extra)
            if (s.name == name)
                return &s;
        return catalog.find(name);
    };

    std::vector<PricedCandidate> out;
    for (size_t i = 0; i < study.candidates.size(); ++i) {
        const CandidateShape& c = study.candidates[i];
        const topology::NodeShape* shape = find(c.shape);
        if (!shape) {
            diags.error(c.pos, "Study", study.name, "spec.candidates[" + std::to_string(i) + "].shape",
                "Not found: \"" + c.shape + "\": no such node shape in the scenario's catalog"
                    + (dir.empty() ? std::string(" (no catalog directory found)") : " " + dir));
            continue;
        }
        const std::string path = "spec.candidates[" + std::to_string(i) + "]";
        const int perUnit = c.wholeRacks ? topology::nodesPerRack(*shape, c.layout) : 1;
        std::string why = topology::rackLayoutError(*shape, c.layout, c.name, c.maxNodes);
        if (!why.empty()) {
            diags.error(c.pos, "Study", study.name, path + ".layout", why);
            continue;
        }
        if (perUnit == 0 || c.maxNodes < perUnit) {
            diags.error(c.pos, "Study", study.name, path + ".wholeRacks",
                perUnit == 0
                    ? "Invalid value: true: " + c.shape + " has no rack of its own; give layout.nodesPerRack"
                    : "Invalid value: true: maxNodes " + std::to_string(c.maxNodes)
                        + " is less than one rack of " + std::to_string(perUnit) + " nodes");
            continue;
        }
        const int owned = study.ownedNodes(c.name);
        if (owned % perUnit != 0) {
            const auto it = std::find_if(study.owned.begin(), study.owned.end(),
                [&](const OwnedNodes& o) { return o.candidate == c.name; });
            diags.error(it->pos, "Study", study.name, "spec.owned." + c.name,
                "Invalid value: " + std::to_string(owned) + ": " + c.name + " is bought in whole racks of "
                    + std::to_string(perUnit) + " nodes; give a multiple of " + std::to_string(perUnit));
            continue;
        }
        PricedCandidate p;
        p.name = c.name;
        p.ownedUnits = owned / perUnit;
        p.shape = c.shape;
        p.nodesPerUnit = perUnit;
        p.maxNodes = c.maxNodes;
        p.purchaseUsd = c.purchaseUsd.value_or(shape->price.purchaseUsd);
        p.perHourUsd = c.perHourUsd.value_or(shape->price.perHourUsd);
        p.powerWatts = c.powerWatts.value_or(double(shape->powerWatts));
        p.rackSlots = c.rackSlots;
        p.layout = c.layout;
        out.push_back(std::move(p));
    }
    return out;
}

bool anyOwned(const std::vector<PricedCandidate>& candidates)
{
    return std::any_of(
        candidates.begin(), candidates.end(), [](const PricedCandidate& c) { return c.ownedUnits > 0; });
}

double nodeCost(const PricedCandidate& c, CostBasis basis, double durationHours, const TcoTerms& tco)
{
    switch (basis) {
    case CostBasis::Purchase:
        return c.purchaseUsd;
    case CostBasis::Hourly:
        return c.perHourUsd * durationHours;
    case CostBasis::Tco:
        return tco.perNode(c.purchaseUsd, c.powerWatts);
    }
    return 0;
}

MixFootprint footprint(const Mix& mix, const std::vector<PricedCandidate>& candidates, CostBasis basis,
    double durationHours, const TcoTerms& tco)
{
    MixFootprint f;
    for (size_t i = 0; i < mix.size() && i < candidates.size(); ++i) {
        const PricedCandidate& c = candidates[i];
        const double bought = c.nodes(mix[i]);
        const int total = c.totalNodes(mix[i]);
        f.costUsd += bought * nodeCost(c, basis, durationHours, tco);
        f.powerWatts += double(total) * c.powerWatts;
        f.rackSlots += int64_t(total) * c.rackSlots;
        f.nodes += total;
    }
    return f;
}

bool withinConstraints(const MixFootprint& f, const Constraints& c)
{
    return (!c.budgetUsd || f.costUsd <= *c.budgetUsd) && (!c.powerWatts || f.powerWatts <= *c.powerWatts)
        && (!c.rackSlots || f.rackSlots <= *c.rackSlots);
}

namespace {

/// "h100=+2 (owns a100=3)": the counts bought on top (those above 0) and what is owned.
std::string formatOnTop(const Mix& mix, const std::vector<PricedCandidate>& candidates)
{
    std::string bought, owned;
    for (size_t i = 0; i < mix.size() && i < candidates.size(); ++i) {
        const PricedCandidate& c = candidates[i];
        if (mix[i] > 0)
            bought += (bought.empty() ? "" : " ") + c.name + "=+" + std::to_string(c.nodes(mix[i]));
        if (c.ownedUnits > 0)
            owned += (owned.empty() ? "" : " ") + c.name + "=" + std::to_string(c.ownedNodes());
    }
    return (bought.empty() ? std::string("nothing to buy") : bought) + " (owns " + owned + ")";
}

} // namespace

std::string formatMix(const Mix& mix, const std::vector<PricedCandidate>& candidates)
{
    if (anyOwned(candidates))
        return formatOnTop(mix, candidates);
    std::string out;
    for (size_t i = 0; i < mix.size() && i < candidates.size(); ++i) {
        if (!out.empty())
            out += ' ';
        out += candidates[i].name + "=" + std::to_string(candidates[i].nodes(mix[i]));
    }
    return out;
}

std::string mixKey(const Mix& mix)
{
    std::string out;
    for (size_t i = 0; i < mix.size(); ++i) {
        if (i)
            out += ',';
        out += std::to_string(mix[i]);
    }
    return out;
}

bool parseMixKey(const std::string& text, size_t size, Mix& out)
{
    out.clear();
    size_t start = 0;
    while (start <= text.size()) {
        size_t comma = text.find(',', start);
        std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        char* end = nullptr;
        long v = std::strtol(part.c_str(), &end, 10);
        if (part.empty() || *end != '\0' || v < 0 || v > 100000)
            return false;
        out.push_back(int(v));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return out.size() == size;
}

namespace {

/// The failure settings of a candidate's pool: those of the base scenario's pool of the same
/// name, or else of the first of the same shape (a mix without the pool has no failures of it).
/// Those of its device models (spec.cluster.failures.byDeviceModel, which the mix's scenario
/// keeps) join when the mix is prepared, if these give the pool no `failures:` of its own.
sim::PoolFailures failuresOf(const scenario::Scenario& base, const PricedCandidate& candidate)
{
    for (const auto& p : base.nodePools)
        if (p.name == candidate.name)
            return p.failures;
    for (const auto& p : base.nodePools)
        if (p.shape == candidate.shape)
            return p.failures;
    return {};
}

} // namespace

scenario::Scenario scenarioForMix(
    const scenario::Scenario& base, const Mix& mix, const std::vector<PricedCandidate>& candidates)
{
    scenario::Scenario s = base;
    s.nodePools.clear();
    for (size_t i = 0; i < mix.size() && i < candidates.size(); ++i) {
        if (candidates[i].totalNodes(mix[i]) == 0)
            continue;
        scenario::NodePoolSpec pool;
        pool.name = candidates[i].name;
        pool.shape = candidates[i].shape;
        pool.count = candidates[i].totalNodes(mix[i]);
        pool.namePrefix = candidates[i].name;
        pool.pricePerHour = candidates[i].perHourUsd;
        pool.layout = candidates[i].layout;
        pool.failures = failuresOf(base, candidates[i]);
        pool.pos = base.pos;
        pool.path = "spec.cluster.nodePools[" + std::to_string(s.nodePools.size()) + "]";
        s.nodePools.push_back(std::move(pool));
    }
    return s;
}

} // namespace drasim::planner
