// SPDX-License-Identifier: Apache-2.0
// Job spec.podFailurePolicy and spec.podReplacementPolicy: read, validated as the API server does
// (pkg/apis/batch/validation), decided as the Job controller matches a failed pod, written back.
#include <gtest/gtest.h>

#include "core/api/pod_failure_policy.h"
#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

using namespace drasim;

namespace {

yamlio::LoadResult loadJob(const std::string& specLines)
{
    return yamlio::loadText("apiVersion: batch/v1\nkind: Job\nmetadata: {name: train}\nspec:\n" + specLines
            + "  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: main, image: "
              "x}]\n",
        "t.yaml");
}

api::DisruptionAction actionOf(const yamlio::LoadResult& r)
{
    return api::matchDisruption(r.objects.controllers.at(0).podFailurePolicy).action;
}

TEST(PodFailurePolicy, IsReadWithTheStatusDefaultedToTrue)
{
    auto r = loadJob("  podFailurePolicy:\n"
                     "    rules:\n"
                     "    - {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}\n"
                     "    - {action: Count, onPodConditions: [{type: ConfigIssue, status: \"False\"}]}\n");
    ASSERT_EQ(r.diagnostics.formatAll(), "");
    const api::PodController& job = r.objects.controllers.at(0);
    ASSERT_TRUE(job.podFailurePolicy);
    ASSERT_EQ(job.podFailurePolicy->rules.size(), 2u);
    EXPECT_EQ(job.podFailurePolicy->rules[0].onPodConditions.at(0).status, "True");
    EXPECT_EQ(job.podFailurePolicy->rules[1].onPodConditions.at(0).status, "False");
    EXPECT_EQ(actionOf(r), api::DisruptionAction::Ignore);
    EXPECT_TRUE(api::replacesOnlyFailedPods(job));
}

TEST(PodFailurePolicy, TheFirstRuleOnDisruptionTargetDecides)
{
    auto failJob = loadJob("  podFailurePolicy:\n    rules:\n"
                           "    - {action: FailJob, onPodConditions: [{type: DisruptionTarget}]}\n"
                           "    - {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}\n");
    EXPECT_EQ(actionOf(failJob), api::DisruptionAction::FailJob);
    // A pattern on status False does not match the True condition; exit codes never match.
    auto count
        = loadJob("  podFailurePolicy:\n    rules:\n"
                  "    - {action: Ignore, onPodConditions: [{type: DisruptionTarget, status: \"False\"}]}\n"
                  "    - {action: Ignore, onExitCodes: {operator: NotIn, values: [0]}}\n"
                  "    - {action: Count, onPodConditions: [{type: DisruptionTarget}]}\n");
    EXPECT_EQ(actionOf(count), api::DisruptionAction::Count);
    EXPECT_EQ(api::matchDisruption(count.objects.controllers.at(0).podFailurePolicy).rule, 2);
    auto none = loadJob("  backoffLimit: 2\n");
    EXPECT_EQ(actionOf(none), api::DisruptionAction::Count);
    EXPECT_FALSE(api::replacesOnlyFailedPods(none.objects.controllers.at(0)));
}

TEST(PodFailurePolicy, OnExitCodesIsReadButNamedAsNeverMatching)
{
    auto r = loadJob(
        "  podFailurePolicy:\n    rules:\n"
        "    - {action: FailJob, onExitCodes: {containerName: main, operator: In, values: [42]}}\n");
    EXPECT_FALSE(r.diagnostics.hasErrors());
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:7:38: warning: Job default/train: spec.podFailurePolicy.rules[0].onExitCodes: not simulated: "
        "simulated pods have no container exit codes, the rule never matches\n");
}

TEST(PodFailurePolicy, BadRulesAreLocatedErrors)
{
    auto r = loadJob("  podFailurePolicy:\n    rules:\n"
                     "    - {action: Retry, onPodConditions: [{type: DisruptionTarget, status: Maybe}]}\n"
                     "    - {onPodConditions: [{status: \"True\"}]}\n"
                     "    - {action: Ignore}\n"
                     "    - {action: FailIndex, onPodConditions: [{type: DisruptionTarget}]}\n");
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:7:16: Job default/train: spec.podFailurePolicy.rules[0].action: Unsupported value: "
        "\"Retry\": supported values: \"Count\", \"FailIndex\", \"FailJob\", \"Ignore\"\n"
        "t.yaml:7:74: Job default/train: spec.podFailurePolicy.rules[0].onPodConditions[0].status: "
        "Unsupported value: \"Maybe\": supported values: \"False\", \"True\", \"Unknown\"\n"
        "t.yaml:8:26: Job default/train: spec.podFailurePolicy.rules[1].onPodConditions[0].type: "
        "Required value\n"
        "t.yaml:8:7: Job default/train: spec.podFailurePolicy.rules[1].action: Required value: valid "
        "values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]\n"
        "t.yaml:9:7: Job default/train: spec.podFailurePolicy.rules[2]: Invalid value: specifying one "
        "of OnExitCodes and OnPodConditions is required\n"
        "t.yaml:10:16: Job default/train: spec.podFailurePolicy.rules[3].action: Invalid value: "
        "\"FailIndex\": requires the backoffLimitPerIndex to be set\n");
}

TEST(PodFailurePolicy, OnlyFailedReplacementGoesWithAPolicy)
{
    auto r = loadJob(
        "  podReplacementPolicy: TerminatingOrFailed\n"
        "  podFailurePolicy:\n    rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]\n");
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:5:25: Job default/train: spec.podReplacementPolicy: Unsupported value: "
        "\"TerminatingOrFailed\": supported values: \"Failed\"\n");
    auto alone = loadJob("  podReplacementPolicy: Sometimes\n");
    EXPECT_EQ(alone.diagnostics.formatAll(),
        "t.yaml:5:25: Job default/train: spec.podReplacementPolicy: Unsupported value: \"Sometimes\": "
        "supported values: \"Failed\", \"TerminatingOrFailed\"\n");
    auto failed = loadJob("  podReplacementPolicy: Failed\n");
    EXPECT_EQ(failed.diagnostics.formatAll(), "");
    EXPECT_TRUE(api::replacesOnlyFailedPods(failed.objects.controllers.at(0)));
}

TEST(PodFailurePolicy, IsWrittenBackAndReadAgainToTheSameJob)
{
    auto first = loadJob(
        "  podReplacementPolicy: Failed\n"
        "  podFailurePolicy:\n    rules:\n"
        "    - {action: FailJob, onExitCodes: {containerName: main, operator: In, values: [3, 42]}}\n"
        "    - {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}\n");
    ASSERT_FALSE(first.diagnostics.hasErrors());
    const std::string yaml = yamlio::toYamlList(first.objects);
    EXPECT_NE(yaml.find("    podFailurePolicy:\n      rules:\n      - action: FailJob\n"), std::string::npos)
        << yaml;
    EXPECT_NE(yaml.find("    podReplacementPolicy: Failed\n"), std::string::npos) << yaml;
    auto second = yamlio::loadText(yaml, "again.yaml");
    ASSERT_FALSE(second.diagnostics.hasErrors()) << second.diagnostics.formatAll();
    EXPECT_EQ(
        second.objects.controllers.at(0).podFailurePolicy, first.objects.controllers.at(0).podFailurePolicy);
    EXPECT_EQ(yamlio::toYamlList(second.objects), yaml);
}

} // namespace
