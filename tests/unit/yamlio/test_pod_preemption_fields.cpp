// SPDX-License-Identifier: Apache-2.0
// The pod fields preemption reads: spec.preemptionPolicy, spec.terminationGracePeriodSeconds,
// status.startTime and status.nominatedNodeName; read, validated as the API server does, and
// written back.
#include <gtest/gtest.h>

#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

using namespace drasim;

namespace {

yamlio::LoadResult loadPod(const std::string& specAndStatus)
{
    return yamlio::loadText("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
                            "  containers: [{name: c, image: x}]\n"
            + specAndStatus,
        "t.yaml");
}

TEST(PodPreemptionFields, AreReadFromSpecAndStatus)
{
    auto r = loadPod("  preemptionPolicy: Never\n"
                     "  terminationGracePeriodSeconds: 120\n"
                     "status:\n"
                     "  phase: Pending\n"
                     "  nominatedNodeName: node-3\n"
                     "  startTime: \"2026-01-02T03:04:05Z\"\n");
    ASSERT_EQ(r.diagnostics.formatAll(), "");
    ASSERT_EQ(r.objects.pods.size(), 1u);
    const api::Pod& pod = r.objects.pods[0];
    EXPECT_EQ(pod.spec.preemptionPolicy, api::PreemptionPolicy::Never);
    EXPECT_EQ(pod.spec.terminationGracePeriodSeconds, 120);
    EXPECT_EQ(api::effectiveTerminationGracePeriodSeconds(pod.spec), 120);
    EXPECT_EQ(pod.nominatedNodeName, "node-3");
    ASSERT_TRUE(pod.startTime.has_value());
    EXPECT_EQ(pod.startTime->text, "2026-01-02T03:04:05Z");
    EXPECT_EQ(pod.startTime->seconds, 1767323045);
}

TEST(PodPreemptionFields, AbsentFieldsStayUnsetAndTheGracePeriodDefaultsToThirty)
{
    auto r = loadPod("");
    ASSERT_EQ(r.objects.pods.size(), 1u);
    const api::Pod& pod = r.objects.pods[0];
    EXPECT_EQ(pod.spec.preemptionPolicy, api::PreemptionPolicy::Unset);
    EXPECT_FALSE(pod.spec.terminationGracePeriodSeconds.has_value());
    EXPECT_EQ(api::effectiveTerminationGracePeriodSeconds(pod.spec), 30);
    EXPECT_EQ(pod.nominatedNodeName, "");
    EXPECT_FALSE(pod.startTime.has_value());
    // A field absent on input is not written.
    const std::string yaml = toYaml(yamlio::toData(pod));
    EXPECT_EQ(yaml.find("preemptionPolicy"), std::string::npos) << yaml;
    EXPECT_EQ(yaml.find("terminationGracePeriodSeconds"), std::string::npos) << yaml;
    EXPECT_EQ(yaml.find("nominatedNodeName"), std::string::npos) << yaml;
    EXPECT_EQ(yaml.find("startTime"), std::string::npos) << yaml;
}

TEST(PodPreemptionFields, AnOffsetStartTimeIsKeptAsWrittenAndCountedInUtc)
{
    auto r = loadPod("status: {startTime: \"2026-01-02T05:04:05.5+02:00\"}\n");
    ASSERT_EQ(r.diagnostics.formatAll(), "");
    ASSERT_TRUE(r.objects.pods.at(0).startTime.has_value());
    EXPECT_EQ(r.objects.pods[0].startTime->text, "2026-01-02T05:04:05.5+02:00");
    EXPECT_EQ(r.objects.pods[0].startTime->seconds, 1767323045);
}

TEST(PodPreemptionFields, BadValuesGetTheApiServersLocatedErrors)
{
    auto r = loadPod("  preemptionPolicy: Sometimes\n"
                     "  terminationGracePeriodSeconds: -1\n"
                     "status: {startTime: yesterday}\n");
    EXPECT_TRUE(r.objects.pods.empty());
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:6:21: Pod default/p: spec.preemptionPolicy: Unsupported value: \"Sometimes\": supported "
        "values: \"Never\", \"PreemptLowerPriority\"\n"
        "t.yaml:7:34: Pod default/p: spec.terminationGracePeriodSeconds: Invalid value: -1: must be greater "
        "than or equal to 0\n"
        "t.yaml:8:21: Pod default/p: status.startTime: Invalid value: \"yesterday\": parsing time "
        "\"yesterday\" as RFC 3339: cannot parse\n");
}

TEST(PodPreemptionFields, WrongTypesAreDecodingErrors)
{
    auto r = loadPod("  preemptionPolicy: 3\n"
                     "  terminationGracePeriodSeconds: soon\n");
    EXPECT_TRUE(r.objects.pods.empty());
    EXPECT_EQ(r.diagnostics.errorCount(), 2u) << r.diagnostics.formatAll();
}

TEST(PodPreemptionFields, WriterPutsThemInTheApisOrderAndReadingItBackGivesTheSameFields)
{
    auto first = loadPod("  priority: 5\n"
                         "  preemptionPolicy: Never\n"
                         "  terminationGracePeriodSeconds: 0\n"
                         "status:\n"
                         "  phase: Running\n"
                         "  nominatedNodeName: n1\n"
                         "  startTime: \"2026-01-02T03:04:05Z\"\n");
    ASSERT_EQ(first.diagnostics.formatAll(), "");
    const std::string yaml = yamlio::toYamlList(first.objects);
    EXPECT_NE(yaml.find("    terminationGracePeriodSeconds: 0\n"), std::string::npos) << yaml;
    EXPECT_NE(yaml.find("    priority: 5\n    preemptionPolicy: Never\n"), std::string::npos) << yaml;
    EXPECT_NE(
        yaml.find("    phase: Running\n    nominatedNodeName: n1\n    startTime: 2026-01-02T03:04:05Z\n"),
        std::string::npos)
        << yaml;
    auto second = yamlio::loadText(yaml, "round.yaml");
    ASSERT_EQ(second.diagnostics.formatAll(), "");
    ASSERT_EQ(second.objects.pods.size(), 1u);
    const api::Pod& a = first.objects.pods[0];
    const api::Pod& b = second.objects.pods[0];
    EXPECT_EQ(b.spec.preemptionPolicy, a.spec.preemptionPolicy);
    EXPECT_EQ(b.spec.terminationGracePeriodSeconds, a.spec.terminationGracePeriodSeconds);
    EXPECT_EQ(b.nominatedNodeName, a.nominatedNodeName);
    ASSERT_TRUE(b.startTime.has_value());
    EXPECT_EQ(b.startTime->text, a.startTime->text);
    EXPECT_EQ(b.startTime->seconds, a.startTime->seconds);
    EXPECT_EQ(yamlio::toYamlList(second.objects), yaml);
}

} // namespace
