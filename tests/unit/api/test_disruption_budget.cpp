// SPDX-License-Identifier: Apache-2.0
// The disruption controller's arithmetic, each expectation taken from
// pkg/controller/disruption/disruption.go: getExpectedPodCount (an integer minAvailable counts
// the matching pods; a percentage and maxUnavailable scale the controllers' replicas, rounding
// up), getExpectedScale (unmanaged pods skipped, a controller without a scale fails),
// countHealthyPods and updatePdbStatus (allowed = current - desired, never below 0, and 0 while
// expectedCount is 0).
#include <gtest/gtest.h>

#include "core/api/disruption_budget.h"

using namespace drasim;

namespace {

const api::Labels kWeb { { "app", "web" } };
const api::Labels kDb { { "app", "db" } };

api::PodDisruptionBudget budget(std::optional<api::IntOrString> minAvailable,
    std::optional<api::IntOrString> maxUnavailable, std::optional<api::LabelSelector> selector)
{
    api::PodDisruptionBudget pdb;
    pdb.meta.name = "b";
    pdb.meta.namespace_ = "default";
    pdb.minAvailable = std::move(minAvailable);
    pdb.maxUnavailable = std::move(maxUnavailable);
    pdb.selector = std::move(selector);
    return pdb;
}

api::LabelSelector matchWeb()
{
    api::LabelSelector s;
    s.matchLabels = kWeb;
    return s;
}

api::PdbPod pod(const char* name, bool healthy, const char* ownerKind = "Deployment",
    const char* owner = "web", const api::Labels* labels = &kWeb, const char* ns = "default")
{
    return api::PdbPod { name, ns, labels, ownerKind, owner, healthy };
}

api::PodController controller(api::PodController::Kind kind, const char* name, int32_t replicas)
{
    api::PodController c;
    c.kind = kind;
    c.meta.name = name;
    c.meta.namespace_ = "default";
    c.replicas = replicas;
    return c;
}

const std::vector<api::PodController> kWebDeployment { controller(
    api::PodController::Kind::Deployment, "web", 4) };

api::DisruptionBudgetState stateOf(const api::PodDisruptionBudget& pdb, const std::vector<api::PdbPod>& pods,
    const std::vector<api::PodController>& controllers = kWebDeployment)
{
    return api::disruptionBudgetStates({ pdb }, pods, controllers).at(0);
}

TEST(DisruptionBudget, AnIntegerMinAvailableCountsTheMatchingPods)
{
    const auto s = stateOf(budget(api::IntOrString::ofInt(2), {}, matchWeb()),
        { pod("a", true), pod("b", true), pod("c", true), pod("d", false) });
    EXPECT_EQ(s.expectedPods, 4); // len(pods), not the Deployment's replicas
    EXPECT_EQ(s.desiredHealthy, 2);
    EXPECT_EQ(s.currentHealthy, 3);
    EXPECT_EQ(s.disruptionsAllowed, 1);
    EXPECT_EQ(s.error, "");
}

TEST(DisruptionBudget, AllowedNeverGoesBelowZero)
{
    const auto s
        = stateOf(budget(api::IntOrString::ofInt(5), {}, matchWeb()), { pod("a", true), pod("b", true) });
    EXPECT_EQ(s.desiredHealthy, 5);
    EXPECT_EQ(s.disruptionsAllowed, 0);
}

TEST(DisruptionBudget, APercentMinAvailableScalesTheControllersReplicasRoundingUp)
{
    // 50% of 3 replicas is 1.5: desiredHealthy 2.
    const std::vector<api::PodController> three { controller(
        api::PodController::Kind::StatefulSet, "web", 3) };
    const auto s = stateOf(budget(api::IntOrString::ofString("50%"), {}, matchWeb()),
        { pod("a", true, "StatefulSet"), pod("b", true, "StatefulSet"), pod("c", true, "StatefulSet") },
        three);
    EXPECT_EQ(s.expectedPods, 3);
    EXPECT_EQ(s.desiredHealthy, 2);
    EXPECT_EQ(s.disruptionsAllowed, 1);
}

TEST(DisruptionBudget, AnIntegerMaxUnavailableSubtractsFromTheScale)
{
    const auto s = stateOf(budget({}, api::IntOrString::ofInt(1), matchWeb()),
        { pod("a", true), pod("b", true), pod("c", true), pod("d", true) });
    EXPECT_EQ(s.expectedPods, 4);
    EXPECT_EQ(s.desiredHealthy, 3);
    EXPECT_EQ(s.disruptionsAllowed, 1);
}

TEST(DisruptionBudget, APercentMaxUnavailableRoundsTheUnavailableCountUp)
{
    // 30% of 4 is 1.2: up to 2 may be unavailable, so 2 must stay healthy.
    const auto s = stateOf(budget({}, api::IntOrString::ofString("30%"), matchWeb()),
        { pod("a", true), pod("b", true), pod("c", true), pod("d", true) });
    EXPECT_EQ(s.desiredHealthy, 2);
    EXPECT_EQ(s.disruptionsAllowed, 2);
}

TEST(DisruptionBudget, MaxUnavailableAboveTheScaleDesiresZero)
{
    const auto s = stateOf(budget({}, api::IntOrString::ofInt(9), matchWeb()), { pod("a", true) });
    EXPECT_EQ(s.expectedPods, 4);
    EXPECT_EQ(s.desiredHealthy, 0);
    EXPECT_EQ(s.disruptionsAllowed, 1);
}

TEST(DisruptionBudget, ReplicasCountOncePerController)
{
    const std::vector<api::PodController> two { controller(api::PodController::Kind::Deployment, "web", 4),
        controller(api::PodController::Kind::ReplicaSet, "web-old", 2) };
    const auto s = stateOf(budget({}, api::IntOrString::ofInt(0), matchWeb()),
        { pod("a", true), pod("b", true), pod("c", true, "ReplicaSet", "web-old") }, two);
    EXPECT_EQ(s.expectedPods, 6);
    EXPECT_EQ(s.desiredHealthy, 6);
    EXPECT_EQ(s.disruptionsAllowed, 0);
}

TEST(DisruptionBudget, UnmanagedPodsAreLeftOutOfTheScaleButCountAsHealthy)
{
    // getExpectedScale skips pods without a controller; countHealthyPods counts every matching pod.
    const std::vector<api::PodController> two { controller(api::PodController::Kind::Deployment, "web", 2) };
    const auto s = stateOf(budget(api::IntOrString::ofString("50%"), {}, matchWeb()),
        { pod("a", true), pod("b", true), pod("loose", true, "", "") }, two);
    EXPECT_EQ(s.expectedPods, 2);
    EXPECT_EQ(s.desiredHealthy, 1);
    EXPECT_EQ(s.currentHealthy, 3);
    EXPECT_EQ(s.disruptionsAllowed, 2);
}

TEST(DisruptionBudget, OnlyUnmanagedPodsGiveNoScaleAndSoNoDisruption)
{
    const auto s
        = stateOf(budget({}, api::IntOrString::ofInt(1), matchWeb()), { pod("loose", true, "", "") });
    EXPECT_EQ(s.expectedPods, 0);
    EXPECT_EQ(s.disruptionsAllowed, 0);
}

TEST(DisruptionBudget, AJobHasNoScaleSoAPercentBudgetFailsSafe)
{
    const std::vector<api::PodController> job { controller(api::PodController::Kind::Job, "train", 1) };
    const auto s = stateOf(budget(api::IntOrString::ofString("50%"), {}, matchWeb()),
        { pod("train-1", true, "Job", "train"), pod("train-2", true, "Job", "train") }, job);
    EXPECT_EQ(s.error, "found no controllers for pod \"train-1\"");
    EXPECT_EQ(s.disruptionsAllowed, 0);
    // An integer minAvailable needs no scale: the same pods are counted.
    const auto counted = stateOf(budget(api::IntOrString::ofInt(1), {}, matchWeb()),
        { pod("train-1", true, "Job", "train"), pod("train-2", true, "Job", "train") }, job);
    EXPECT_EQ(counted.error, "");
    EXPECT_EQ(counted.disruptionsAllowed, 1);
}

TEST(DisruptionBudget, AMissingControllerFailsSafeToo)
{
    const auto s = stateOf(
        budget({}, api::IntOrString::ofInt(1), matchWeb()), { pod("a", true, "Deployment", "gone") });
    EXPECT_EQ(s.error, "found no controllers for pod \"a\"");
    EXPECT_EQ(s.disruptionsAllowed, 0);
}

TEST(DisruptionBudget, NoMatchingPodsAllowNothing)
{
    const auto s = stateOf(budget(api::IntOrString::ofInt(0), {}, matchWeb()), {});
    EXPECT_EQ(s.expectedPods, 0);
    EXPECT_EQ(s.disruptionsAllowed, 0);
}

TEST(DisruptionBudget, ABudgetWithNeitherFieldAllowsNothing)
{
    const auto s = stateOf(budget({}, {}, matchWeb()), { pod("a", true) });
    EXPECT_EQ(s.expectedPods, 0);
    EXPECT_EQ(s.disruptionsAllowed, 0);
}

TEST(DisruptionBudget, ScaledValuesRoundUp)
{
    EXPECT_EQ(api::scaledValue(api::IntOrString::ofInt(7), 100), 7);
    EXPECT_EQ(api::scaledValue(api::IntOrString::ofString("1%"), 1), 1);
    EXPECT_EQ(api::scaledValue(api::IntOrString::ofString("0%"), 10), 0);
    EXPECT_EQ(api::scaledValue(api::IntOrString::ofString("33%"), 3), 1);
    EXPECT_EQ(api::scaledValue(api::IntOrString::ofString("50%"), 5), 3);
    EXPECT_EQ(api::scaledValue(api::IntOrString::ofString("100%"), 8), 8);
    EXPECT_EQ(api::scaledValue(api::IntOrString::ofString("5"), 8), std::nullopt);
}

TEST(DisruptionBudget, AMissingSelectorSelectsNoneAndAnEmptyOneEveryPodOfTheNamespace)
{
    EXPECT_FALSE(api::selects(budget(api::IntOrString::ofInt(1), {}, std::nullopt), "default", kWeb));
    const auto all = budget(api::IntOrString::ofInt(1), {}, api::LabelSelector {});
    EXPECT_TRUE(api::selects(all, "default", kWeb));
    EXPECT_TRUE(api::selects(all, "default", {}));
    EXPECT_FALSE(api::selects(all, "other", kWeb));
    EXPECT_EQ(api::disruptionsAllowed({ budget(api::IntOrString::ofInt(0), {}, std::nullopt) },
                  { pod("a", true) }, kWebDeployment),
        std::vector<int32_t> { 0 });
}

TEST(DisruptionBudget, SelectorsMatchLabelsAndEveryOperator)
{
    api::LabelSelector s;
    s.matchExpressions = { { "app", "In", { "web", "api" } } };
    EXPECT_TRUE(s.matches(kWeb));
    EXPECT_FALSE(s.matches(kDb));
    EXPECT_FALSE(s.matches({}));
    s.matchExpressions = { { "app", "NotIn", { "web" } } };
    EXPECT_FALSE(s.matches(kWeb));
    EXPECT_TRUE(s.matches(kDb));
    EXPECT_TRUE(s.matches({})); // NotIn holds for an absent label
    s.matchExpressions = { { "app", "Exists", {} } };
    EXPECT_TRUE(s.matches(kDb));
    EXPECT_FALSE(s.matches({}));
    s.matchExpressions = { { "app", "DoesNotExist", {} } };
    EXPECT_FALSE(s.matches(kDb));
    EXPECT_TRUE(s.matches({}));
    s.matchExpressions = { { "app", "Gt", { "1" } } };
    EXPECT_FALSE(s.matches(kDb)); // not a label selector operator
    api::LabelSelector both;
    both.matchLabels = kWeb;
    both.matchExpressions = { { "tier", "Exists", {} } };
    EXPECT_FALSE(both.matches(kWeb));
    EXPECT_TRUE(both.matches({ { "app", "web" }, { "tier", "front" } }));
}

TEST(DisruptionBudget, PodsOfOtherNamespacesAreNotCovered)
{
    const auto s = stateOf(budget(api::IntOrString::ofInt(1), {}, matchWeb()),
        { pod("a", true), pod("b", true, "Deployment", "web", &kWeb, "other") });
    EXPECT_EQ(s.expectedPods, 1);
    EXPECT_EQ(s.disruptionsAllowed, 0);
}

} // namespace
