// SPDX-License-Identifier: Apache-2.0
// The Priority admission plugin over loaded manifests: pods and PodGroups get their class's
// priority, and an object the API server would refuse is reported where it was written.
#include <gtest/gtest.h>

#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

using namespace drasim;

namespace {

const std::string kClasses
    = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: inference}\n"
      "value: 1000000\npreemptionPolicy: Never\n---\n";

std::string pod(const std::string& name, const std::string& specExtra)
{
    return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name
        + "}\nspec:\n  containers: [{name: c, image: x}]\n" + specExtra;
}

TEST(PriorityAdmissionOnLoad, APodNamingAClassGetsItsPriorityAndPolicy)
{
    auto r = yamlio::loadText(kClasses + pod("p", "  priorityClassName: inference\n"), "t.yaml");
    ASSERT_EQ(r.diagnostics.formatAll(), "");
    ASSERT_EQ(r.objects.pods.size(), 1u);
    EXPECT_EQ(r.objects.pods[0].spec.priority, 1000000);
    EXPECT_EQ(r.objects.pods[0].spec.preemptionPolicy, api::PreemptionPolicy::Never);
    // The API server stores, and so the writer shows, what admission computed.
    const std::string yaml = yamlio::toYamlList(r.objects);
    EXPECT_NE(
        yaml.find("    priorityClassName: inference\n    priority: 1000000\n    preemptionPolicy: Never\n"),
        std::string::npos)
        << yaml;
}

TEST(PriorityAdmissionOnLoad, TheClassMayComeAfterThePod)
{
    auto r = yamlio::loadText(pod("p", "  priorityClassName: inference\n") + "---\n" + kClasses, "t.yaml");
    ASSERT_EQ(r.diagnostics.formatAll(), "");
    EXPECT_EQ(r.objects.pods.at(0).spec.priority, 1000000);
}

TEST(PriorityAdmissionOnLoad, AnUnknownClassIsALocatedErrorAndThePodIsNotKept)
{
    auto r = yamlio::loadText(pod("p", "  priorityClassName: training\n"), "t.yaml");
    EXPECT_TRUE(r.objects.pods.empty());
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:1:1: Pod default/p: spec.priorityClassName: pods \"p\" is forbidden: no PriorityClass with "
        "name "
        "training was found\n");
}

TEST(PriorityAdmissionOnLoad, APriorityThatDisagreesWithTheClassIsALocatedError)
{
    auto r
        = yamlio::loadText(kClasses + pod("p", "  priorityClassName: inference\n  priority: 7\n"), "t.yaml");
    EXPECT_TRUE(r.objects.pods.empty());
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:7:1: Pod default/p: spec.priority: pods \"p\" is forbidden: the integer value of priority "
        "(7) must "
        "not be provided in pod spec; priority admission controller computed 1000000 from the given "
        "PriorityClass "
        "name\n");
}

TEST(PriorityAdmissionOnLoad, ClassesTheClusterHasResolveToo)
{
    yamlio::LoadOptions options;
    api::PriorityClass training;
    training.meta.name = "training";
    training.value = 100;
    options.priorityClasses.push_back(training);
    auto r = yamlio::loadText(pod("p", "  priorityClassName: training\n"), "t.yaml", options);
    ASSERT_EQ(r.diagnostics.formatAll(), "");
    EXPECT_EQ(r.objects.pods.at(0).spec.priority, 100);
}

TEST(PriorityAdmissionOnLoad, WithoutAnyClassAPodIsReadAsWritten)
{
    auto r = yamlio::loadText(pod("p", "  priority: 50\n") + "---\n" + pod("q", ""), "t.yaml");
    ASSERT_EQ(r.diagnostics.formatAll(), "");
    EXPECT_EQ(r.objects.pods.at(0).spec.priority, 50);
    EXPECT_FALSE(r.objects.pods.at(1).spec.priority.has_value());
    EXPECT_EQ(r.objects.pods.at(1).spec.preemptionPolicy, api::PreemptionPolicy::Unset);
}

TEST(PriorityAdmissionOnLoad, ABoundPodExistsAlreadyAndIsNeverRefused)
{
    auto r
        = yamlio::loadText(pod("p", "  nodeName: n1\n  priorityClassName: gone\n  priority: 10\n"), "t.yaml");
    ASSERT_EQ(r.diagnostics.formatAll(), "");
    ASSERT_EQ(r.objects.pods.size(), 1u);
    EXPECT_EQ(r.objects.pods[0].spec.priority, 10);
}

TEST(PriorityAdmissionOnLoad, PodGroupsResolveTheirClass)
{
    api::FeatureGates gates;
    gates.set("GenericWorkload", true);
    yamlio::LoadOptions options;
    options.gates = gates;
    const std::string group = "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g}\n"
                              "spec:\n  schedulingPolicy: {gang: {minCount: 2}}\n  priorityClassName: ";
    auto ok = yamlio::loadText(kClasses + group + "inference\n", "t.yaml", options);
    ASSERT_EQ(ok.diagnostics.formatAll(), "");
    ASSERT_EQ(ok.objects.podGroups.size(), 1u);
    EXPECT_EQ(ok.objects.podGroups[0].policy.priority, 1000000);
    auto bad = yamlio::loadText(group + "nope\n", "t.yaml", options);
    EXPECT_TRUE(bad.objects.podGroups.empty());
    EXPECT_EQ(bad.diagnostics.formatAll(),
        "t.yaml:1:1: PodGroup default/g: spec.priorityClassName: podgroups.scheduling.k8s.io \"g\" is "
        "forbidden: "
        "no PriorityClass with name nope was found\n");
}

} // namespace
