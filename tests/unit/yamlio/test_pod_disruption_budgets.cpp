// SPDX-License-Identifier: Apache-2.0
// policy/v1 PodDisruptionBudget: read, validated as ValidatePodDisruptionBudgetSpec does, written
// back, and read again to the same object.
#include <gtest/gtest.h>

#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

using namespace drasim;

namespace {

yamlio::LoadResult loadBudget(const std::string& body)
{
    return yamlio::loadText(
        "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b, namespace: prod}\n" + body,
        "t.yaml");
}

TEST(PodDisruptionBudgets, AreReadWithTheirSpecAndStatus)
{
    auto r = loadBudget("spec:\n"
                        "  minAvailable: 50%\n"
                        "  selector:\n"
                        "    matchLabels: {app: web}\n"
                        "    matchExpressions:\n"
                        "    - {key: tier, operator: In, values: [front, edge]}\n"
                        "    - {key: canary, operator: DoesNotExist}\n"
                        "  unhealthyPodEvictionPolicy: AlwaysAllow\n"
                        "status:\n"
                        "  observedGeneration: 3\n"
                        "  disruptedPods: {web-1: \"2026-01-02T03:04:05Z\"}\n"
                        "  disruptionsAllowed: 1\n"
                        "  currentHealthy: 3\n"
                        "  desiredHealthy: 2\n"
                        "  expectedPods: 4\n"
                        "  conditions: [{type: DisruptionAllowed, status: \"True\"}]\n");
    ASSERT_EQ(r.diagnostics.formatAll(), "");
    ASSERT_EQ(r.objects.podDisruptionBudgets.size(), 1u);
    EXPECT_EQ(r.objects.size(), 1u);
    const api::PodDisruptionBudget& b = r.objects.podDisruptionBudgets[0];
    EXPECT_EQ(b.meta.key(), "prod/b");
    EXPECT_EQ(b.minAvailable, api::IntOrString::ofString("50%"));
    EXPECT_FALSE(b.maxUnavailable);
    ASSERT_TRUE(b.selector);
    EXPECT_EQ(b.selector->matchLabels.at("app"), "web");
    ASSERT_EQ(b.selector->matchExpressions.size(), 2u);
    EXPECT_EQ(b.selector->matchExpressions[0].values, (std::vector<std::string> { "front", "edge" }));
    EXPECT_EQ(b.unhealthyPodEvictionPolicy, "AlwaysAllow");
    ASSERT_TRUE(b.status);
    EXPECT_EQ(b.status->disruptionsAllowed, 1);
    EXPECT_EQ(b.status->currentHealthy, 3);
    EXPECT_EQ(b.status->desiredHealthy, 2);
    EXPECT_EQ(b.status->expectedPods, 4);
    EXPECT_EQ(b.status->disruptedPods.at("web-1"), "2026-01-02T03:04:05Z");
}

TEST(PodDisruptionBudgets, AnEmptySelectorIsKeptApartFromNone)
{
    auto empty = loadBudget("spec: {maxUnavailable: 1, selector: {}}\n");
    auto none = loadBudget("spec: {maxUnavailable: 1}\n");
    ASSERT_EQ(empty.objects.podDisruptionBudgets.size(), 1u);
    ASSERT_EQ(none.objects.podDisruptionBudgets.size(), 1u);
    EXPECT_TRUE(empty.objects.podDisruptionBudgets[0].selector.has_value());
    EXPECT_FALSE(none.objects.podDisruptionBudgets[0].selector.has_value());
    EXPECT_NE(yamlio::toYamlList(empty.objects).find("    selector: {}\n"), std::string::npos)
        << yamlio::toYamlList(empty.objects);
    EXPECT_EQ(yamlio::toYamlList(none.objects).find("selector"), std::string::npos);
}

TEST(PodDisruptionBudgets, BothMinAvailableAndMaxUnavailableAreRefused)
{
    auto r = loadBudget("spec:\n  minAvailable: 1\n  maxUnavailable: 1\n");
    EXPECT_TRUE(r.objects.podDisruptionBudgets.empty());
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:5:3: PodDisruptionBudget prod/b: spec: Invalid value: minAvailable and maxUnavailable cannot "
        "be "
        "both set\n");
}

TEST(PodDisruptionBudgets, NegativeCountsBadAndTooLargePercentagesAreRefused)
{
    auto r = loadBudget("spec: {minAvailable: -1}\n");
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:4:22: PodDisruptionBudget prod/b: spec.minAvailable: Invalid value: -1: must be greater than "
        "or "
        "equal to 0\n");
    r = loadBudget("spec: {maxUnavailable: 120%}\n");
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:4:24: PodDisruptionBudget prod/b: spec.maxUnavailable: Invalid value: \"120%\": must not be "
        "greater than 100%\n");
    r = loadBudget("spec: {maxUnavailable: \"5\"}\n");
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:4:24: PodDisruptionBudget prod/b: spec.maxUnavailable: Invalid value: \"5\": a valid percent "
        "string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for "
        "validation is '[0-9]+%')\n");
    r = loadBudget("spec: {maxUnavailable: 100%}\n");
    EXPECT_EQ(r.diagnostics.formatAll(), "");
}

TEST(PodDisruptionBudgets, BadSelectorsGetMetav1sMessages)
{
    auto r = loadBudget("spec:\n"
                        "  minAvailable: 1\n"
                        "  selector:\n"
                        "    matchExpressions:\n"
                        "    - {key: app, operator: Gt, values: [\"1\"]}\n"
                        "    - {key: app, operator: In}\n"
                        "    - {key: app, operator: Exists, values: [x]}\n"
                        "    - {key: \"-bad\", operator: Exists}\n");
    EXPECT_TRUE(r.objects.podDisruptionBudgets.empty());
    const std::string all = r.diagnostics.formatAll();
    EXPECT_NE(all.find("t.yaml:8:28: PodDisruptionBudget prod/b: spec.selector.matchExpressions[0].operator: "
                       "Invalid value: \"Gt\": not a valid selector operator\n"),
        std::string::npos)
        << all;
    EXPECT_NE(all.find("spec.selector.matchExpressions[1].values: Required value: must be specified when "
                       "`operator` is 'In' or 'NotIn'\n"),
        std::string::npos)
        << all;
    EXPECT_NE(all.find("spec.selector.matchExpressions[2].values: Forbidden: may not be specified when "
                       "`operator` is 'Exists' or 'DoesNotExist'\n"),
        std::string::npos)
        << all;
    EXPECT_NE(all.find("spec.selector.matchExpressions[3].key: Invalid value: \"-bad\": "), std::string::npos)
        << all;
    EXPECT_EQ(r.diagnostics.errorCount(), 4u) << all;
}

TEST(PodDisruptionBudgets, AnUnknownEvictionPolicyIsRefused)
{
    auto r = loadBudget("spec: {minAvailable: 1, unhealthyPodEvictionPolicy: Sometimes}\n");
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:4:53: PodDisruptionBudget prod/b: spec.unhealthyPodEvictionPolicy: Unsupported value: "
        "\"Sometimes\": supported values: \"AlwaysAllow\", \"IfHealthyBudget\"\n");
}

TEST(PodDisruptionBudgets, OnlyPolicyV1IsServed)
{
    auto r = yamlio::loadText("apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: "
                              "b}\nspec: {minAvailable: 1}\n",
        "t.yaml");
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:1:13: PodDisruptionBudget default/b: apiVersion: no matches for kind \"PodDisruptionBudget\" "
        "in "
        "version \"policy/v1beta1\" (expected policy/v1)\n");
}

TEST(PodDisruptionBudgets, ASecondBudgetOfTheSameNameIsADuplicate)
{
    auto r = yamlio::loadText("apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\n"
                              "spec: {minAvailable: 1}\n---\n"
                              "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\n"
                              "spec: {minAvailable: 2}\n",
        "t.yaml");
    EXPECT_EQ(r.objects.podDisruptionBudgets.size(), 1u);
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:6:1: PodDisruptionBudget default/b: metadata.name: Duplicate value: \"b\": already defined "
        "at "
        "t.yaml:1\n");
}

TEST(PodDisruptionBudgets, ReadingWhatTheWriterWroteGivesTheSameBudget)
{
    auto first = loadBudget(
        "spec:\n"
        "  maxUnavailable: 2\n"
        "  selector:\n"
        "    matchLabels: {app: web}\n"
        "    matchExpressions: [{key: tier, operator: NotIn, values: [batch]}]\n"
        "  unhealthyPodEvictionPolicy: IfHealthyBudget\n"
        "status: {disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 2, expectedPods: 3,\n"
        "  disruptedPods: {web-0: \"2026-01-02T03:04:05Z\"}}\n");
    ASSERT_EQ(first.diagnostics.formatAll(), "");
    const std::string yaml = yamlio::toYamlList(first.objects);
    auto second = yamlio::loadText(yaml, "round.yaml");
    ASSERT_EQ(second.diagnostics.formatAll(), "") << yaml;
    ASSERT_EQ(second.objects.podDisruptionBudgets.size(), 1u);
    const api::PodDisruptionBudget& a = first.objects.podDisruptionBudgets[0];
    const api::PodDisruptionBudget& b = second.objects.podDisruptionBudgets[0];
    EXPECT_EQ(b.meta.key(), a.meta.key());
    EXPECT_EQ(b.minAvailable, a.minAvailable);
    EXPECT_EQ(b.maxUnavailable, a.maxUnavailable);
    EXPECT_EQ(b.selector, a.selector);
    EXPECT_EQ(b.unhealthyPodEvictionPolicy, a.unhealthyPodEvictionPolicy);
    EXPECT_EQ(b.status, a.status);
    EXPECT_EQ(yamlio::toYamlList(second.objects), yaml);
}

} // namespace

namespace {

// The law over a manifest with every new field and kind: what the writer wrote reads back to the
// same objects (admission, having resolved everything once, changes nothing the second time).
TEST(PodPreemptionFields, ReadingWhatTheWriterWroteGivesTheSameObjects)
{
    auto first = yamlio::loadPaths(
        { std::string(DRASIM_SOURCE_DIR) + "/tests/cli/data/priorities-and-budgets.yaml" });
    ASSERT_EQ(first.diagnostics.formatAll(), "");
    const std::string yaml = yamlio::toYamlList(first.objects);
    // No errors; a PreemptLowerPriority the admission wrote is named "not simulated" again.
    auto second = yamlio::loadText(yaml, "round.yaml");
    ASSERT_FALSE(second.diagnostics.hasErrors()) << second.diagnostics.formatAll();
    ASSERT_EQ(second.objects.pods.size(), first.objects.pods.size());
    for (size_t i = 0; i < first.objects.pods.size(); ++i) {
        const api::Pod& a = first.objects.pods[i];
        const api::Pod& b = second.objects.pods[i];
        EXPECT_EQ(b.spec.priorityClassName, a.spec.priorityClassName) << a.meta.name;
        EXPECT_EQ(b.spec.priority, a.spec.priority) << a.meta.name;
        EXPECT_EQ(b.spec.preemptionPolicy, a.spec.preemptionPolicy) << a.meta.name;
        EXPECT_EQ(b.spec.terminationGracePeriodSeconds, a.spec.terminationGracePeriodSeconds) << a.meta.name;
        EXPECT_EQ(b.nominatedNodeName, a.nominatedNodeName) << a.meta.name;
        EXPECT_EQ(b.startTime.has_value(), a.startTime.has_value()) << a.meta.name;
    }
    ASSERT_EQ(second.objects.podDisruptionBudgets.size(), 1u);
    EXPECT_EQ(
        second.objects.podDisruptionBudgets[0].selector, first.objects.podDisruptionBudgets[0].selector);
    EXPECT_EQ(second.objects.podDisruptionBudgets[0].maxUnavailable,
        first.objects.podDisruptionBudgets[0].maxUnavailable);
    EXPECT_EQ(yamlio::toYamlList(second.objects), yaml);
}

} // namespace
