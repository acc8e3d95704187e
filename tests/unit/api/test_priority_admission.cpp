// SPDX-License-Identifier: Apache-2.0
// The Priority admission plugin's rules for pods and PodGroups, each with the API server's
// message (plugin/pkg/admission/priority/admission.go: admitPod, admitWorkload,
// getDefaultPriorityClass).
#include <gtest/gtest.h>

#include "core/api/priority_admission.h"

using namespace drasim;
using api::PreemptionPolicy;

namespace {

api::PriorityClass priorityClass(
    const char* name, int32_t value, bool globalDefault = false, const char* policy = "PreemptLowerPriority")
{
    api::PriorityClass pc;
    pc.meta.name = name;
    pc.value = value;
    pc.globalDefault = globalDefault;
    pc.preemptionPolicy = policy;
    return pc;
}

api::PodSpec podSpec(const char* className = "")
{
    api::PodSpec spec;
    spec.priorityClassName = className;
    return spec;
}

TEST(PriorityAdmission, ANamedClassGivesItsValueAndPreemptionPolicy)
{
    const api::PriorityClassIndex classes({ priorityClass("inference", 1000000, false, "Never") });
    api::PodSpec spec = podSpec("inference");
    EXPECT_FALSE(api::admitPodPriority(classes, "p", spec));
    EXPECT_EQ(spec.priorityClassName, "inference");
    EXPECT_EQ(spec.priority, 1000000);
    EXPECT_EQ(spec.preemptionPolicy, PreemptionPolicy::Never);
}

TEST(PriorityAdmission, AnUnknownClassIsForbidden)
{
    const api::PriorityClassIndex classes({ priorityClass("inference", 1000) });
    api::PodSpec spec = podSpec("training");
    const auto error = api::admitPodPriority(classes, "p", spec);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->field, "spec.priorityClassName");
    EXPECT_EQ(error->message, "pods \"p\" is forbidden: no PriorityClass with name training was found");
    EXPECT_FALSE(spec.priority);
}

TEST(PriorityAdmission, TheSystemClassesExistWithoutBeingLoaded)
{
    const api::PriorityClassIndex classes({});
    api::PodSpec cluster = podSpec("system-cluster-critical");
    api::PodSpec node = podSpec("system-node-critical");
    EXPECT_FALSE(api::admitPodPriority(classes, "a", cluster));
    EXPECT_FALSE(api::admitPodPriority(classes, "b", node));
    EXPECT_EQ(cluster.priority, 2000000000);
    EXPECT_EQ(node.priority, 2000001000);
    EXPECT_EQ(node.preemptionPolicy, PreemptionPolicy::PreemptLowerPriority);
}

TEST(PriorityAdmission, NoNameTakesTheGlobalDefaultWithItsNameAndPolicy)
{
    const api::PriorityClassIndex classes(
        { priorityClass("high", 1000), priorityClass("batch", 10, true, "Never") });
    api::PodSpec spec = podSpec();
    EXPECT_FALSE(api::admitPodPriority(classes, "p", spec));
    EXPECT_EQ(spec.priorityClassName, "batch");
    EXPECT_EQ(spec.priority, 10);
    EXPECT_EQ(spec.preemptionPolicy, PreemptionPolicy::Never);
}

TEST(PriorityAdmission, OfSeveralGlobalDefaultsTheLowestValueWins)
{
    const api::PriorityClassIndex classes(
        { priorityClass("a", 50, true), priorityClass("b", -5, true), priorityClass("c", 7, true) });
    ASSERT_NE(classes.globalDefault(), nullptr);
    EXPECT_EQ(classes.globalDefault()->meta.name, "b");
    // The index is a value: a copy keeps its own default.
    const api::PriorityClassIndex copy = classes;
    EXPECT_EQ(copy.globalDefault()->meta.name, "b");
}

TEST(PriorityAdmission, NoNameAndNoDefaultLeavesTheSpecAsWritten)
{
    const api::PriorityClassIndex classes({ priorityClass("high", 1000) });
    api::PodSpec plain = podSpec();
    EXPECT_FALSE(api::admitPodPriority(classes, "p", plain));
    EXPECT_FALSE(plain.priority);
    EXPECT_EQ(plain.preemptionPolicy, PreemptionPolicy::Unset);
    EXPECT_EQ(plain.priorityClassName, "");
    api::PodSpec direct = podSpec();
    direct.priority = 100;
    EXPECT_FALSE(api::admitPodPriority(classes, "p", direct));
    EXPECT_EQ(direct.priority, 100);
}

TEST(PriorityAdmission, AGivenPriorityThatDiffersIsForbidden)
{
    const api::PriorityClassIndex classes({ priorityClass("high", 1000) });
    api::PodSpec spec = podSpec("high");
    spec.priority = 5;
    const auto error = api::admitPodPriority(classes, "web-", spec);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->field, "spec.priority");
    EXPECT_EQ(error->message,
        "pods \"web-\" is forbidden: the integer value of priority (5) must not be provided in pod spec; "
        "priority admission controller computed 1000 from the given PriorityClass name");
}

TEST(PriorityAdmission, AGivenPriorityThatDiffersFromTheDefaultIsForbidden)
{
    const api::PriorityClassIndex classes({ priorityClass("normal", 20, true) });
    api::PodSpec spec = podSpec();
    spec.priority = 0;
    const auto error = api::admitPodPriority(classes, "p", spec);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message,
        "pods \"p\" is forbidden: the integer value of priority (0) must not be provided in pod spec; "
        "priority admission controller computed 20 from the given PriorityClass name");
}

TEST(PriorityAdmission, AGivenPreemptionPolicyThatDiffersIsForbidden)
{
    const api::PriorityClassIndex classes({ priorityClass("high", 1000) });
    api::PodSpec spec = podSpec("high");
    spec.preemptionPolicy = PreemptionPolicy::Never;
    const auto error = api::admitPodPriority(classes, "p", spec);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->field, "spec.preemptionPolicy");
    EXPECT_EQ(error->message,
        "pods \"p\" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod "
        "spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass "
        "name");
}

TEST(PriorityAdmission, APodDumpedFromAClusterIsAcceptedUnchanged)
{
    const api::PriorityClassIndex classes({ priorityClass("high", 1000, false, "Never") });
    api::PodSpec spec = podSpec("high");
    spec.priority = 1000;
    spec.preemptionPolicy = PreemptionPolicy::Never;
    const api::PodSpec before = spec;
    EXPECT_FALSE(api::admitPodPriority(classes, "p", spec));
    EXPECT_EQ(spec.priority, before.priority);
    EXPECT_EQ(spec.preemptionPolicy, before.preemptionPolicy);
    EXPECT_EQ(spec.priorityClassName, before.priorityClassName);
}

TEST(PriorityAdmission, ClassesTheClusterAlreadyHasResolveToo)
{
    const api::PriorityClassIndex classes({}, { priorityClass("training", 100) });
    api::PodSpec spec = podSpec("training");
    EXPECT_FALSE(api::admitPodPriority(classes, "p", spec));
    EXPECT_EQ(spec.priority, 100);
}

TEST(PriorityAdmission, GroupsTakeTheClassValueOverAGivenPriority)
{
    const api::PriorityClassIndex classes({ priorityClass("training", 1000, false, "Never") });
    api::GroupPolicy policy;
    policy.priorityClassName = "training";
    policy.priority = 3;
    EXPECT_FALSE(api::admitGroupPriority(classes, "podgroups.scheduling.k8s.io", "g", policy, false));
    EXPECT_EQ(policy.priority, 1000);
    EXPECT_EQ(policy.preemptionPolicy, api::GroupPreemptionPolicy::Unset);
    api::GroupPolicy gated;
    gated.priorityClassName = "training";
    EXPECT_FALSE(api::admitGroupPriority(classes, "podgroups.scheduling.k8s.io", "g", gated, true));
    EXPECT_EQ(gated.preemptionPolicy, api::GroupPreemptionPolicy::Never);
}

TEST(PriorityAdmission, AGroupNamingAnUnknownClassIsForbidden)
{
    const api::PriorityClassIndex classes({});
    api::GroupPolicy policy;
    policy.priorityClassName = "nope";
    const auto error = api::admitGroupPriority(classes, "podgroups.scheduling.k8s.io", "g", policy, true);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->field, "spec.priorityClassName");
    EXPECT_EQ(error->message,
        "podgroups.scheduling.k8s.io \"g\" is forbidden: no PriorityClass with name nope was found");
}

TEST(PriorityAdmission, AGroupWithoutANameTakesTheGlobalDefault)
{
    const api::PriorityClassIndex classes({ priorityClass("batch", 10, true) });
    api::GroupPolicy policy;
    EXPECT_FALSE(api::admitGroupPriority(classes, "podgroups.scheduling.k8s.io", "g", policy, false));
    EXPECT_EQ(policy.priorityClassName, "batch");
    EXPECT_EQ(policy.priority, 10);
}

} // namespace
