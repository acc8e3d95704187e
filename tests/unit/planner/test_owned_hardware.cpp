// SPDX-License-Identifier: Apache-2.0
// spec.owned: hardware a study owns already. Read and checked, standing in every mix at no cost,
// reported as what to buy on top; and the law that owning more never makes the answer dearer.
#include <random>

#include <gtest/gtest.h>

#include "core/common/data_value.h"
#include "core/planner/search.h"
#include "core/planner/study.h"
#include "core/planner/study_result.h"
#include "tests/unit/planner/study_errors.h"

using namespace drasim;
using namespace drasim::planner;
using planner_test_support::studyErrorsOf;

namespace ownedhw {

std::string ownedStudy(const std::string& owned)
{
    return "apiVersion: drasim.dev/v1alpha1\nkind: Study\nmetadata: {name: grow}\nspec:\n  scenario: s.yaml\n"
           "  candidates:\n"
           "    - {shape: a100-pcie-8gpu, name: a100, maxNodes: 6, purchaseUSD: 200000, powerWatts: 6500}\n"
           "    - {shape: dgx-h100, name: h100, maxNodes: 16, purchaseUSD: 300000, powerWatts: 10200,"
           " layout: {nodesPerRack: 4}, wholeRacks: true}\n"
           "  serviceLevels:\n    - {metric: pending, max: 1h}\n"
        + owned;
}

/// Feasible when the nodes standing (owned and bought) are at or above one of the generators.
class StandingOracle : public Oracle
{
public:
    StandingOracle(std::vector<Mix> generators, Mix owned)
        : m_generators(std::move(generators))
        , m_owned(std::move(owned))
    { }

    bool feasible(const Mix& bought) const
    {
        for (const Mix& g : m_generators) {
            bool above = true;
            for (size_t i = 0; i < bought.size(); ++i)
                above = above && bought[i] + m_owned[i] >= g[i];
            if (above)
                return true;
        }
        return false;
    }

    bool evaluate(const std::vector<Probe>& probes, std::vector<Evaluation>& out, Diagnostics&) override
    {
        out.clear();
        for (const auto& p : probes) {
            Evaluation e;
            e.mix = p.mix;
            e.load = p.load;
            SeedOutcome o;
            o.seed = 1;
            o.values = { feasible(p.mix) ? 60.0 : 7200.0 };
            e.seeds.push_back(o);
            out.push_back(std::move(e));
        }
        return true;
    }

private:
    std::vector<Mix> m_generators;
    Mix m_owned;
};

/// The recommendation's cost for candidates owning `owned` (nullopt: no mix meets the level).
std::optional<double> recommendedCost(
    std::vector<PricedCandidate> cands, const Mix& owned, const std::vector<Mix>& generators, double budget)
{
    SearchSpace space;
    for (size_t i = 0; i < cands.size(); ++i) {
        cands[i].ownedUnits = owned[i];
        space.maxNodes.push_back(cands[i].maxNodes - owned[i]);
    }
    space.loads = { 1.0 };
    space.levels.resize(1);
    space.levels[0].metric = Metric::Pending;
    space.levels[0].limit = 3600;
    Constraints limits;
    limits.budgetUsd = budget;
    space.cost = [cands](const Mix& m) { return footprint(m, cands, CostBasis::Purchase, 0).costUsd; };
    space.withinConstraints = [cands, limits](const Mix& m) {
        return withinConstraints(footprint(m, cands, CostBasis::Purchase, 0), limits);
    };
    StandingOracle oracle(generators, owned);
    SearchResult result;
    Diagnostics diags;
    EXPECT_TRUE(runSearch(space, oracle, Shard {}, diags, result)) << diags.formatAll();
    StudyResult h;
    h.candidates = cands;
    h.levels = space.levels;
    h.seeds = { 1 };
    const StudyResult r = summarize(result, space.loads, limits, h);
    if (!r.loads[0].recommended)
        return std::nullopt;
    return r.loads[0].mixes[*r.loads[0].recommended].footprint.costUsd;
}

} // namespace ownedhw

TEST(OwnedHardware, IsReadByCandidateName)
{
    Diagnostics diags;
    auto s = parseStudy(ownedhw::ownedStudy("  owned: {a100: 3, h100: 8}\n"), "study.yaml", diags);
    ASSERT_TRUE(s) << diags.formatAll();
    EXPECT_EQ(s->ownedNodes("a100"), 3);
    EXPECT_EQ(s->ownedNodes("h100"), 8);
    const auto priced = priceCandidates(*s, scenario::Scenario {}, diags);
    ASSERT_EQ(priced.size(), 2u) << diags.formatAll();
    EXPECT_EQ(priced[0].ownedUnits, 3);
    EXPECT_EQ(priced[1].ownedUnits, 2); // racks of 4
}

TEST(OwnedHardware, MistakesAreLocated)
{
    EXPECT_EQ(studyErrorsOf(ownedhw::ownedStudy("  owned: {v100: 2}\n")),
        "study.yaml:11:17: Study grow: spec.owned.v100: Not found: \"v100\": no candidate of that name "
        "(candidates: a100, h100)\n");
    EXPECT_EQ(studyErrorsOf(ownedhw::ownedStudy("  owned: {a100: -1}\n")),
        "study.yaml:11:17: Study grow: spec.owned.a100: Invalid value: -1: must be between 0 and 100000\n");
    EXPECT_EQ(studyErrorsOf(ownedhw::ownedStudy("  owned: {a100: 7}\n")),
        "study.yaml:11:17: Study grow: spec.owned.a100: Invalid value: 7: more than the candidate's "
        "maxNodes (6)\n");
    EXPECT_EQ(studyErrorsOf(ownedhw::ownedStudy("  owned: [a100]\n")),
        "study.yaml:11:10: Study grow: spec.owned: expected a map, got list\n");

    Diagnostics diags;
    auto s = parseStudy(ownedhw::ownedStudy("  owned: {h100: 6}\n"), "study.yaml", diags);
    ASSERT_TRUE(s) << diags.formatAll();
    EXPECT_EQ(priceCandidates(*s, scenario::Scenario {}, diags).size(), 1u);
    EXPECT_EQ(diags.formatAll(),
        "study.yaml:11:17: Study grow: spec.owned.h100: Invalid value: 6: h100 is bought in whole racks "
        "of 4 nodes; give a multiple of 4\n");
}

TEST(OwnedHardware, StandsInEveryMixAndCostsNothing)
{
    std::vector<PricedCandidate> cands(2);
    cands[0].name = "a100";
    cands[0].shape = "a100-pcie-8gpu";
    cands[0].purchaseUsd = 200000;
    cands[0].powerWatts = 6500;
    cands[0].rackSlots = 2;
    cands[0].ownedUnits = 3;
    cands[1].name = "h100";
    cands[1].shape = "dgx-h100";
    cands[1].purchaseUsd = 300000;
    cands[1].powerWatts = 10000;
    const MixFootprint f = footprint(Mix { 0, 2 }, cands, CostBasis::Purchase, 0);
    EXPECT_EQ(f.costUsd, 600000); // only what is bought
    EXPECT_EQ(f.powerWatts, 3 * 6500 + 2 * 10000); // owned nodes draw power too
    EXPECT_EQ(f.rackSlots, 3 * 2 + 2);
    EXPECT_EQ(f.nodes, 5);
    EXPECT_EQ(formatMix(Mix { 0, 2 }, cands), "h100=+2 (owns a100=3)");
    EXPECT_EQ(formatMix(Mix { 0, 0 }, cands), "nothing to buy (owns a100=3)");
    const auto s = scenarioForMix(scenario::Scenario {}, Mix { 1, 2 }, cands);
    ASSERT_EQ(s.nodePools.size(), 2u);
    EXPECT_EQ(s.nodePools[0].count, 4);
    EXPECT_EQ(s.nodePools[1].count, 2);
}

TEST(OwnedHardware, OwningMoreNeverMakesTheRecommendationDearer)
{
    // Power and rack limits count owned nodes too, so owning more can exhaust them; the law holds
    // under a budget, which counts only what is bought.
    std::mt19937 rng(20261206);
    for (int round = 0; round < 200; ++round) {
        const size_t shapes = 1 + rng() % 3;
        std::vector<PricedCandidate> cands(shapes);
        std::vector<Mix> generators(1 + rng() % 3, Mix(shapes));
        Mix less(shapes), more(shapes);
        for (size_t i = 0; i < shapes; ++i) {
            cands[i].name = "s" + std::to_string(i);
            cands[i].maxNodes = 2 + int(rng() % 8);
            cands[i].purchaseUsd = double(1 + rng() % 9) * 1000;
            for (Mix& g : generators)
                g[i] = int(rng() % (cands[i].maxNodes + 2)); // sometimes out of reach
            less[i] = int(rng() % (cands[i].maxNodes + 1));
            more[i] = less[i] + int(rng() % (cands[i].maxNodes - less[i] + 1));
        }
        const double budget = double(rng() % 40) * 1000;
        const auto before = ownedhw::recommendedCost(cands, less, generators, budget);
        const auto after = ownedhw::recommendedCost(cands, more, generators, budget);
        if (before) {
            ASSERT_TRUE(after) << "round " << round;
            EXPECT_LE(*after, *before) << "round " << round;
        }
    }
}

TEST(OwnedHardware, SaysPlainlyWhenNothingNeedsBuying)
{
    std::vector<PricedCandidate> cands(1);
    cands[0].name = "a100";
    cands[0].maxNodes = 6;
    cands[0].purchaseUsd = 200000;
    cands[0].ownedUnits = 3;
    StudyResult r;
    r.study = "grow";
    r.candidates = cands;
    r.levels.resize(1);
    r.levels[0].metric = Metric::Pending;
    r.levels[0].limit = 3600;
    r.seeds = { 1 };
    SearchResult search;
    Evaluation e;
    e.mix = Mix { 0 };
    SeedOutcome o;
    o.seed = 1;
    o.values = { 60 };
    e.seeds.push_back(o);
    search.byLoad = { { e } };
    search.probes = 1;
    const StudyResult out = summarize(search, { 1.0 }, Constraints {}, r);
    const std::string text = formatText(out);
    EXPECT_NE(text.find("recommended: nothing to buy (owns a100=3)  ($0, 0.0 kW, 3 rack slots, 3 nodes)\n"
                        "  the hardware owned meets every service level at this load: nothing to buy\n"),
        std::string::npos)
        << text;
    EXPECT_EQ(frontierCsv(out),
        "load,recommended,a100_owned,a100_buy,cost_usd,power_w,rack_slots,pending_max_s_min,"
        "pending_max_s_mean,pending_max_s_max,misses\n1,true,3,0,0.00,0,3,60,60,60,\n");
    const std::string json = toJson(toData(out), 0);
    EXPECT_NE(json.find("\"nodes\":{\"a100\":3},\"buy\":{\"a100\":0}"), std::string::npos) << json;
}
