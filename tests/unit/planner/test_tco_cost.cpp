// SPDX-License-Identifier: Apache-2.0
// cost: tco: a node costs its purchase plus the energy it draws over the years, with the terms
// read strictly and shown in every report.
#include <gtest/gtest.h>

#include "core/common/data_value.h"
#include "core/planner/study.h"
#include "core/planner/study_result.h"
#include "tests/unit/planner/study_errors.h"

using namespace drasim;
using namespace drasim::planner;
using planner_test_support::studyErrorsOf;

namespace tcocost {

std::string tcoStudy(const std::string& cost)
{
    return "apiVersion: drasim.dev/v1alpha1\nkind: Study\nmetadata: {name: own}\nspec:\n  scenario: s.yaml\n"
           "  candidates:\n"
           "    - {shape: a100-pcie-8gpu, name: a100, purchaseUSD: 200000, powerWatts: 6500}\n"
           "  serviceLevels:\n    - {metric: pending, max: 1h}\n"
        + cost;
}

} // namespace tcocost

TEST(TcoCost, IsPurchasePlusEnergyOverTheYears)
{
    Diagnostics diags;
    auto s
        = parseStudy(tcocost::tcoStudy("  cost: tco\n  tco: {years: 4, pue: 1.3, energyUSDPerKWh: 0.12}\n"),
            "study.yaml", diags);
    ASSERT_TRUE(s) << diags.formatAll();
    EXPECT_EQ(s->cost, CostBasis::Tco);
    EXPECT_EQ(s->tco.years, 4);
    EXPECT_EQ(s->tco.pue, 1.3);
    EXPECT_EQ(s->tco.energyUsdPerKwh, 0.12);
    std::vector<PricedCandidate> cands(1);
    cands[0].name = "a100";
    cands[0].purchaseUsd = 200000;
    cands[0].powerWatts = 6500;
    cands[0].ownedUnits = 1;
    // 6.5 kW x 1.3 x 8760 h x 4 years x $0.12 = $35,530.56 of energy per node.
    EXPECT_NEAR(nodeCost(cands[0], CostBasis::Tco, 0, s->tco), 235530.56, 1e-6);
    EXPECT_NEAR(footprint(Mix { 2 }, cands, CostBasis::Tco, 0, s->tco).costUsd, 2 * 235530.56, 1e-6);

    StudyResult r;
    r.study = "own";
    r.cost = CostBasis::Tco;
    r.tco = s->tco;
    r.candidates = cands;
    r.levels.resize(1);
    r.levels[0].metric = Metric::Pending;
    r.levels[0].limit = 3600;
    const std::string text = formatText(r);
    EXPECT_NE(text.find("cost basis: total cost of ownership over 4 years: purchase + power x PUE 1.3 x "
                        "8760 h/year x $0.12/kWh\n  a100: $235,531 a node ($200,000 purchase, 6.5 kW)\n"),
        std::string::npos)
        << text;
    const std::string json = toJson(toData(r), 0);
    EXPECT_NE(json.find("\"cost\":\"tco\",\"tco\":{\"years\":4,\"pue\":1.3,\"energyUSDPerKWh\":0.12}"),
        std::string::npos)
        << json;
    EXPECT_NE(json.find("\"tcoUSDPerNode\":235530.56"), std::string::npos) << json;
}

TEST(TcoCost, TermsAreCheckedWithLocatedErrors)
{
    EXPECT_EQ(studyErrorsOf(tcocost::tcoStudy("  cost: tco\n")),
        "study.yaml:10:9: Study own: spec.tco: Required value: cost: tco needs years, pue and "
        "energyUSDPerKWh\n");
    EXPECT_EQ(studyErrorsOf(tcocost::tcoStudy("  tco: {years: 4, pue: 1.3, energyUSDPerKWh: 0.12}\n")),
        "study.yaml:10:8: Study own: spec.tco: Forbidden: only with cost: tco\n");
    EXPECT_EQ(
        studyErrorsOf(tcocost::tcoStudy("  cost: tco\n  tco: {years: 4, pue: 0.9, energyUSDPerKWh: 0.12}\n")),
        "study.yaml:11:24: Study own: spec.tco.pue: Invalid value: 0.9: must be between 1 and 10\n");
    EXPECT_EQ(studyErrorsOf(tcocost::tcoStudy("  cost: tco\n  tco: {years: 4, pue: 1.3}\n")),
        "study.yaml:11:8: Study own: spec.tco.energyUSDPerKWh: Required value\n");
    EXPECT_EQ(studyErrorsOf(tcocost::tcoStudy("  cost: leased\n")),
        "study.yaml:10:9: Study own: spec.cost: Unsupported value: \"leased\": supported values: \"hourly\", "
        "\"purchase\", \"tco\"\n");
}
