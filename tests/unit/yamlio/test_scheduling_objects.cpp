// SPDX-License-Identifier: Apache-2.0
// scheduling.k8s.io Workload, PodGroup, CompositePodGroup and PriorityClass, and the pod and Job
// fields that name them: served per Kubernetes version and feature gate, validated and located as
// the API server reports them.
#include <gtest/gtest.h>

#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"
#include "tests/unit/yamlio/load_messages.h"

using namespace drasim;

namespace {

yamlio::LoadOptions gatesOn(const std::string& flag, api::KubernetesVersion v = api::KubernetesVersion::V1_37)
{
    yamlio::LoadOptions o;
    o.gates = api::FeatureGates(v);
    EXPECT_EQ(o.gates.parse(flag), "");
    return o;
}

yamlio::LoadOptions generic(api::KubernetesVersion v = api::KubernetesVersion::V1_37)
{
    return gatesOn("GenericWorkload=true", v);
}

std::string messages(const yamlio::LoadResult& r, Severity severity)
{
    return drasim::testing::loadMessages(r, severity);
}

std::string schedulingErrors(const yamlio::LoadResult& r)
{
    return messages(r, Severity::Error);
}

std::string warnings(const yamlio::LoadResult& r)
{
    return messages(r, Severity::Warning);
}

const char* kWorkload = "apiVersion: scheduling.k8s.io/v1beta1\n"
                        "kind: Workload\n"
                        "metadata: {name: train}\n"
                        "spec:\n"
                        "  controllerRef: {apiGroup: batch, kind: Job, name: train}\n"
                        "  podGroupTemplates:\n"
                        "  - name: workers\n"
                        "    schedulingPolicy: {gang: {minCount: 4}}\n"
                        "    priorityClassName: high\n"
                        "    priority: 1000\n"
                        "    disruptionMode: {all: {}}\n"
                        "  - name: driver\n"
                        "    schedulingPolicy: {basic: {}}\n";

/// A v1beta1 Workload whose first template carries `extra` (lines at template indent).
std::string workloadWith(const std::string& templates)
{
    return "apiVersion: scheduling.k8s.io/v1beta1\nkind: Workload\nmetadata: {name: w}\nspec:\n"
           "  podGroupTemplates:\n"
        + templates;
}

} // namespace

TEST(SchedulingObjects, WorkloadLoadsIntoTheInternalForm)
{
    auto r = yamlio::loadText(kWorkload, "w.yaml", generic());
    ASSERT_EQ(schedulingErrors(r), "");
    ASSERT_EQ(r.objects.workloads.size(), 1u);
    const api::Workload& w = r.objects.workloads[0];
    EXPECT_EQ(w.meta.key(), "default/train");
    EXPECT_EQ(w.apiVersion, api::SchedulingVersion::V1beta1);
    ASSERT_TRUE(w.controllerRef);
    EXPECT_EQ(w.controllerRef->kind, "Job");
    ASSERT_EQ(w.podGroupTemplates.size(), 2u);
    EXPECT_TRUE(w.podGroupTemplates[0].policy.scheduling.gang);
    EXPECT_EQ(w.podGroupTemplates[0].policy.scheduling.minCount, 4);
    EXPECT_EQ(w.podGroupTemplates[0].policy.priority, 1000);
    EXPECT_EQ(w.podGroupTemplates[0].policy.disruptionMode, api::DisruptionMode::All);
    EXPECT_FALSE(w.podGroupTemplates[1].policy.scheduling.gang);
}

TEST(SchedulingObjects, RefusedWhenGenericWorkloadIsOffAsByDefault)
{
    auto r = yamlio::loadText(kWorkload, "w.yaml");
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:1:13: Workload default/train: apiVersion: no matches for kind \"Workload\" in version "
        "\"scheduling.k8s.io/v1beta1\" (Kubernetes 1.37 serves it only with the feature gate GenericWorkload "
        "on)\n");
    EXPECT_TRUE(r.objects.workloads.empty());
}

TEST(SchedulingObjects, EachKubernetesVersionServesItsOwnApiVersions)
{
    const std::string pg = "kind: PodGroup\nmetadata: {name: g}\nspec: {schedulingPolicy: {basic: {}}}\n";
    auto r = yamlio::loadText("apiVersion: scheduling.k8s.io/v1alpha2\n" + pg, "g.yaml", generic());
    EXPECT_EQ(schedulingErrors(r),
        "g.yaml:1:13: PodGroup default/g: apiVersion: no matches for kind \"PodGroup\" in version "
        "\"scheduling.k8s.io/v1alpha2\" (Kubernetes 1.37 serves PodGroup in scheduling.k8s.io/v1beta1 and "
        "scheduling.k8s.io/v1alpha3)\n");
    r = yamlio::loadText(
        "apiVersion: scheduling.k8s.io/v1alpha2\n" + pg, "g.yaml", generic(api::KubernetesVersion::V1_36));
    EXPECT_EQ(schedulingErrors(r), "");
    EXPECT_EQ(r.objects.podGroups.size(), 1u);
    r = yamlio::loadText(
        "apiVersion: scheduling.k8s.io/v1beta1\n" + pg, "g.yaml", generic(api::KubernetesVersion::V1_35));
    EXPECT_EQ(schedulingErrors(r),
        "g.yaml:1:13: PodGroup default/g: apiVersion: no matches for kind \"PodGroup\" in version "
        "\"scheduling.k8s.io/v1beta1\" (Kubernetes 1.35 has no PodGroup)\n");
}

TEST(SchedulingObjects, CompositePodGroupNeedsItsGate)
{
    const std::string cpg = "apiVersion: scheduling.k8s.io/v1alpha3\nkind: CompositePodGroup\n"
                            "metadata: {name: root}\n"
                            "spec:\n  workloadRef: {workloadName: w, templateName: root}\n"
                            "  schedulingPolicy: {gang: {minGroupCount: 2}}\n";
    auto r = yamlio::loadText(cpg, "c.yaml", generic());
    EXPECT_EQ(schedulingErrors(r),
        "c.yaml:1:13: CompositePodGroup default/root: apiVersion: no matches for kind \"CompositePodGroup\" "
        "in "
        "version \"scheduling.k8s.io/v1alpha3\" (Kubernetes 1.37 serves it only with the feature gate "
        "CompositePodGroup on)\n");
    r = yamlio::loadText(cpg, "c.yaml",
        gatesOn("GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true"));
    ASSERT_EQ(schedulingErrors(r), "");
    ASSERT_EQ(r.objects.compositePodGroups.size(), 1u);
    EXPECT_EQ(r.objects.compositePodGroups[0].policy.scheduling.minCount, 2);
    EXPECT_EQ(r.objects.compositePodGroups[0].policy.disruptionMode, api::DisruptionMode::Single); // default
}

TEST(SchedulingObjects, GangPolicyRules)
{
    auto r = yamlio::loadText(
        workloadWith("  - name: a\n    schedulingPolicy: {gang: {minCount: 0}}\n"
                     "  - name: b\n    schedulingPolicy: {gang: {minCount: -2}}\n"
                     "  - name: c\n    schedulingPolicy: {basic: {}, gang: {minCount: 1}}\n"
                     "  - name: d\n    schedulingPolicy: {}\n"
                     "  - name: e\n"),
        "w.yaml", generic());
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:7:41: Workload default/w: spec.podGroupTemplates[0].schedulingPolicy.gang.minCount: Required "
        "value\n"
        "w.yaml:9:41: Workload default/w: spec.podGroupTemplates[1].schedulingPolicy.gang.minCount: Invalid "
        "value: -2: must be greater than zero\n"
        "w.yaml:11:23: Workload default/w: spec.podGroupTemplates[2].schedulingPolicy: Invalid value: "
        "\"{`basic`, `gang`}\": exactly one of `basic`, `gang` is required, but multiple fields are set\n"
        "w.yaml:13:23: Workload default/w: spec.podGroupTemplates[3].schedulingPolicy: Invalid value: \"\": "
        "must "
        "specify one of: `basic`, `gang`\n"
        "w.yaml:14:5: Workload default/w: spec.podGroupTemplates[4].schedulingPolicy: Invalid value: \"\": "
        "must "
        "specify one of: `basic`, `gang`\n");
}

TEST(SchedulingObjects, TemplateCountNamesAndDuplicates)
{
    std::string nine;
    for (int i = 0; i < 9; ++i)
        nine += "  - {name: t" + std::to_string(i) + ", schedulingPolicy: {basic: {}}}\n";
    auto r = yamlio::loadText(workloadWith(nine), "w.yaml", generic());
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:6:3: Workload default/w: spec.podGroupTemplates: Too many: 9: must have at most 8 items\n");
    r = yamlio::loadText(workloadWith("  - {name: Bad_Name, schedulingPolicy: {basic: {}}}\n"
                                      "  - {name: a, schedulingPolicy: {basic: {}}}\n"
                                      "  - {name: a, schedulingPolicy: {basic: {}}}\n"
                                      "  - {schedulingPolicy: {basic: {}}}\n"),
        "w.yaml", generic());
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:6:12: Workload default/w: spec.podGroupTemplates[0].name: Invalid value: \"Bad_Name\": a "
        "lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
        "and "
        "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')\n"
        "w.yaml:8:12: Workload default/w: spec.podGroupTemplates[2]: Duplicate value: \"a\"\n"
        "w.yaml:9:5: Workload default/w: spec.podGroupTemplates[3].name: Required value\n");
    r = yamlio::loadText(
        "apiVersion: scheduling.k8s.io/v1beta1\nkind: Workload\nmetadata: {name: w}\nspec: {}\n", "w.yaml",
        generic());
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:4:7: Workload default/w: spec.podGroupTemplates: Required value: must have at least one "
        "item\n");
}

TEST(SchedulingObjects, GatedTemplateFieldsAreForbiddenWhileTheirGateIsOff)
{
    const std::string t = "  - name: a\n    schedulingPolicy: {gang: {minCount: 2}}\n"
                          "    schedulingConstraints: {topology: [{key: rack}]}\n"
                          "    resourceClaims: [{name: c, resourceClaimTemplateName: gpus}]\n"
                          "    preemptionPolicy: Never\n";
    auto r = yamlio::loadText(workloadWith(t), "w.yaml", generic());
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:8:28: Workload default/w: spec.podGroupTemplates[0].schedulingConstraints: Forbidden: "
        "feature "
        "gate TopologyAwareWorkloadScheduling is disabled\n"
        "w.yaml:9:21: Workload default/w: spec.podGroupTemplates[0].resourceClaims: Forbidden: feature gate "
        "DRAWorkloadResourceClaims is disabled\n"
        "w.yaml:10:23: Workload default/w: spec.podGroupTemplates[0].preemptionPolicy: Forbidden: feature "
        "gate "
        "PodGroupPreemptionPolicy is disabled\n");
    r = yamlio::loadText(workloadWith(t), "w.yaml",
        gatesOn("GenericWorkload=true,TopologyAwareWorkloadScheduling=true,DRAWorkloadResourceClaims=true,"
                "PodGroupPreemptionPolicy=true"));
    ASSERT_EQ(schedulingErrors(r), "");
    const api::GroupPolicy& p = r.objects.workloads.at(0).podGroupTemplates.at(0).policy;
    EXPECT_EQ(p.topologyKeys, std::vector<std::string> { "rack" });
    ASSERT_EQ(p.resourceClaims.size(), 1u);
    EXPECT_EQ(p.resourceClaims[0].resourceClaimTemplateName, "gpus");
    EXPECT_EQ(p.preemptionPolicy, api::GroupPreemptionPolicy::Never);
}

TEST(SchedulingObjects, TopologyClaimsPriorityAndDisruptionRules)
{
    const std::string t = "  - name: a\n    schedulingPolicy: {basic: {}}\n"
                          "    schedulingConstraints: {topology: [{key: rack}, {key: Bad Key}]}\n"
                          "    resourceClaims: [{name: c}, {name: c, resourceClaimName: x}]\n"
                          "    priority: 1000000001\n"
                          "    disruptionMode: {single: {}, all: {}}\n";
    auto r = yamlio::loadText(workloadWith(t), "w.yaml",
        gatesOn("GenericWorkload=true,TopologyAwareWorkloadScheduling=true,DRAWorkloadResourceClaims=true"));
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:8:59: Workload default/w: spec.podGroupTemplates[0].schedulingConstraints.topology[1].key: "
        "Invalid value: \"Bad Key\": name part must consist of alphanumeric characters, '-', '_' or '.', and "
        "must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "
        "regex "
        "used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\n"
        "w.yaml:8:39: Workload default/w: spec.podGroupTemplates[0].schedulingConstraints.topology: Too "
        "many: "
        "2: must have at most 1 items\n"
        "w.yaml:9:22: Workload default/w: spec.podGroupTemplates[0].resourceClaims[0]: Invalid value: must "
        "specify one of: `resourceClaimName`, `resourceClaimTemplateName`\n"
        "w.yaml:9:40: Workload default/w: spec.podGroupTemplates[0].resourceClaims[1].name: Duplicate value: "
        "\"c\"\n"
        "w.yaml:10:15: Workload default/w: spec.podGroupTemplates[0].priority: Invalid value: 1000000001: "
        "must "
        "be less than or equal to 1000000000\n"
        "w.yaml:11:21: Workload default/w: spec.podGroupTemplates[0].disruptionMode: Invalid value: "
        "\"{`single`, `all`}\": exactly one of `single`, `all` is required, but multiple fields are set\n");
}

TEST(SchedulingObjects, PodGroupNamesItsTemplateAsEachVersionSpellsIt)
{
    auto r = yamlio::loadText(
        "apiVersion: scheduling.k8s.io/v1alpha2\nkind: PodGroup\nmetadata: {name: g}\n"
        "spec:\n  podGroupTemplateRef: {workload: {workloadName: w, podGroupTemplateName: a}}\n"
        "  schedulingPolicy: {gang: {minCount: 2}}\n  disruptionMode: PodGroup\n",
        "g.yaml",
        gatesOn("GenericWorkload=true,WorkloadAwarePreemption=true", api::KubernetesVersion::V1_36));
    ASSERT_EQ(schedulingErrors(r), "");
    const api::PodGroup& g = r.objects.podGroups.at(0);
    ASSERT_TRUE(g.workloadRef);
    EXPECT_EQ(g.workloadRef->workloadName, "w");
    EXPECT_EQ(g.workloadRef->templateName, "a");
    EXPECT_EQ(g.policy.disruptionMode, api::DisruptionMode::All);
    // 1.36 without WorkloadAwarePreemption: disruptionMode is refused.
    r = yamlio::loadText("apiVersion: scheduling.k8s.io/v1alpha2\nkind: PodGroup\nmetadata: {name: g}\n"
                         "spec:\n  schedulingPolicy: {basic: {}}\n  disruptionMode: Everything\n",
        "g.yaml", generic(api::KubernetesVersion::V1_36));
    EXPECT_EQ(schedulingErrors(r),
        "g.yaml:6:19: PodGroup default/g: spec.disruptionMode: Forbidden: feature gate "
        "WorkloadAwarePreemption "
        "is disabled\n");
    r = yamlio::loadText("apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g}\n"
                         "spec:\n  parentCompositePodGroupName: root\n  schedulingPolicy: {basic: {}}\n",
        "g.yaml",
        gatesOn("GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true"));
    EXPECT_EQ(schedulingErrors(r),
        "g.yaml:5:32: PodGroup default/g: spec.workloadRef: Required value: when parentCompositePodGroupName "
        "is "
        "set\n");
}

TEST(SchedulingObjects, PriorityClassDefaultsAndRules)
{
    auto r
        = yamlio::loadText("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\n"
                           "value: 1000\nglobalDefault: true\ndescription: training\n",
            "p.yaml");
    ASSERT_EQ(schedulingErrors(r), "");
    ASSERT_EQ(r.objects.priorityClasses.size(), 1u);
    EXPECT_EQ(r.objects.priorityClasses[0].value, 1000);
    EXPECT_EQ(r.objects.priorityClasses[0].preemptionPolicy, "PreemptLowerPriority");
    r = yamlio::loadText(
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: huge}\n"
        "value: 2000000000\npreemptionPolicy: Sometimes\n---\n"
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-x}\n"
        "value: 1\n---\n"
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: a}\nvalue: 1\n"
        "globalDefault: true\n---\n"
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: b}\nvalue: 2\n"
        "globalDefault: true\n---\n"
        "apiVersion: scheduling.k8s.io/v1beta1\nkind: PriorityClass\nmetadata: {name: c}\n",
        "p.yaml");
    EXPECT_EQ(schedulingErrors(r),
        "p.yaml:5:19: PriorityClass huge: preemptionPolicy: Unsupported value: \"Sometimes\": supported "
        "values: "
        "\"Never\", \"PreemptLowerPriority\"\n"
        "p.yaml:4:8: PriorityClass huge: value: Forbidden: maximum allowed value of a user defined priority "
        "is "
        "1000000000\n"
        "p.yaml:9:11: PriorityClass system-x: metadata.name: Forbidden: priority class names with 'system-' "
        "prefix are reserved for system use only. error: system-x is not a known system priority class\n"
        "p.yaml:24:13: PriorityClass c: apiVersion: no matches for kind \"PriorityClass\" in version "
        "\"scheduling.k8s.io/v1beta1\" (expected scheduling.k8s.io/v1)\n"
        "p.yaml:18:1: PriorityClass b: globalDefault: Forbidden: PriorityClass a is already marked as "
        "default. "
        "Only one default can exist\n");
}

TEST(SchedulingObjects, PodWorkloadRefIsA135FieldDroppedWhileTheGateIsOff)
{
    const std::string pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                            "spec:\n  containers: [{name: c, image: x}]\n"
                            "  workloadRef: {name: train, podGroup: workers, podGroupReplicaKey: r0}\n";
    auto r = yamlio::loadText(pod, "p.yaml", generic(api::KubernetesVersion::V1_35));
    ASSERT_EQ(schedulingErrors(r), "");
    ASSERT_TRUE(r.objects.pods.at(0).spec.workloadRef);
    EXPECT_EQ(r.objects.pods[0].spec.workloadRef->podGroupReplicaKey, "r0");
    yamlio::LoadOptions off;
    off.gates = api::FeatureGates(api::KubernetesVersion::V1_35);
    r = yamlio::loadText(pod, "p.yaml", off);
    EXPECT_EQ(schedulingErrors(r), "");
    EXPECT_EQ(warnings(r),
        "p.yaml:6:16: warning: Pod default/p: spec.workloadRef: dropped: feature gate GenericWorkload is "
        "disabled, so "
        "the "
        "API server clears this field\n");
    EXPECT_FALSE(r.objects.pods.at(0).spec.workloadRef);
    // 1.36 removed the field: strict decoding does not know it.
    r = yamlio::loadText(pod, "p.yaml", generic(api::KubernetesVersion::V1_36));
    EXPECT_EQ(
        schedulingErrors(r), "p.yaml:6:3: Pod default/p: spec.workloadRef: unknown field \"workloadRef\"\n");
    r = yamlio::loadText(pod.substr(0, pod.find("  workloadRef")) + "  workloadRef: {podGroup: Bad}\n",
        "p.yaml", generic(api::KubernetesVersion::V1_35));
    EXPECT_EQ(schedulingErrors(r),
        "p.yaml:6:16: Pod default/p: spec.workloadRef.name: Required value\n"
        "p.yaml:6:27: Pod default/p: spec.workloadRef.podGroup: Invalid value: \"Bad\": a lowercase RFC 1123 "
        "label must consist of lower case alphanumeric characters or '-', and must start and end with an "
        "alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')\n");
}

TEST(SchedulingObjects, PodSchedulingGroupFrom136)
{
    const std::string pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                            "spec:\n  containers: [{name: c, image: x}]\n"
                            "  schedulingGroup: {podGroupName: train-workers}\n";
    auto r = yamlio::loadText(pod, "p.yaml", generic());
    ASSERT_EQ(schedulingErrors(r), "");
    EXPECT_EQ(r.objects.pods.at(0).spec.schedulingGroup, "train-workers");
    r = yamlio::loadText(pod, "p.yaml");
    EXPECT_EQ(warnings(r),
        "p.yaml:6:20: warning: Pod default/p: spec.schedulingGroup: dropped: feature gate GenericWorkload is "
        "disabled, so "
        "the API server clears this field\n");
    EXPECT_FALSE(r.objects.pods.at(0).spec.schedulingGroup);
    r = yamlio::loadText(pod, "p.yaml", generic(api::KubernetesVersion::V1_35));
    EXPECT_EQ(schedulingErrors(r),
        "p.yaml:6:3: Pod default/p: spec.schedulingGroup: unknown field \"schedulingGroup\"\n");
}

TEST(SchedulingObjects, JobSchedulingIs137AndNeedsWorkloadWithJob)
{
    const std::string job = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: train}\n"
                            "spec:\n  parallelism: 4\n"
                            "  scheduling:\n    schedulingPolicy: {gang: {}}\n"
                            "    schedulingConstraints: {topology: [{key: rack}]}\n"
                            "  template:\n    spec:\n      containers: [{name: c, image: x}]\n";
    auto r = yamlio::loadText(job, "j.yaml", gatesOn("GenericWorkload=true,WorkloadWithJob=true"));
    ASSERT_EQ(schedulingErrors(r), "");
    const auto& s = r.objects.controllers.at(0).scheduling;
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->gang);
    EXPECT_FALSE(s->minCount); // the controller defaults it to parallelism
    EXPECT_EQ(s->topologyKeys, std::vector<std::string> { "rack" });
    r = yamlio::loadText(job, "j.yaml");
    EXPECT_EQ(warnings(r),
        "j.yaml:7:5: warning: Job default/train: spec.scheduling: dropped: feature gate WorkloadWithJob is "
        "disabled, "
        "so "
        "the API server clears this field\n");
    EXPECT_FALSE(r.objects.controllers.at(0).scheduling);
    r = yamlio::loadText(job, "j.yaml", generic(api::KubernetesVersion::V1_36));
    EXPECT_EQ(schedulingErrors(r),
        "j.yaml:6:3: Job default/train: spec.scheduling: unknown field \"scheduling\"\n");
}

TEST(SchedulingObjects, TopologyKeyIsRequired)
{
    auto r = yamlio::loadText(workloadWith("  - name: a\n    schedulingPolicy: {basic: {}}\n"
                                           "    schedulingConstraints: {topology: [{}]}\n"),
        "w.yaml", gatesOn("GenericWorkload=true,TopologyAwareWorkloadScheduling=true"));
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:8:40: Workload default/w: spec.podGroupTemplates[0].schedulingConstraints.topology[0].key: "
        "Required value\n");
}

TEST(SchedulingObjects, ResourceClaimNamesSourcesAndCount)
{
    const std::string t = "  - name: a\n    schedulingPolicy: {basic: {}}\n"
                          "    resourceClaims:\n"
                          "    - {resourceClaimName: x}\n"
                          "    - {name: Bad, resourceClaimName: x}\n"
                          "    - {name: both, resourceClaimName: x, resourceClaimTemplateName: t}\n"
                          "    - {name: claim, resourceClaimName: Bad_Claim}\n"
                          "    - {name: tmpl, resourceClaimTemplateName: Bad_Template}\n";
    auto r = yamlio::loadText(
        workloadWith(t), "w.yaml", gatesOn("GenericWorkload=true,DRAWorkloadResourceClaims=true"));
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:9:7: Workload default/w: spec.podGroupTemplates[0].resourceClaims[0].name: Required "
        "value\nw.yaml:10:14: Workload default/w: spec.podGroupTemplates[0].resourceClaims[1].name: Invalid "
        "value: \"Bad\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or "
        "'-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
        "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\nw.yaml:11:7: Workload default/w: "
        "spec.podGroupTemplates[0].resourceClaims[2]: Invalid value: must specify one of: "
        "`resourceClaimName`, `resourceClaimTemplateName`\nw.yaml:12:40: Workload default/w: "
        "spec.podGroupTemplates[0].resourceClaims[3].resourceClaimName: Invalid value: \"Bad_Claim\": a "
        "lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
        "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\nw.yaml:13:47: Workload "
        "default/w: spec.podGroupTemplates[0].resourceClaims[4].resourceClaimTemplateName: Invalid value: "
        "\"Bad_Template\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
        "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
        "regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\nw.yaml:9:5: Workload "
        "default/w: spec.podGroupTemplates[0].resourceClaims: Too many: 5: must have at most 4 items\n");
}

TEST(SchedulingObjects, DisruptionModeInEachSpelling)
{
    auto r = yamlio::loadText(
        workloadWith("  - name: a\n    schedulingPolicy: {basic: {}}\n    disruptionMode: {}\n"), "w.yaml",
        generic());
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:8:21: Workload default/w: spec.podGroupTemplates[0].disruptionMode: Invalid value: \"\": "
        "must specify one of: `single`, `all`\n");
    r = yamlio::loadText("apiVersion: scheduling.k8s.io/v1alpha2\nkind: PodGroup\nmetadata: {name: g}\n"
                         "spec:\n  schedulingPolicy: {basic: {}}\n  disruptionMode: Everything\n",
        "g.yaml",
        gatesOn("GenericWorkload=true,WorkloadAwarePreemption=true", api::KubernetesVersion::V1_36));
    EXPECT_EQ(schedulingErrors(r),
        "g.yaml:6:19: PodGroup default/g: spec.disruptionMode: Unsupported value: \"Everything\": supported "
        "values: \"Pod\", \"PodGroup\"\n");
}

TEST(SchedulingObjects, PriorityClassNameAndPreemptionPolicy)
{
    auto r = yamlio::loadText(workloadWith("  - name: a\n    schedulingPolicy: {basic: {}}\n"
                                           "    priorityClassName: Not_A_Class\n"
                                           "    preemptionPolicy: Sometimes\n"),
        "w.yaml", gatesOn("GenericWorkload=true,PodGroupPreemptionPolicy=true"));
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:8:24: Workload default/w: spec.podGroupTemplates[0].priorityClassName: Invalid value: "
        "\"Not_A_Class\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
        "'-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
        "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\nw.yaml:9:23: "
        "Workload default/w: spec.podGroupTemplates[0].preemptionPolicy: Unsupported value: \"Sometimes\": "
        "supported values: \"Never\", \"PreemptLowerPriority\"\n");
}

TEST(SchedulingObjects, ControllerRefRules)
{
    auto r = yamlio::loadText("apiVersion: scheduling.k8s.io/v1beta1\nkind: Workload\nmetadata: {name: w}\n"
                              "spec:\n  controllerRef: {apiGroup: Batch_V1}\n"
                              "  podGroupTemplates: [{name: a, schedulingPolicy: {basic: {}}}]\n"
                              "---\n"
                              "apiVersion: scheduling.k8s.io/v1beta1\nkind: Workload\nmetadata: {name: v}\n"
                              "spec:\n  controllerRef: {kind: ., name: a/b}\n"
                              "  podGroupTemplates: [{name: a, schedulingPolicy: {basic: {}}}]\n"
                              "---\n"
                              "apiVersion: scheduling.k8s.io/v1beta1\nkind: Workload\nmetadata: {name: u}\n"
                              "spec:\n  controllerRef: {kind: .., name: 50%}\n"
                              "  podGroupTemplates: [{name: a, schedulingPolicy: {basic: {}}}]\n",
        "w.yaml", generic());
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:5:29: Workload default/w: spec.controllerRef.apiGroup: Invalid value: \"Batch_V1\": a "
        "lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
        "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\nw.yaml:5:18: Workload "
        "default/w: spec.controllerRef.kind: Required value\nw.yaml:5:18: Workload default/w: "
        "spec.controllerRef.name: Required value\nw.yaml:12:25: Workload default/v: spec.controllerRef.kind: "
        "Invalid value: \".\": may not be '.'\nw.yaml:12:34: Workload default/v: spec.controllerRef.name: "
        "Invalid value: \"a/b\": may not contain '/'\nw.yaml:19:25: Workload default/u: "
        "spec.controllerRef.kind: Invalid value: \"..\": may not be '..'\nw.yaml:19:35: Workload default/u: "
        "spec.controllerRef.name: Invalid value: \"50%\": may not contain '%'\n");
}

TEST(SchedulingObjects, CompositeTemplateRules)
{
    const std::string gates
        = "GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true";
    const std::string head
        = "apiVersion: scheduling.k8s.io/v1alpha3\nkind: Workload\nmetadata: {name: w}\nspec:\n";
    // A name used twice in the tree (the later one, in pre-order, is the duplicate), and a
    // composite without a policy or children.
    auto r = yamlio::loadText(head
            + "  compositePodGroupTemplates:\n"
              "  - name: root\n"
              "    schedulingPolicy: {gang: {minGroupCount: 2}}\n"
              "    podGroupTemplates: [{name: root, schedulingPolicy: {basic: {}}}]\n"
              "  - name: empty\n",
        "w.yaml", gatesOn(gates));
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:8:32: Workload default/w: spec.compositePodGroupTemplates[0].podGroupTemplates[0]: Duplicate "
        "value: "
        "\"root\"\nw.yaml:9:5: Workload default/w: spec.compositePodGroupTemplates[1].schedulingPolicy: "
        "Invalid value: \"\": must specify one of: `basic`, `gang`\nw.yaml:9:5: Workload default/w: "
        "spec.compositePodGroupTemplates[1]: Invalid value: \"empty\": must have at least one child "
        "PodGroupTemplate or CompositePodGroupTemplate\n");
    r = yamlio::loadText(head
            + "  podGroupTemplates: [{name: a, schedulingPolicy: {basic: {}}}]\n"
              "  compositePodGroupTemplates: [{name: b, schedulingPolicy: {basic: {}}, podGroupTemplates: "
              "[{name: c, schedulingPolicy: {basic: {}}}]}]\n",
        "w.yaml", gatesOn(gates));
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:6:31: Workload default/w: spec: Invalid value: \"{podGroupTemplates, "
        "compositePodGroupTemplates}\": must specify exactly one of: `podGroupTemplates`, "
        "`compositePodGroupTemplates`\n");
    r = yamlio::loadText(head + "  podGroupTemplates: []\n", "w.yaml", gatesOn(gates));
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:5:3: Workload default/w: spec: Invalid value: \"\": must specify one of: "
        "`podGroupTemplates`, `compositePodGroupTemplates`\n");
    // Four composite levels above the leaves: five levels in all.
    std::string deep = "  compositePodGroupTemplates:\n";
    std::string indent = "  ";
    for (int level = 1; level <= 4; ++level) {
        deep += indent + "- name: l" + std::to_string(level) + "\n" + indent
            + "  schedulingPolicy: {basic: {}}\n";
        deep += indent
            + (level < 4 ? "  compositePodGroupTemplates:\n"
                         : "  podGroupTemplates: [{name: leaf, schedulingPolicy: {basic: {}}}]\n");
        indent += "  ";
    }
    r = yamlio::loadText(head + deep, "w.yaml", gatesOn(gates));
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:15:11: Workload default/w: "
        "spec.compositePodGroupTemplates[0].compositePodGroupTemplates[0].compositePodGroupTemplates[0]."
        "compositePodGroupTemplates[0]: Invalid value: \"l4\": a template tree must be at most 4 levels "
        "deep\n");
    // Without the gate the field is forbidden.
    r = yamlio::loadText(head + deep, "w.yaml", generic());
    EXPECT_EQ(schedulingErrors(r),
        "w.yaml:6:3: Workload default/w: spec.compositePodGroupTemplates: Forbidden: feature gate "
        "CompositePodGroup is disabled\nw.yaml:5:3: Workload default/w: spec.podGroupTemplates: Required "
        "value: must have at least one item\n");
}

TEST(SchedulingObjects, PodGroupReferenceRules)
{
    const std::string gates
        = "GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true";
    auto r = yamlio::loadText(
        "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g}\n"
        "spec:\n  workloadRef: {workloadName: Bad_Workload, templateName: Bad_Template}\n"
        "  parentCompositePodGroupName: Bad_Parent\n"
        "  schedulingPolicy: {basic: {}}\n"
        "---\n"
        "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: h}\n"
        "spec:\n  workloadRef: {}\n  schedulingPolicy: {basic: {}}\n"
        "---\n"
        "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: i}\n"
        "---\n"
        "apiVersion: scheduling.k8s.io/v1alpha3\nkind: CompositePodGroup\nmetadata: {name: c}\n"
        "spec:\n  schedulingPolicy: {gang: {minGroupCount: 0}}\n",
        "g.yaml", gatesOn(gates));
    EXPECT_EQ(schedulingErrors(r),
        "g.yaml:5:31: PodGroup default/g: spec.workloadRef.workloadName: Invalid value: \"Bad_Workload\": a "
        "lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
        "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\ng.yaml:5:59: PodGroup "
        "default/g: spec.workloadRef.templateName: Invalid value: \"Bad_Template\": a lowercase RFC 1123 "
        "label must consist of lower case alphanumeric characters or '-', and must start and end with an "
        "alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')\ng.yaml:6:32: PodGroup default/g: "
        "spec.parentCompositePodGroupName: Invalid value: \"Bad_Parent\": a lowercase RFC 1123 subdomain "
        "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an "
        "alphanumeric character (e.g. 'example.com', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\ng.yaml:13:16: PodGroup "
        "default/h: spec.workloadRef.workloadName: Required value\ng.yaml:13:16: PodGroup default/h: "
        "spec.workloadRef.templateName: Required value\ng.yaml:16:1: PodGroup default/i: "
        "spec.schedulingPolicy: Invalid value: \"\": must specify one of: `basic`, `gang`\ng.yaml:24:44: "
        "CompositePodGroup default/c: spec.schedulingPolicy.gang.minGroupCount: Required value\ng.yaml:20:1: "
        "CompositePodGroup default/c: spec.workloadRef: Required value\n");
    r = yamlio::loadText("apiVersion: scheduling.k8s.io/v1alpha2\nkind: PodGroup\nmetadata: {name: g}\n"
                         "spec:\n  podGroupTemplateRef: {workload: {workloadName: w}}\n"
                         "  schedulingPolicy: {basic: {}}\n",
        "g.yaml", generic(api::KubernetesVersion::V1_36));
    EXPECT_EQ(schedulingErrors(r),
        "g.yaml:5:35: PodGroup default/g: spec.podGroupTemplateRef.workload.podGroupTemplateName: Required "
        "value\n");
    r = yamlio::loadText("apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g}\n"
                         "spec:\n  workloadRef: {workloadName: w, templateName: a}\n"
                         "  parentCompositePodGroupName: root\n  schedulingPolicy: {basic: {}}\n",
        "g.yaml", generic());
    EXPECT_EQ(schedulingErrors(r),
        "g.yaml:6:32: PodGroup default/g: spec.parentCompositePodGroupName: Forbidden: feature gate "
        "CompositePodGroup is disabled\n");
}

TEST(SchedulingObjects, JobSchedulingPolicyRules)
{
    const std::string head = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: train}\n"
                             "spec:\n  parallelism: 4\n  template:\n    spec:\n"
                             "      containers: [{name: c, image: x}]\n  scheduling:\n";
    const auto gates = gatesOn("GenericWorkload=true,WorkloadWithJob=true");
    auto r = yamlio::loadText(head + "    schedulingPolicy: {gang: {minCount: 0}}\n", "j.yaml", gates);
    EXPECT_EQ(schedulingErrors(r),
        "j.yaml:10:41: Job default/train: spec.scheduling.schedulingPolicy.gang.minCount: Invalid value: 0: "
        "must be greater than zero\n");
    r = yamlio::loadText(head + "    schedulingPolicy: {basic: {}, gang: {}}\n", "j.yaml", gates);
    EXPECT_EQ(schedulingErrors(r),
        "j.yaml:10:23: Job default/train: spec.scheduling.schedulingPolicy: Invalid value: \"{`basic`, "
        "`gang`}\": exactly one of `basic`, `gang` is required, but multiple fields are set\n");
    r = yamlio::loadText(head + "    schedulingPolicy: {}\n", "j.yaml", gates);
    EXPECT_EQ(schedulingErrors(r),
        "j.yaml:10:23: Job default/train: spec.scheduling.schedulingPolicy: Invalid value: \"\": must "
        "specify one of: `basic`, `gang`\n");
}

// completionMode is kept (1.36's Job controller gangs Indexed Jobs) and checked as ValidateJobSpec
// checks it.
TEST(SchedulingObjects, JobCompletionModeRules)
{
    const std::string head = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: train}\n"
                             "spec:\n  template:\n    spec:\n"
                             "      containers: [{name: c, image: x}]\n";
    auto r = yamlio::loadText(
        head + "  parallelism: 4\n  completions: 4\n  completionMode: Indexed\n", "j.yaml");
    EXPECT_EQ(schedulingErrors(r), "");
    EXPECT_TRUE(r.objects.controllers.at(0).indexed);
    r = yamlio::loadText(head + "  completionMode: NonIndexed\n", "j.yaml");
    EXPECT_EQ(schedulingErrors(r), "");
    EXPECT_FALSE(r.objects.controllers.at(0).indexed);
    r = yamlio::loadText(head + "  parallelism: 4\n  completionMode: Indexed\n", "j.yaml");
    EXPECT_EQ(schedulingErrors(r),
        "j.yaml:5:3: Job default/train: spec.completions: Required value: when completion mode is Indexed\n");
    r = yamlio::loadText(
        head + "  completions: 4\n  parallelism: 100001\n  completionMode: Indexed\n", "j.yaml");
    EXPECT_EQ(schedulingErrors(r),
        "j.yaml:5:3: Job default/train: spec.parallelism: Invalid value: 100001: must be less than or equal "
        "to "
        "100000 when completion mode is Indexed\n");
    r = yamlio::loadText(head + "  completionMode: Sequential\n", "j.yaml");
    EXPECT_EQ(schedulingErrors(r),
        "j.yaml:8:19: Job default/train: spec.completionMode: Unsupported value: \"Sequential\": supported "
        "values: \"NonIndexed\", \"Indexed\"\n");
}

TEST(SchedulingObjects, PodSchedulingGroupNameRules)
{
    const std::string head = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                             "spec:\n  containers: [{name: c, image: x}]\n";
    auto r = yamlio::loadText(head + "  schedulingGroup: {podGroupName: Bad_Group}\n", "p.yaml", generic());
    EXPECT_EQ(schedulingErrors(r),
        "p.yaml:6:35: Pod default/p: spec.schedulingGroup.podGroupName: Invalid value: \"Bad_Group\": a "
        "lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
        "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n");
    r = yamlio::loadText(head + "  schedulingGroup: {}\n", "p.yaml", generic());
    EXPECT_EQ(schedulingErrors(r),
        "p.yaml:6:20: Pod default/p: spec.schedulingGroup.podGroupName: Required value\n");
}

TEST(SchedulingObjects, SystemPriorityClassesKeepTheirValues)
{
    auto r = yamlio::loadText(
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-node-critical}\n"
        "value: 1000\n---\n"
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-cluster-critical}\n"
        "value: 2000000000\nglobalDefault: true\n",
        "p.yaml");
    EXPECT_EQ(schedulingErrors(r),
        "p.yaml:3:11: PriorityClass system-node-critical: metadata.name: Forbidden: priority class names "
        "with 'system-' prefix are reserved for system use only. error: value of system-node-critical "
        "PriorityClass must be 2000001000\np.yaml:8:11: PriorityClass system-cluster-critical: "
        "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use "
        "only. error: globalDefault of system-cluster-critical PriorityClass must be false\n");
}

// A PodGroup whose status names the claims generated for it was stored while
// DRAWorkloadResourceClaims was on: with the gate off its entries stay (the API server drops a
// disabled field only from objects that did not use it), and the status is written back.
TEST(SchedulingObjects, PodGroupClaimsStoredUnderTheGateSurviveItsRemoval)
{
    const std::string spec = "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g}\n"
                             "spec:\n  schedulingPolicy: {basic: {}}\n"
                             "  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]\n";
    auto fresh = yamlio::loadText(spec, "g.yaml", generic());
    EXPECT_EQ(schedulingErrors(fresh),
        "g.yaml:6:19: PodGroup default/g: spec.resourceClaims: Forbidden: feature gate "
        "DRAWorkloadResourceClaims is disabled\n");
    const std::string stored
        = spec + "status:\n  resourceClaimStatuses: [{name: gpu, resourceClaimName: g-gpu}]\n";
    auto r = yamlio::loadText(stored, "g.yaml", generic());
    ASSERT_EQ(schedulingErrors(r), "");
    const api::PodGroup& g = r.objects.podGroups.at(0);
    ASSERT_EQ(g.policy.resourceClaims.size(), 1u);
    EXPECT_EQ(g.policy.resourceClaims[0].resourceClaimTemplateName, "one-gpu");
    ASSERT_EQ(g.resourceClaimStatuses.size(), 1u);
    EXPECT_EQ(g.resourceClaimStatuses[0], (api::PodGroupResourceClaimStatus { "gpu", "g-gpu" }));
    EXPECT_NE(yamlio::toYamlList(r.objects).find("    resourceClaimStatuses:\n"
                                                 "    - name: gpu\n"
                                                 "      resourceClaimName: g-gpu\n"),
        std::string::npos)
        << yamlio::toYamlList(r.objects);
}
