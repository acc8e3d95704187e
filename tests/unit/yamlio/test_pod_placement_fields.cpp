// SPDX-License-Identifier: Apache-2.0
// Pod spec.topologySpreadConstraints and spec.affinity.podAffinity / podAntiAffinity: read, refused
// as the API server's ValidateTopologySpreadConstraints and ValidateAffinity refuse them (field
// path and wording), and written back so that a second read gives the same pod.
#include <gtest/gtest.h>

#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

using namespace drasim;

namespace pod_placement_fields_test {

yamlio::LoadResult loadPod(const std::string& specLines)
{
    return yamlio::loadText(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {app: web, version: '2'}}\n"
        "spec:\n  containers: [{name: c, image: x}]\n"
            + specLines,
        "t.yaml");
}

TEST(PodPlacementFields, SpreadConstraintsAreReadWithTheirDefaults)
{
    auto r
        = loadPod("  topologySpreadConstraints:\n"
                  "  - {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, "
                  "labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [version]}\n"
                  "  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, "
                  "minDomains: 3, nodeAffinityPolicy: Ignore, nodeTaintsPolicy: Honor}\n");
    ASSERT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    const auto& cs = r.objects.pods.at(0).spec.topologySpreadConstraints;
    ASSERT_EQ(cs.size(), 2u);
    EXPECT_EQ(cs[0].maxSkew, 2);
    EXPECT_FALSE(cs[0].doNotSchedule);
    EXPECT_TRUE(cs[0].honorNodeAffinity);
    EXPECT_FALSE(cs[0].honorNodeTaints);
    EXPECT_EQ(cs[0].matchLabelKeys, std::vector<std::string> { "version" });
    ASSERT_TRUE(cs[0].labelSelector);
    EXPECT_EQ(cs[0].labelSelector->matchLabels.at("app"), "web");
    EXPECT_FALSE(cs[0].minDomains);
    EXPECT_TRUE(cs[1].doNotSchedule);
    EXPECT_EQ(cs[1].minDomains, 3);
    EXPECT_FALSE(cs[1].honorNodeAffinity);
    EXPECT_TRUE(cs[1].honorNodeTaints);
    EXPECT_FALSE(cs[1].labelSelector);
}

TEST(PodPlacementFields, BadSpreadConstraintsAreRefusedWhereTheyAre)
{
    auto r
        = loadPod("  topologySpreadConstraints:\n"
                  "  - {maxSkew: 0, topologyKey: '', whenUnsatisfiable: Sometimes}\n"
                  "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, minDomains: 2}\n"
                  "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, nodeTaintsPolicy: "
                  "Maybe, labelSelector: {matchLabels: {version: '1'}}, matchLabelKeys: [version]}\n");
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:7:54: Pod default/p: spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported "
        "value: \"Sometimes\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"\n"
        "t.yaml:7:15: Pod default/p: spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must "
        "be greater than zero\n"
        "t.yaml:7:31: Pod default/p: spec.topologySpreadConstraints[0].topologyKey: Required value: can "
        "not be empty\n"
        "t.yaml:8:84: Pod default/p: spec.topologySpreadConstraints[1].minDomains: Invalid value: 2: "
        "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway\n"
        "t.yaml:9:90: Pod default/p: spec.topologySpreadConstraints[2].nodeTaintsPolicy: Unsupported "
        "value: \"Maybe\": supported values: \"Honor\", \"Ignore\"\n"
        "t.yaml:9:160: Pod default/p: spec.topologySpreadConstraints[2].matchLabelKeys[0]: Invalid "
        "value: \"version\": exists in both matchLabelKeys and labelSelector\n"
        "t.yaml:8:5: Pod default/p: spec.topologySpreadConstraints[1].{topologyKey, whenUnsatisfiable}: "
        "Duplicate value: \"{zone, ScheduleAnyway}\"\n");
    EXPECT_TRUE(r.objects.pods.empty());
}

TEST(PodPlacementFields, PodAffinityTermsAreReadAndBadOnesRefused)
{
    auto ok = loadPod(
        "  affinity:\n    podAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
        "      - {topologyKey: zone, labelSelector: {matchLabels: {app: db}}, namespaces: [data]}\n"
        "    podAntiAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution:\n"
        "      - {weight: 50, podAffinityTerm: {topologyKey: kubernetes.io/hostname, "
        "namespaceSelector: {}, labelSelector: {matchExpressions: [{key: app, operator: Exists}]}}}\n");
    ASSERT_FALSE(ok.diagnostics.hasErrors()) << ok.diagnostics.formatAll();
    const auto& spec = ok.objects.pods.at(0).spec;
    ASSERT_TRUE(spec.podAffinity && spec.podAntiAffinity);
    ASSERT_EQ(spec.podAffinity->required.size(), 1u);
    EXPECT_EQ(spec.podAffinity->required[0].namespaces, std::vector<std::string> { "data" });
    ASSERT_EQ(spec.podAntiAffinity->preferred.size(), 1u);
    EXPECT_EQ(spec.podAntiAffinity->preferred[0].weight, 50);
    EXPECT_TRUE(spec.podAntiAffinity->preferred[0].term.namespaceSelector);

    auto bad = loadPod("  affinity:\n    podAntiAffinity:\n"
                       "      requiredDuringSchedulingIgnoredDuringExecution:\n"
                       "      - {labelSelector: {matchLabels: {app: db}}, namespaces: [Bad_NS]}\n"
                       "      preferredDuringSchedulingIgnoredDuringExecution:\n"
                       "      - {weight: 101, podAffinityTerm: {topologyKey: zone}}\n");
    const std::string text = bad.diagnostics.formatAll();
    EXPECT_NE(
        text.find(
            "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespace: "
            "Invalid value: \"Bad_NS\""),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
                        "topologyKey: Required value: can not be empty"),
        std::string::npos)
        << text;
    EXPECT_NE(
        text.find("spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: "
                  "Invalid value: 101: must be in the range 1-100"),
        std::string::npos)
        << text;
    EXPECT_TRUE(bad.objects.pods.empty());
}

// Written out and read again, the pod keeps every placement field as it was read.
TEST(PodPlacementFields, WrittenBackTheyReadTheSame)
{
    auto r = loadPod(
        "  topologySpreadConstraints:\n"
        "  - {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {}}\n"
        "  - {maxSkew: 1, topologyKey: rack, whenUnsatisfiable: DoNotSchedule, minDomains: 2, "
        "nodeTaintsPolicy: Honor, labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [version]}\n"
        "  affinity:\n    podAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
        "      - {topologyKey: zone, labelSelector: {matchLabels: {app: db}}, namespaces: [data], "
        "mismatchLabelKeys: [version]}\n"
        "    podAntiAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution:\n"
        "      - {weight: 50, podAffinityTerm: {topologyKey: kubernetes.io/hostname, "
        "namespaceSelector: {}}}\n");
    ASSERT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    const std::string yaml = yamlio::toYamlList(r.objects);
    auto again = yamlio::loadText(yaml, "again.yaml");
    ASSERT_FALSE(again.diagnostics.hasErrors()) << again.diagnostics.formatAll() << yaml;
    const auto& a = r.objects.pods.at(0).spec;
    const auto& b = again.objects.pods.at(0).spec;
    EXPECT_EQ(a.topologySpreadConstraints, b.topologySpreadConstraints) << yaml;
    EXPECT_EQ(a.podAffinity, b.podAffinity) << yaml;
    EXPECT_EQ(a.podAntiAffinity, b.podAntiAffinity) << yaml;
}

} // namespace pod_placement_fields_test
