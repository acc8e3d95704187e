// SPDX-License-Identifier: Apache-2.0
// The scoring policy as a dimension of a study (spec.policies): reading it, and the law that a
// policy's part of the comparison is the plain study under that policy.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/planner/policy_study.h"

namespace policy_study_tests {

using namespace drasim;
using namespace drasim::planner;

/// A study document on the small scenario with `policies` as its spec.policies line.
std::string studyText(const std::string& policies)
{
    return "apiVersion: drasim.dev/v1alpha1\n"
           "kind: Study\n"
           "metadata: {name: small}\n"
           "spec:\n"
           "  scenario: scenario.yaml\n"
           "  candidates:\n"
           "    - {shape: dgx-h100, name: h100, maxNodes: 8}\n"
           "    - {shape: l40s-pcie-4gpu, name: l40s, maxNodes: 12}\n"
           "  serviceLevels:\n"
           "    - {metric: wait, percentile: 95, max: 10m}\n"
           "    - {metric: pending, max: 1h}\n"
           "  seeds: [1]\n"
           "  loadGrowth: [25%]\n"
        + policies;
}

std::optional<Plan> planWith(const std::string& policies, Diagnostics& diags)
{
    const std::string file = std::string(DRASIM_SOURCE_DIR) + "/tests/unit/planner/data/small/policies.yaml";
    auto study = parseStudy(studyText(policies), file, diags);
    return study ? preparePlan(*study, diags) : std::nullopt;
}

std::string errorsOf(const std::string& policies)
{
    Diagnostics diags;
    EXPECT_FALSE(parseStudy(studyText(policies), "study.yaml", diags).has_value());
    return diags.formatAll();
}

/// Records every call, for the progress test.
class RecordingProgress : public ProgressSink
{
public:
    void progress(double fraction, std::string_view stage) override
    {
        calls.emplace_back(fraction, std::string(stage));
    }
    std::vector<std::pair<double, std::string>> calls;
};

TEST(PlannerPolicies, AreReadInOrderWithAliases)
{
    Diagnostics diags;
    auto s = parseStudy(studyText("  policies: [fgd, bin-packing, least-allocated]\n"), "study.yaml", diags);
    ASSERT_TRUE(s) << diags.formatAll();
    EXPECT_EQ(s->policies,
        (std::vector<scheduler::ScoringPolicy> { scheduler::ScoringPolicy::Fgd,
            scheduler::ScoringPolicy::MostAllocated, scheduler::ScoringPolicy::LeastAllocated }));
    EXPECT_EQ(s->policiesPos.line, 14);
    auto none = parseStudy(studyText(""), "study.yaml", diags);
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->policies.empty());
}

TEST(PlannerPolicies, BadListsAreLocatedErrors)
{
    EXPECT_NE(errorsOf("  policies: [fgd, tetris]\n")
                  .find("study.yaml:14:19: Study small: spec.policies[1]: Unsupported value: \"tetris\": "
                        "supported values: \"best-fit\""),
        std::string::npos)
        << errorsOf("  policies: [fgd, tetris]\n");
    EXPECT_NE(
        errorsOf("  policies: [most-allocated, bin-packing]\n")
            .find("study.yaml:14:30: Study small: spec.policies[1]: Duplicate value: \"most-allocated\""),
        std::string::npos)
        << errorsOf("  policies: [most-allocated, bin-packing]\n");
    EXPECT_NE(errorsOf("  policies: []\n").find("spec.policies: Required value: at least one scoring policy"),
        std::string::npos);
    EXPECT_NE(errorsOf("  policies: fgd\n").find("spec.policies"), std::string::npos);
    EXPECT_NE(errorsOf("  policies: [{name: fgd}]\n").find("spec.policies[0]"), std::string::npos);
}

// The law: a comparison of one policy is the plain study, when that policy is the scenario's.
TEST(PlannerPolicies, OnePolicyThatIsTheScenariosEqualsThePlainStudy)
{
    Diagnostics diags;
    auto plain = planWith("", diags);
    auto compared = planWith("  policies: [default]\n", diags);
    ASSERT_TRUE(plain && compared) << diags.formatAll();
    ASSERT_EQ(plain->scenario.scoring, "default");
    PlanOptions options;
    options.threads = 2;
    PlanStats plainStats, comparedStats;
    auto expected = runPlan(*plain, options, diags, &plainStats);
    auto got = runPolicyPlans(*compared, options, diags, &comparedStats);
    ASSERT_TRUE(expected && got) << diags.formatAll();
    ASSERT_EQ(got->policies.size(), 1u);
    EXPECT_EQ(got->policies[0].policy, scheduler::ScoringPolicy::Default);
    EXPECT_EQ(toJson(toData(got->policies[0].result)), toJson(toData(*expected)));
    EXPECT_EQ(comparedStats.simulationsRun, plainStats.simulationsRun);
}

// Each policy's part equals the plain study with the scenario set to that policy: the searches
// share nothing, whatever else is compared beside them.
TEST(PlannerPolicies, EachPolicyEqualsThePlainStudyUnderIt)
{
    Diagnostics diags;
    auto compared = planWith("  policies: [most-allocated, least-allocated]\n", diags);
    ASSERT_TRUE(compared) << diags.formatAll();
    PlanOptions options;
    options.threads = 2;
    auto got = runPolicyPlans(*compared, options, diags);
    ASSERT_TRUE(got) << diags.formatAll();
    ASSERT_EQ(got->policies.size(), 2u);
    for (const auto& [policy, name] :
        { std::pair { 0, "most-allocated" }, std::pair { 1, "least-allocated" } }) {
        auto single = planWith("", diags);
        ASSERT_TRUE(single);
        overrideScoring(*single, name, single->scenario.tieBreak, name);
        auto expected = runPlan(*single, options, diags);
        ASSERT_TRUE(expected) << diags.formatAll();
        EXPECT_EQ(toJson(toData(got->policies[size_t(policy)].result)), toJson(toData(*expected))) << name;
    }
}

TEST(PlannerPolicies, ReportsNameEveryPolicy)
{
    Diagnostics diags;
    auto plan = planWith("  policies: [most-allocated, least-allocated]\n", diags);
    ASSERT_TRUE(plan) << diags.formatAll();
    PlanOptions options;
    options.threads = 2;
    auto got = runPolicyPlans(*plan, options, diags);
    ASSERT_TRUE(got) << diags.formatAll();

    const std::string text = formatPolicyText(*got);
    EXPECT_NE(text.find(", 2 scoring policies; "), std::string::npos) << text;
    EXPECT_NE(text.find("scoring policies compared (most-allocated, least-allocated)"), std::string::npos);
    EXPECT_NE(text.find("\ntoday's load:\n  most-allocated   "), std::string::npos) << text;
    EXPECT_NE(text.find("\n  least-allocated  "), std::string::npos) << text;
    EXPECT_NE(text.find("versus most-allocated today: "), std::string::npos) << text;
    EXPECT_NE(text.find("== scoring policy most-allocated ==\nstudy small"), std::string::npos);
    EXPECT_NE(text.find("== scoring policy least-allocated ==\nstudy small"), std::string::npos);

    const std::string csv = policyFrontierCsv(*got);
    EXPECT_EQ(csv.rfind("policy,load,recommended,h100,l40s,cost_usd,", 0), 0u) << csv;
    EXPECT_EQ(csv.find("policy,", 1), std::string::npos) << "one header";
    const std::string first = frontierCsv(got->policies[0].result);
    const std::string firstRow
        = first.substr(first.find('\n') + 1, first.find('\n', first.find('\n') + 1) - first.find('\n'));
    EXPECT_NE(csv.find("\nmost-allocated," + firstRow), std::string::npos) << csv;
    EXPECT_NE(csv.find("\nleast-allocated,"), std::string::npos) << csv;

    const DataValue data = toData(*got);
    ASSERT_TRUE(data.find("policies") && data.find("policies")->isList());
    const auto& list = data.find("policies")->asList();
    ASSERT_EQ(list.size(), 2u);
    ASSERT_TRUE(list[1].find("policy"));
    EXPECT_EQ(list[1].find("policy")->asString(), "least-allocated");
    ASSERT_TRUE(list[0].find("result"));
    EXPECT_EQ(toJson(*list[0].find("result")), toJson(toData(got->policies[0].result)));
}

/// The comparison's lines of `text` at load level `label` ("today's load"), in order.
std::vector<std::string> comparisonLines(const std::string& text, const std::string& label)
{
    std::vector<std::string> lines;
    size_t at = text.find("\n" + label + ":\n");
    if (at == std::string::npos)
        return lines;
    at = text.find('\n', at + 1) + 1;
    for (size_t end = text.find('\n', at); end != std::string::npos && text.compare(at, 2, "  ") == 0;
         at = end + 1, end = text.find('\n', at))
        lines.push_back(text.substr(at, end - at));
    return lines;
}

// The rows a table shows are the figures the text prints, word for word, row by row.
TEST(PlannerPolicies, ComparisonRowsAreTheTextsFigures)
{
    Diagnostics diags;
    auto plan = planWith("  policies: [most-allocated, least-allocated]\n", diags);
    ASSERT_TRUE(plan) << diags.formatAll();
    PlanOptions options;
    options.threads = 2;
    auto got = runPolicyPlans(*plan, options, diags);
    ASSERT_TRUE(got) << diags.formatAll();
    const std::string text = formatPolicyText(*got);
    for (size_t level = 0; level < 2; ++level) {
        const auto rows = policyComparison(*got, level);
        const auto lines = comparisonLines(text, level == 0 ? "today's load" : "load +25%");
        ASSERT_EQ(rows.size(), 2u);
        ASSERT_EQ(lines.size(), 2u) << text;
        for (size_t i = 0; i < 2; ++i) {
            const PolicyResult& p = got->policies[i];
            const LoadResult& lr = p.result.loads[level];
            EXPECT_EQ(rows[i].policy, p.policy);
            ASSERT_TRUE(rows[i].recommended && lr.recommended) << text;
            const MixResult& rec = lr.mixes[*lr.recommended];
            EXPECT_EQ(rows[i].nodes, rec.footprint.nodes);
            EXPECT_EQ(rows[i].costUsd, rec.footprint.costUsd);
            EXPECT_EQ(lines[i].rfind("  " + std::string(scheduler::scoringPolicyName(p.policy)) + " ", 0), 0u)
                << lines[i];
            EXPECT_NE(lines[i].find("  " + rows[i].mix + "  (" + rows[i].cost + ")"), std::string::npos)
                << lines[i];
            if (level == 0 && i == 0) {
                EXPECT_EQ(rows[i].versus, "") << "the baseline itself";
                EXPECT_EQ(lines[i].find("versus"), std::string::npos) << lines[i];
            } else {
                ASSERT_FALSE(rows[i].versus.empty());
                EXPECT_TRUE(lines[i].ends_with("  versus most-allocated today: " + rows[i].versus))
                    << lines[i];
            }
        }
    }

    // A policy without a mix at a level says why, with no figures; without the baseline's mix
    // today there is nothing to compare against.
    PolicyStudyResult none = *got;
    none.policies[1].result.loads[1].recommended.reset();
    const auto missing = policyComparison(none, 1)[1];
    EXPECT_FALSE(missing.recommended);
    EXPECT_EQ(missing.mix, "no mix within maxNodes and the constraints meets every service level");
    EXPECT_EQ(missing.cost, "");
    EXPECT_EQ(missing.costUsd, 0.0);
    EXPECT_EQ(missing.nodes, 0);
    EXPECT_EQ(missing.versus, "");
    EXPECT_NE(formatPolicyText(none).find("\n  least-allocated  " + missing.mix + "\n"), std::string::npos);
    none.policies[0].result.loads[0].recommended.reset();
    for (const PolicyComparison& row : policyComparison(none, 1))
        EXPECT_EQ(row.versus, "") << scheduler::scoringPolicyName(row.policy);
    EXPECT_TRUE(policyComparison(PolicyStudyResult {}, 0).empty());
}

TEST(PlannerPolicies, ProgressCoversEveryPolicyInTurn)
{
    Diagnostics diags;
    auto plan = planWith("  policies: [most-allocated, least-allocated]\n", diags);
    ASSERT_TRUE(plan) << diags.formatAll();
    RecordingProgress progress;
    PlanOptions options;
    options.threads = 1;
    options.progress = &progress;
    ASSERT_TRUE(runPolicyPlans(*plan, options, diags)) << diags.formatAll();
    ASSERT_FALSE(progress.calls.empty());
    EXPECT_EQ(progress.calls.front().second.rfind("most-allocated: ", 0), 0u)
        << progress.calls.front().second;
    EXPECT_LE(progress.calls.front().first, 0.5);
    EXPECT_EQ(progress.calls.back(), std::make_pair(1.0, std::string("least-allocated: done")));
    for (const auto& [fraction, stage] : progress.calls) {
        if (stage.rfind("least-allocated: ", 0) == 0) {
            EXPECT_GE(fraction, 0.5) << stage;
        }
    }
}

TEST(PlannerPolicies, APlainRunOfAComparingStudySaysWhatItLeavesOut)
{
    Diagnostics diags;
    auto plan = planWith("  policies: [most-allocated, fgd]\n", diags);
    ASSERT_TRUE(plan) << diags.formatAll();
    PlanOptions options;
    options.threads = 2;
    ASSERT_TRUE(runPlan(*plan, options, diags)) << diags.formatAll();
    EXPECT_NE(
        diags.formatAll().find("policies.yaml:14:13: warning: Study small: spec.policies: searched under the "
                               "scenario's own scoring only; drasim plan compares the policies"),
        std::string::npos)
        << diags.formatAll();
    EXPECT_FALSE(diags.hasErrors());
}

TEST(PlannerPolicies, CancelledBeforeStartReturnsNothing)
{
    Diagnostics diags;
    auto plan = planWith("  policies: [fgd, most-allocated]\n", diags);
    ASSERT_TRUE(plan) << diags.formatAll();
    CancelToken cancel;
    cancel.cancel();
    PlanOptions options;
    options.cancel = &cancel;
    PlanStats stats;
    EXPECT_FALSE(runPolicyPlans(*plan, options, diags, &stats));
    EXPECT_TRUE(stats.cancelled);
    EXPECT_FALSE(diags.hasErrors());
}

} // namespace policy_study_tests
