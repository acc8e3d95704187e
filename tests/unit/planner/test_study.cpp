// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/planner/study.h"
#include "tests/unit/planner/study_errors.h"

using namespace drasim;
using namespace drasim::planner;
using planner_test_support::studyErrorsOf;

namespace {

const char* const kGood = R"(apiVersion: drasim.dev/v1alpha1
kind: Study
metadata: {name: capacity}
spec:
  scenario: base/scenario.yaml
  cost: hourly
  candidates:
    - {shape: dgx-h100, name: h100, maxNodes: 16, purchaseUSD: 300000, powerWatts: 10000, rackSlots: 8}
    - {shape: l40s-pcie-4gpu}
  serviceLevels:
    - {metric: wait, percentile: 99, workload: training, max: 10m}
    - {metric: pending, max: 1h}
    - {metric: neverScheduled, max: 1%}
    - {metric: placement, within: PIX, min: 95%}
  constraints: {budgetUSD: 2000000, powerWatts: 50000, rackSlots: 40}
  seeds: [1, 2, 3]
  loadGrowth: [10%, 0.25, 50%]
)";

std::string replace(std::string text, const std::string& from, const std::string& to)
{
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
}

} // namespace

TEST(PlannerStudy, ReadsEveryField)
{
    Diagnostics diags;
    auto s = parseStudy(kGood, "dir/study.yaml", diags);
    ASSERT_TRUE(s) << diags.formatAll();
    EXPECT_EQ(s->name, "capacity");
    EXPECT_EQ(s->scenarioPath(), "dir/base/scenario.yaml");
    EXPECT_EQ(s->cost, CostBasis::Hourly);
    ASSERT_EQ(s->candidates.size(), 2u);
    EXPECT_EQ(s->candidates[0].name, "h100");
    EXPECT_EQ(s->candidates[0].maxNodes, 16);
    EXPECT_EQ(*s->candidates[0].purchaseUsd, 300000);
    EXPECT_FALSE(s->candidates[0].perHourUsd);
    EXPECT_EQ(s->candidates[0].rackSlots, 8);
    EXPECT_EQ(s->candidates[1].name, "l40s-pcie-4gpu"); // the shape name by default
    ASSERT_EQ(s->serviceLevels.size(), 4u);
    EXPECT_EQ(s->serviceLevels[0].percentile, 99);
    EXPECT_EQ(s->serviceLevels[0].limit, 600);
    EXPECT_EQ(s->serviceLevels[0].describe(), "p99 wait of training <= 10m");
    EXPECT_EQ(s->serviceLevels[1].limit, 3600);
    EXPECT_DOUBLE_EQ(s->serviceLevels[2].limit, 0.01);
    EXPECT_TRUE(s->serviceLevels[3].lowerBound());
    EXPECT_TRUE(s->serviceLevels[3].met(0.95));
    EXPECT_FALSE(s->serviceLevels[3].met(0.94));
    EXPECT_EQ(s->serviceLevels[3].column(), "placement_pix");
    EXPECT_EQ(*s->constraints.rackSlots, 40);
    EXPECT_EQ(s->seeds, (std::vector<uint64_t> { 1, 2, 3 }));
    EXPECT_EQ(s->loadGrowth, (std::vector<double> { 0.10, 0.25, 0.50 }));
}

TEST(PlannerStudy, ErrorsCarryFileLineColumnAndFieldPath)
{
    EXPECT_EQ(studyErrorsOf(replace(kGood, "maxNodes: 16", "maxNodes: 0")),
        "study.yaml:8:47: Study capacity: spec.candidates[0].maxNodes: Invalid value: 0: must be "
        "between 1 "
        "and 100000\n");
    EXPECT_EQ(studyErrorsOf(replace(kGood, "percentile: 99", "percentil: 99")),
        "study.yaml:11:22: Study capacity: spec.serviceLevels[0].percentil: unknown field "
        "\"percentil\"; "
        "expected one of: metric, percentile, workload, priorityClass, max\n");
    EXPECT_NE(studyErrorsOf(replace(kGood, "metric: pending", "metric: latency"))
                  .find("spec.serviceLevels[1].metric: Unsupported value: \"latency\": supported values: "
                        "\"wait\", \"pending\", \"neverScheduled\", \"placement\""),
        std::string::npos);
    EXPECT_NE(studyErrorsOf(replace(kGood, "max: 1%", "max: 150%"))
                  .find("spec.serviceLevels[2].max: Invalid value: \"150%\""),
        std::string::npos);
    EXPECT_NE(studyErrorsOf(replace(kGood, "within: PIX", "within: NEAR"))
                  .find("spec.serviceLevels[3].within: Unsupported value"),
        std::string::npos);
    EXPECT_NE(studyErrorsOf(replace(kGood, "max: 10m", "max: soon"))
                  .find("spec.serviceLevels[0].max: invalid duration \"soon\""),
        std::string::npos);
    EXPECT_NE(studyErrorsOf(replace(kGood, "seeds: [1, 2, 3]", "seeds: [1, 2, 1]"))
                  .find("spec.seeds[2]: Duplicate value: 1"),
        std::string::npos);
    EXPECT_NE(
        studyErrorsOf(replace(kGood, "- {shape: l40s-pcie-4gpu}", "- {shape: l40s-pcie-4gpu, name: h100}"))
            .find("spec.candidates[1].name: Duplicate value: \"h100\""),
        std::string::npos);
    EXPECT_NE(studyErrorsOf(replace(kGood, "cost: hourly", "cost: leased"))
                  .find("spec.cost: Unsupported value: \"leased\""),
        std::string::npos);
    EXPECT_NE(studyErrorsOf(replace(kGood, "kind: Study", "kind: Scenario"))
                  .find("study.yaml:2:7: Study capacity: kind"),
        std::string::npos);
    EXPECT_NE(studyErrorsOf(replace(kGood, "loadGrowth: [10%, 0.25, 50%]", "loadGrowth: [0%]"))
                  .find("spec.loadGrowth[0]: Invalid value: \"0%\""),
        std::string::npos);
}

TEST(PlannerStudy, MissingRequiredFields)
{
    const std::string errors
        = studyErrorsOf("apiVersion: drasim.dev/v1alpha1\nkind: Study\nmetadata: {name: x}\nspec: {}\n");
    EXPECT_NE(errors.find("spec.scenario: Required value"), std::string::npos) << errors;
    EXPECT_NE(errors.find("spec.candidates: Required value"), std::string::npos) << errors;
    EXPECT_NE(errors.find("spec.serviceLevels: Required value"), std::string::npos) << errors;
    EXPECT_NE(studyErrorsOf(replace(kGood, "{metric: pending, max: 1h}", "{metric: pending}"))
                  .find("spec.serviceLevels[1].max: Required value"),
        std::string::npos);
    EXPECT_NE(studyErrorsOf("").find("empty document: expected kind: Study"), std::string::npos);
    EXPECT_NE(
        studyErrorsOf("[1, 2]").find("study.yaml:1:1: Study: expected a map, got list"), std::string::npos);
}

// The study reads like every other drasim document: the same sentence for the same mistake.
TEST(PlannerStudy, MistakesAreWordedLikeTheOtherDocuments)
{
    EXPECT_EQ(studyErrorsOf(replace(kGood, "max: 10m", "max: 10 minutes")),
        "study.yaml:11:63: Study capacity: spec.serviceLevels[0].max: invalid duration \"10 minutes\": "
        "unknown unit \" minutes\"; expected seconds or a duration like 250ms, 90s, 15m, 2h, 1d or "
        "1h30m\n");
    EXPECT_EQ(studyErrorsOf(replace(kGood, "seeds: [1, 2, 3]", "seeds: {first: 1}")),
        "study.yaml:16:10: Study capacity: spec.seeds: expected a list, got map\n");
    EXPECT_EQ(studyErrorsOf(replace(kGood, "seeds: [1, 2, 3]", "seeds: []")),
        "study.yaml:16:10: Study capacity: spec.seeds: Required value: at least one seed\n");
    EXPECT_EQ(studyErrorsOf(replace(kGood, "seeds: [1, 2, 3]", "seeds: [-1]")),
        "study.yaml:16:11: Study capacity: spec.seeds[0]: Invalid value: -1: must be greater than or equal "
        "to 0\n");
    EXPECT_EQ(studyErrorsOf(replace(kGood, "purchaseUSD: 300000", "purchaseUSD: \"300000\"")),
        "study.yaml:8:64: Study capacity: spec.candidates[0].purchaseUSD: expected a number, got string "
        "\"300000\"\n");
    EXPECT_EQ(studyErrorsOf(replace(kGood, "budgetUSD: 2000000", "budgetUSD: .inf")),
        "study.yaml:15:28: Study capacity: spec.constraints.budgetUSD: Invalid value: \".inf\": must be a "
        "finite number\n");
    EXPECT_EQ(studyErrorsOf(replace(kGood, "percentile: 99", "percentile: 0")),
        "study.yaml:11:34: Study capacity: spec.serviceLevels[0].percentile: Invalid value: \"0\": must be "
        "above 0 and at most 100\n");
    EXPECT_EQ(studyErrorsOf(replace(kGood, "within: PIX", "within: NEAR")),
        "study.yaml:14:35: Study capacity: spec.serviceLevels[3].within: Unsupported value: \"NEAR\": "
        "supported values: \"X\", \"NV\", \"PIX\", \"PXB\", \"PHB\", \"NODE\", \"SYS\"\n");
    EXPECT_EQ(studyErrorsOf(replace(kGood, "metadata: {name: capacity}", "metadata: {name: Capacity}")),
        "study.yaml:3:18: Study Capacity: metadata.name: Invalid value: \"Capacity\": must be a lowercase "
        "RFC 1123 label\n");
    EXPECT_EQ(studyErrorsOf(kGood + std::string("---\nkind: Study\n")),
        "study.yaml:19:1: Study: a study file holds exactly one document\n");
}

TEST(PlannerStudy, MissingFileIsAnError)
{
    Diagnostics diags;
    EXPECT_FALSE(loadStudy("no/such/study.yaml", diags));
    EXPECT_NE(
        diags.formatAll().find("no/such/study.yaml: Study: cannot read file: No such file or directory"),
        std::string::npos)
        << diags.formatAll();
}
