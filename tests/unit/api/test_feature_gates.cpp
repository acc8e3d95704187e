// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/api/feature_gates.h"

using namespace drasim::api;

TEST(KubernetesVersion, ParsesTheThreeVersionsAndDefaultsTo137)
{
    EXPECT_EQ(parseKubernetesVersion("1.35"), KubernetesVersion::V1_35);
    EXPECT_EQ(parseKubernetesVersion("1.36"), KubernetesVersion::V1_36);
    EXPECT_EQ(parseKubernetesVersion("1.37"), KubernetesVersion::V1_37);
    EXPECT_FALSE(parseKubernetesVersion("1.34"));
    EXPECT_FALSE(parseKubernetesVersion("v1.37"));
    EXPECT_FALSE(parseKubernetesVersion("1.37.0"));
    EXPECT_EQ(FeatureGates().version(), KubernetesVersion::V1_37);
    EXPECT_STREQ(kubernetesVersionName(KubernetesVersion::V1_36), "1.36");
}

TEST(FeatureGates, UpstreamDefaultsPerVersion)
{
    const FeatureGates g35(KubernetesVersion::V1_35), g36(KubernetesVersion::V1_36), g37;
    // GenericWorkload stays off by default even in 1.37 (beta, default off).
    for (const FeatureGates* g : { &g35, &g36, &g37 }) {
        EXPECT_FALSE(g->enabled("GenericWorkload"));
        EXPECT_TRUE(g->known("GenericWorkload"));
        EXPECT_TRUE(g->enabled("OpportunisticBatching"));
        EXPECT_TRUE(g->enabled("SchedulerPopFromBackoffQ"));
    }
    EXPECT_TRUE(g35.known("GangScheduling"));
    EXPECT_TRUE(g36.known("GangScheduling"));
    EXPECT_FALSE(g37.known("GangScheduling"));
    EXPECT_FALSE(g35.known("TopologyAwareWorkloadScheduling"));
    EXPECT_TRUE(g36.known("WorkloadAwarePreemption"));
    EXPECT_FALSE(g37.known("WorkloadAwarePreemption"));
    EXPECT_FALSE(g36.known("CompositePodGroup"));
    EXPECT_TRUE(g37.known("CompositePodGroup"));
    EXPECT_FALSE(g37.enabled("CompositePodGroup"));
    EXPECT_FALSE(g35.enabled("DRAExtendedResource"));
    EXPECT_TRUE(g36.enabled("DRAExtendedResource"));
    EXPECT_TRUE(g37.enabled("DRAExtendedResource"));
    EXPECT_FALSE(g35.enabled("DRAConsumableCapacity"));
    EXPECT_TRUE(g36.enabled("DRAConsumableCapacity"));
    EXPECT_FALSE(g37.enabled("DRAFractionalCapacityRange"));
    EXPECT_FALSE(g35.enabled("DRADeviceTaintRules"));
    EXPECT_FALSE(g36.enabled("DRADeviceTaintRules"));
    EXPECT_TRUE(g37.enabled("DRADeviceTaintRules"));
    EXPECT_FALSE(g37.enabled("NoSuchGate"));
    EXPECT_EQ(g35.names(),
        (std::vector<std::string> { "DRAConsumableCapacity", "DRADeviceBindingConditions",
            "DRADeviceTaintRules", "DRADeviceTaints", "DRAExtendedResource", "DRAPartitionableDevices",
            "GangScheduling", "GenericWorkload", "OpportunisticBatching", "PodLevelResources",
            "SchedulerPopFromBackoffQ", "SchedulerQueueingHints" }));
    // KEP-5517: alpha and off in 1.36 and 1.37, not in 1.35; pod-level resources beta and on since 1.34.
    EXPECT_FALSE(g35.known("DRANodeAllocatableResources"));
    EXPECT_FALSE(g36.enabled("DRANodeAllocatableResources"));
    EXPECT_TRUE(g37.known("DRANodeAllocatableResources"));
    EXPECT_FALSE(g37.enabled("DRANodeAllocatableResources"));
    for (const FeatureGates* g : { &g35, &g36, &g37 })
        EXPECT_TRUE(g->enabled("PodLevelResources"));
    // Alpha and off in 1.35, beta and on from 1.36 (DRADeviceTaints GA in 1.37, not locked).
    for (const char* gate : { "DRAPartitionableDevices", "DRADeviceTaints", "DRADeviceBindingConditions" }) {
        EXPECT_FALSE(g35.enabled(gate)) << gate;
        EXPECT_TRUE(g36.enabled(gate)) << gate;
        EXPECT_TRUE(g37.enabled(gate)) << gate;
    }
    FeatureGates taints37; // GA in 1.37 but not locked: set() takes false (the dependency aside)
    EXPECT_EQ(taints37.set("DRADeviceTaints", false), "");
    // Queueing hints: GA and locked on since 1.34, removed from the 1.37 binary.
    EXPECT_TRUE(g36.enabled("SchedulerQueueingHints"));
    EXPECT_FALSE(g37.known("SchedulerQueueingHints"));
    FeatureGates locked(KubernetesVersion::V1_35);
    EXPECT_EQ(locked.set("SchedulerQueueingHints", false),
        "cannot set feature gate SchedulerQueueingHints to false, feature is locked to true");
}

TEST(FeatureGates, SetChangesOneGateAndRefusesUnknownAndLockedOnes)
{
    FeatureGates g;
    EXPECT_EQ(g.set("GenericWorkload", true), "");
    EXPECT_TRUE(g.enabled("GenericWorkload"));
    EXPECT_EQ(g.set("SchedulerPopFromBackoffQ", false), "");
    EXPECT_FALSE(g.enabled("SchedulerPopFromBackoffQ"));
    EXPECT_EQ(g.set("GangScheduling", true), "unrecognized feature gate: GangScheduling");
    EXPECT_EQ(g.set("DRAExtendedResource", false),
        "cannot set feature gate DRAExtendedResource to false, feature is locked to true");
    EXPECT_EQ(g.set("DRAExtendedResource", true), "");
    EXPECT_EQ(g.overrides().size(), 3u);
    FeatureGates g36(KubernetesVersion::V1_36);
    EXPECT_EQ(g36.set("DRAExtendedResource", false), ""); // beta in 1.36: not locked
    EXPECT_FALSE(g36.enabled("DRAExtendedResource"));
}

TEST(FeatureGates, ParsesKubeSchedulerFlagSpelling)
{
    FeatureGates g;
    EXPECT_EQ(
        g.parse("GenericWorkload=true, TopologyAwareWorkloadScheduling = True,,SchedulerPopFromBackoffQ=0"),
        "");
    EXPECT_TRUE(g.enabled("GenericWorkload"));
    EXPECT_TRUE(g.enabled("TopologyAwareWorkloadScheduling"));
    EXPECT_FALSE(g.enabled("SchedulerPopFromBackoffQ"));
    EXPECT_EQ(g.parse(""), "");
}

TEST(FeatureGates, ParseErrorsAreFeaturegateWordsAndChangeNothing)
{
    FeatureGates g;
    const FeatureGates before = g;
    EXPECT_EQ(g.parse("GenericWorkload"), "missing bool value for GenericWorkload");
    EXPECT_EQ(g.parse("GenericWorkload=yes"),
        "invalid value of GenericWorkload=yes, err: strconv.ParseBool: parsing \"yes\": invalid syntax");
    EXPECT_EQ(
        g.parse("GenericWorkload=true,GangScheduling=true"), "unrecognized feature gate: GangScheduling");
    EXPECT_EQ(g.parse("DRAExtendedResource=false"),
        "cannot set feature gate DRAExtendedResource to false, feature is locked to true");
    EXPECT_EQ(g, before);
}

TEST(FeatureGates, DependenciesAreChecked)
{
    FeatureGates g;
    EXPECT_EQ(g.parse("CompositePodGroup=true"),
        "CompositePodGroup is enabled, but depends on features that are disabled: [GenericWorkload "
        "TopologyAwareWorkloadScheduling]");
    EXPECT_EQ(g.parse("CompositePodGroup=true,GenericWorkload=true"),
        "CompositePodGroup is enabled, but depends on features that are disabled: "
        "[TopologyAwareWorkloadScheduling]");
    EXPECT_FALSE(g.enabled("CompositePodGroup"));
    EXPECT_EQ(
        g.parse("CompositePodGroup=true,GenericWorkload=true,TopologyAwareWorkloadScheduling=true"), "");
    EXPECT_TRUE(g.enabled("CompositePodGroup"));

    FeatureGates g35(KubernetesVersion::V1_35);
    EXPECT_EQ(g35.parse("GangScheduling=true"),
        "GangScheduling is enabled, but depends on features that are disabled: [GenericWorkload]");
    // DRADeviceTaintRules: {DRADeviceTaints} (defaultKubernetesFeatureGateDependencies): 1.35 needs
    // both, and 1.37's default-on rules refuse device taints turned off.
    EXPECT_EQ(g35.parse("DRADeviceTaintRules=true"),
        "DRADeviceTaintRules is enabled, but depends on features that are disabled: [DRADeviceTaints]");
    EXPECT_EQ(g35.parse("DRADeviceTaintRules=true,DRADeviceTaints=true"), "");
    EXPECT_EQ(FeatureGates().parse("DRADeviceTaints=false"),
        "DRADeviceTaintRules is enabled, but depends on features that are disabled: [DRADeviceTaints]");
    // set() alone leaves dependencies to dependencyErrors().
    FeatureGates g37;
    EXPECT_EQ(g37.set("CompositePodGroup", true), "");
    EXPECT_EQ(g37.dependencyErrors(),
        std::vector<std::string> { "CompositePodGroup is enabled, but depends on features that are disabled: "
                                   "[GenericWorkload TopologyAwareWorkloadScheduling]" });
}

TEST(FeatureGates, AtVersionKeepsSettingsOrNamesTheOneThatVersionRefuses)
{
    FeatureGates g36(KubernetesVersion::V1_36);
    ASSERT_EQ(g36.parse("GenericWorkload=true,GangScheduling=true"), "");
    std::string error;
    EXPECT_FALSE(g36.atVersion(KubernetesVersion::V1_37, &error));
    EXPECT_EQ(error, "unrecognized feature gate: GangScheduling");
    auto g35 = g36.atVersion(KubernetesVersion::V1_35);
    ASSERT_TRUE(g35);
    EXPECT_TRUE(g35->enabled("GangScheduling"));
    EXPECT_EQ(g35->version(), KubernetesVersion::V1_35);
}
