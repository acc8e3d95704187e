// SPDX-License-Identifier: Apache-2.0
// Laws over scheduling.k8s.io versions: the same Workload or PodGroup written in each API version
// that can say it loads to the same internal object, as the API server's conversions make them
// one; and what is written back (in the version read) loads to the same object again.
#include <random>

#include <gtest/gtest.h>

#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

using namespace drasim;

namespace {

struct Version
{
    const char* apiVersion;
    api::KubernetesVersion kubernetes;
};

const Version k1alpha1 { "scheduling.k8s.io/v1alpha1", api::KubernetesVersion::V1_35 };
const Version k1alpha2 { "scheduling.k8s.io/v1alpha2", api::KubernetesVersion::V1_36 };
const Version k1beta1 { "scheduling.k8s.io/v1beta1", api::KubernetesVersion::V1_37 };
const Version k1alpha3 { "scheduling.k8s.io/v1alpha3", api::KubernetesVersion::V1_37 };

yamlio::LoadOptions optionsFor(const Version& v, bool richFields)
{
    yamlio::LoadOptions o;
    o.gates = api::FeatureGates(v.kubernetes);
    std::string flag = "GenericWorkload=true";
    if (richFields && v.kubernetes != api::KubernetesVersion::V1_35)
        flag += ",TopologyAwareWorkloadScheduling=true,DRAWorkloadResourceClaims=true";
    if (richFields && v.kubernetes == api::KubernetesVersion::V1_36)
        flag += ",WorkloadAwarePreemption=true";
    EXPECT_EQ(o.gates.parse(flag), "");
    return o;
}

struct Template
{
    std::string name;
    bool gang = false;
    int minCount = 1;
    std::string topology; ///< empty: none
    std::string claimTemplate; ///< empty: none
    int disruption = 0; ///< 0 unset, 1 single, 2 all
    int priority = -1; ///< < 0: unset
};

Template randomTemplate(std::mt19937& rng, size_t i, bool rich)
{
    Template t;
    t.name = "group-" + std::to_string(i);
    t.gang = rng() % 2;
    t.minCount = 1 + int(rng() % 64);
    if (!rich)
        return t;
    if (rng() % 2)
        t.topology = rng() % 2 ? "example.com/rack" : "topology.kubernetes.io/zone";
    if (rng() % 3 == 0)
        t.claimTemplate = "gpus-" + std::to_string(rng() % 3);
    t.disruption = int(rng() % 3);
    if (rng() % 2)
        t.priority = int(rng() % 2000) - 1000;
    return t;
}

/// The template's fields as `version` spells them, at six spaces.
std::string templateYaml(const Template& t, const Version& v)
{
    const bool alpha1 = v.kubernetes == api::KubernetesVersion::V1_35;
    std::string out = "  - name: " + t.name + "\n    " + (alpha1 ? "policy" : "schedulingPolicy") + ": "
        + (t.gang ? "{gang: {minCount: " + std::to_string(t.minCount) + "}}" : "{basic: {}}") + "\n";
    if (!t.topology.empty())
        out += "    schedulingConstraints: {topology: [{key: " + t.topology + "}]}\n";
    if (!t.claimTemplate.empty())
        out += "    resourceClaims: [{name: devices, resourceClaimTemplateName: " + t.claimTemplate + "}]\n";
    if (t.disruption != 0)
        out += "    disruptionMode: "
            + std::string(v.kubernetes == api::KubernetesVersion::V1_36
                    ? (t.disruption == 1 ? "Pod" : "PodGroup")
                    : (t.disruption == 1 ? "{single: {}}" : "{all: {}}"))
            + "\n";
    if (t.priority >= -1000 && t.priority != -1)
        out += "    priority: " + std::to_string(t.priority) + "\n";
    return out;
}

std::string workloadYaml(const std::vector<Template>& templates, const Version& v)
{
    std::string out = std::string("apiVersion: ") + v.apiVersion
        + "\nkind: Workload\nmetadata: {name: train, namespace: ml}\nspec:\n"
          "  controllerRef: {apiGroup: batch, kind: Job, name: train}\n"
        + (v.kubernetes == api::KubernetesVersion::V1_35 ? "  podGroups:\n" : "  podGroupTemplates:\n");
    for (const auto& t : templates)
        out += templateYaml(t, v);
    return out;
}

api::Workload loadOne(const std::string& text, const Version& v, bool rich)
{
    auto r = yamlio::loadText(text, "w.yaml", optionsFor(v, rich));
    EXPECT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll() << text;
    EXPECT_EQ(r.objects.workloads.size(), 1u) << text;
    return r.objects.workloads.empty() ? api::Workload {} : r.objects.workloads[0];
}

void expectSame(const api::Workload& a, const api::Workload& b, const std::string& text)
{
    EXPECT_EQ(a.meta.key(), b.meta.key()) << text;
    EXPECT_EQ(a.controllerRef, b.controllerRef) << text;
    EXPECT_EQ(a.podGroupTemplates, b.podGroupTemplates) << text;
    EXPECT_EQ(a.compositePodGroupTemplates, b.compositePodGroupTemplates) << text;
}

} // namespace

TEST(SchedulingVersionLaws, WorkloadIsOneObjectInEveryVersionThatCanSayIt)
{
    std::mt19937 rng(20260);
    for (int round = 0; round < 200; ++round) {
        const bool rich = round % 2 == 1; // fields v1alpha1 does not have
        std::vector<Template> templates;
        const size_t count = 1 + rng() % 8;
        for (size_t i = 0; i < count; ++i)
            templates.push_back(randomTemplate(rng, i, rich));
        std::vector<Version> versions = { k1alpha2, k1beta1, k1alpha3 };
        if (!rich)
            versions.push_back(k1alpha1);
        const std::string reference = workloadYaml(templates, k1beta1);
        const api::Workload expected = loadOne(reference, k1beta1, rich);
        for (const Version& v : versions) {
            const std::string text = workloadYaml(templates, v);
            const api::Workload w = loadOne(text, v, rich);
            expectSame(w, expected, text);
            // Written back in its own version, it reads the same again.
            const std::string written = toYaml(yamlio::toData(w));
            EXPECT_NE(written.find(std::string("apiVersion: ") + v.apiVersion), std::string::npos) << written;
            expectSame(loadOne(written, v, rich), expected, written);
        }
    }
}

TEST(SchedulingVersionLaws, PodGroupTemplateReferenceIsTheSameInV1alpha2AndV1beta1)
{
    const std::string spec = "metadata: {name: train-workers}\nspec:\n"
                             "  schedulingPolicy: {gang: {minCount: 8}}\n";
    const std::string v1alpha2 = "apiVersion: scheduling.k8s.io/v1alpha2\nkind: PodGroup\n" + spec
        + "  podGroupTemplateRef: {workload: {workloadName: train, podGroupTemplateName: workers}}\n";
    const std::string v1beta1 = "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\n" + spec
        + "  workloadRef: {workloadName: train, templateName: workers}\n";
    auto a = yamlio::loadText(v1alpha2, "a.yaml", optionsFor(k1alpha2, false));
    auto b = yamlio::loadText(v1beta1, "b.yaml", optionsFor(k1beta1, false));
    ASSERT_FALSE(a.diagnostics.hasErrors()) << a.diagnostics.formatAll();
    ASSERT_FALSE(b.diagnostics.hasErrors()) << b.diagnostics.formatAll();
    const api::PodGroup& ga = a.objects.podGroups.at(0);
    const api::PodGroup& gb = b.objects.podGroups.at(0);
    EXPECT_EQ(ga.workloadRef, gb.workloadRef);
    // 1.36 defaults disruptionMode only with WorkloadAwarePreemption; compare the rest.
    api::GroupPolicy pa = ga.policy, pb = gb.policy;
    pa.disruptionMode = pb.disruptionMode = api::DisruptionMode::Unset;
    EXPECT_EQ(pa, pb);
    for (const auto* g : { &ga, &gb }) {
        const std::string written = toYaml(yamlio::toData(*g));
        auto again = yamlio::loadText(written, "again.yaml",
            optionsFor(g->apiVersion == api::SchedulingVersion::V1alpha2 ? k1alpha2 : k1beta1, false));
        ASSERT_FALSE(again.diagnostics.hasErrors()) << again.diagnostics.formatAll() << written;
        EXPECT_EQ(again.objects.podGroups.at(0).workloadRef, g->workloadRef) << written;
        EXPECT_EQ(again.objects.podGroups.at(0).policy, g->policy) << written;
    }
}
