// SPDX-License-Identifier: Apache-2.0
// Which Jobs Kubernetes' Job controller gives a Workload and PodGroup, per version and gates
// (KEP-5547: 1.36 gangs Indexed Jobs with parallelism == completions > 1 by itself; 1.37 compiles
// spec.scheduling for every eligible Job, basic when it is omitted), and the 1.35 gang a pod
// names in spec.workloadRef.
#include <gtest/gtest.h>

#include "core/workload/job_group.h"
#include "core/workload/manifest_source.h"

using namespace drasim;
using namespace drasim::workload;

namespace {

api::PodController job(int32_t parallelism, int32_t completions, bool indexed)
{
    api::PodController j;
    j.kind = api::PodController::Kind::Job;
    j.meta.name = "train";
    j.parallelism = parallelism;
    j.completions = completions;
    j.indexed = indexed;
    j.podTemplate.spec.containers.push_back(api::Container { "main", "img", {}, {} });
    return j;
}

api::FeatureGates gates(api::KubernetesVersion v, const std::string& flag)
{
    api::FeatureGates g(v);
    EXPECT_EQ(g.parse(flag), "");
    return g;
}

const api::FeatureGates kOn136
    = gates(api::KubernetesVersion::V1_36, "GenericWorkload=true,WorkloadWithJob=true");
const api::FeatureGates kOn137
    = gates(api::KubernetesVersion::V1_37, "GenericWorkload=true,WorkloadWithJob=true");

std::string describe(const std::optional<GroupSpec>& g)
{
    if (!g)
        return "none";
    std::string s = g->gang ? "gang " + std::to_string(g->minCount) : "basic";
    return g->topologyKey.empty() ? s : s + " @" + g->topologyKey;
}

} // namespace

TEST(JobControllerGroup, NoneWithTheGatesOff)
{
    EXPECT_EQ(describe(jobControllerGroup(job(4, 4, true), api::FeatureGates())), "none");
    EXPECT_EQ(describe(jobControllerGroup(job(4, 4, true), api::FeatureGates(api::KubernetesVersion::V1_36))),
        "none");
    // The Job controller's Workload needs the API the GenericWorkload gate serves.
    EXPECT_EQ(describe(jobControllerGroup(
                  job(4, 4, true), gates(api::KubernetesVersion::V1_36, "WorkloadWithJob=true"))),
        "none");
    // 1.35 has no Job integration at all.
    EXPECT_EQ(describe(jobControllerGroup(
                  job(4, 4, true), gates(api::KubernetesVersion::V1_35, "GenericWorkload=true"))),
        "none");
}

TEST(JobControllerGroup, Kubernetes136GangsIndexedJobsWithParallelismEqualToCompletions)
{
    EXPECT_EQ(describe(jobControllerGroup(job(4, 4, true), kOn136)), "gang 4");
    EXPECT_EQ(describe(jobControllerGroup(job(4, 4, false), kOn136)), "none"); // NonIndexed
    EXPECT_EQ(describe(jobControllerGroup(job(4, 8, true), kOn136)), "none"); // completions != parallelism
    EXPECT_EQ(describe(jobControllerGroup(job(1, 1, true), kOn136)), "none"); // not parallel
}

TEST(JobControllerGroup, Kubernetes137CompilesSpecSchedulingBasicByDefault)
{
    // The 1.36 automatic gang is gone: an Indexed Job without spec.scheduling is basic.
    EXPECT_EQ(describe(jobControllerGroup(job(4, 4, true), kOn137)), "basic");
    EXPECT_EQ(describe(jobControllerGroup(job(1, 1, false), kOn137)), "basic");
    api::PodController gang = job(6, 12, false);
    gang.scheduling.emplace().gang = true; // minCount omitted: parallelism
    gang.scheduling->topologyKeys = { "example.com/rack" };
    EXPECT_EQ(describe(jobControllerGroup(gang, kOn137)), "gang 6 @example.com/rack");
    gang.scheduling->minCount = 3;
    EXPECT_EQ(describe(jobControllerGroup(gang, kOn137)), "gang 3 @example.com/rack");
    gang.parallelism = 0; // an omitted minCount is clamped to at least 1
    gang.scheduling->minCount.reset();
    EXPECT_EQ(describe(jobControllerGroup(gang, kOn137)), "gang 1 @example.com/rack");
}

TEST(JobControllerGroup, OwnedJobsAndOwnPodGroupsAreLeftAlone)
{
    for (const auto* g : { &kOn136, &kOn137 }) {
        api::PodController owned = job(4, 4, true);
        owned.meta.ownerReferences.push_back({ "jobset.x-k8s.io/v1alpha2", "JobSet", "js", "", true });
        EXPECT_EQ(describe(jobControllerGroup(owned, *g)), "none");
        api::PodController byo = job(4, 4, true);
        byo.podTemplate.spec.schedulingGroup = "my-group";
        EXPECT_EQ(describe(jobControllerGroup(byo, *g)), "none");
    }
    api::PodController web = job(4, 4, true);
    web.kind = api::PodController::Kind::Deployment;
    EXPECT_EQ(describe(jobControllerGroup(web, kOn137)), "none");
}

TEST(JobControllerGroup, JobTypesCarryTheGroupAndTheWorkloadSchedulingFillsTheRest)
{
    api::ObjectSet set;
    set.controllers.push_back(job(4, 4, true));
    api::PodController own = job(2, 2, false);
    own.meta.name = "own";
    own.meta.pos.line = 20;
    own.scheduling.emplace().gang = true;
    set.controllers.push_back(own);
    api::Pod pod;
    pod.meta.name = "single";
    pod.meta.pos.line = 40;
    set.pods.push_back(pod);
    Diagnostics diags;
    auto types = jobTypesFromObjects(set, "default", diags, GroupRules { kOn136, std::nullopt });
    ASSERT_EQ(types.size(), 3u);
    EXPECT_EQ(describe(types[0].group), "gang 4");
    EXPECT_EQ(describe(types[1].group), "none"); // 1.36 has no spec.scheduling
    EXPECT_EQ(describe(types[2].group), "none");
    types = jobTypesFromObjects(set, "default", diags, GroupRules { kOn137, std::nullopt });
    EXPECT_EQ(describe(types[0].group), "basic");
    EXPECT_EQ(describe(types[1].group), "gang 2");
    EXPECT_EQ(describe(types[2].group), "none");
    // A workload's `scheduling:` is every object's spec.scheduling unless it has its own.
    GroupSpec rack { true, 0, "example.com/rack" };
    types = jobTypesFromObjects(set, "default", diags, GroupRules { kOn137, rack });
    EXPECT_EQ(describe(types[0].group), "gang 0 @example.com/rack");
    EXPECT_EQ(describe(types[1].group), "gang 2");
    EXPECT_EQ(describe(types[2].group), "gang 0 @example.com/rack");
    types = jobTypesFromObjects(set, "default", diags);
    EXPECT_EQ(describe(types[0].group), "none");
    EXPECT_FALSE(diags.hasErrors()) << diags.formatAll();
}

TEST(JobControllerGroup, ManifestJobsArriveWithTheirGroup)
{
    WorkloadSpec spec;
    spec.name = "ml";
    spec.manifests = { DRASIM_SOURCE_DIR "/tests/data/workload/manifests/indexed-job.yaml" };
    Diagnostics diags;
    auto source = makeSource(spec, 1, kOn136, diags);
    ASSERT_TRUE(source) << diags.formatAll();
    auto first = source->next();
    ASSERT_TRUE(first);
    EXPECT_EQ(describe(first->group), "gang 4");
    source = makeSource(spec, 1, api::FeatureGates(api::KubernetesVersion::V1_36), diags);
    ASSERT_TRUE(source);
    EXPECT_EQ(describe(source->next()->group), "none");
}

// Kubernetes 1.35 with GenericWorkload and GangScheduling: a pod template naming a gang podGroup
// of a v1alpha1 Workload makes each job that gang; a basic podGroup leaves plain pods.
TEST(WorkloadRefGang, Kubernetes135PodsNamingAGangPodGroupFormIt)
{
    api::Workload w;
    w.apiVersion = api::SchedulingVersion::V1alpha1;
    w.meta.name = "train";
    api::PodGroupTemplate workers;
    workers.name = "workers";
    workers.policy.scheduling = { true, 3 };
    api::PodGroupTemplate logs;
    logs.name = "logs";
    w.podGroupTemplates = { workers, logs };
    api::PodSpec spec;
    spec.workloadRef = api::PodWorkloadReference { "train", "workers", "" };
    const api::FeatureGates on
        = gates(api::KubernetesVersion::V1_35, "GenericWorkload=true,GangScheduling=true");
    std::string missing;
    EXPECT_EQ(describe(workloadRefGang(spec, "default", { w }, on, missing)), "gang 3");
    EXPECT_EQ(missing, "");
    // Gates off, or another version: not a gang here.
    EXPECT_EQ(describe(workloadRefGang(
                  spec, "default", { w }, api::FeatureGates(api::KubernetesVersion::V1_35), missing)),
        "none");
    EXPECT_EQ(describe(workloadRefGang(spec, "default", { w },
                  gates(api::KubernetesVersion::V1_36, "GenericWorkload=true"), missing)),
        "none");
    spec.workloadRef->podGroup = "logs";
    EXPECT_EQ(describe(workloadRefGang(spec, "default", { w }, on, missing)), "none");
    EXPECT_EQ(missing, "");
    spec.workloadRef->podGroup = "evaluators";
    EXPECT_EQ(describe(workloadRefGang(spec, "default", { w }, on, missing)), "none");
    EXPECT_EQ(missing,
        "Workload \"train\" has no podGroup \"evaluators\": its pods would wait at PreEnqueue for "
        "the whole run");
    spec.workloadRef->name = "pretrain";
    EXPECT_EQ(describe(workloadRefGang(spec, "default", { w }, on, missing)), "none");
    EXPECT_EQ(missing,
        "no Workload \"pretrain\" in namespace \"default\" among the workload's manifests: its "
        "pods would wait at PreEnqueue for the whole run");
    // Another namespace's Workload is not the pods' own (one without a namespace is the workload's).
    spec.workloadRef->name = "train";
    spec.workloadRef->podGroup = "workers";
    w.meta.namespace_ = "default";
    EXPECT_EQ(describe(workloadRefGang(spec, "research", { w }, on, missing)), "none");
    EXPECT_NE(missing, "");
}

TEST(WorkloadRefGang, ManifestJobsOf135ArriveAsTheGangAndAMissingWorkloadIsLocated)
{
    const api::FeatureGates on
        = gates(api::KubernetesVersion::V1_35, "GenericWorkload=true,GangScheduling=true");
    WorkloadSpec spec;
    spec.name = "ml";
    spec.manifests = { DRASIM_SOURCE_DIR "/tests/data/workload/manifests/workload-ref-1-35.yaml" };
    Diagnostics diags;
    auto source = makeSource(spec, 1, on, diags);
    ASSERT_TRUE(source) << diags.formatAll();
    EXPECT_EQ(describe(source->next()->group), "gang 3");

    api::ObjectSet set;
    api::PodController j = job(4, 4, false);
    j.meta.pos = SourcePos { "jobs.yaml", 12, 3 };
    j.podTemplate.spec.workloadRef = api::PodWorkloadReference { "train", "workers", "" };
    set.controllers.push_back(j);
    Diagnostics missing;
    EXPECT_TRUE(jobTypesFromObjects(set, "default", missing, GroupRules { on, std::nullopt }).empty());
    EXPECT_EQ(missing.formatAll(),
        "jobs.yaml:12:3: Job default/train: spec.template.spec.workloadRef: no Workload \"train\" in "
        "namespace \"default\" among the workload's manifests: its pods would wait at PreEnqueue for the "
        "whole "
        "run\n");
}

// The 1.37 Job controller copies spec.scheduling.resourceClaims to the PodGroup it makes.
TEST(JobGroup, ResourceClaimsGoToThePodGroup)
{
    api::PodController j = job(4, 4, true);
    j.scheduling.emplace();
    j.scheduling->gang = true;
    api::PodGroupResourceClaim entry;
    entry.name = "gpus";
    entry.resourceClaimTemplateName = "gpu-8";
    j.scheduling->resourceClaims.push_back(entry);
    auto g = jobControllerGroup(j, kOn137);
    ASSERT_TRUE(g);
    ASSERT_EQ(g->resourceClaims.size(), 1u);
    EXPECT_EQ(g->resourceClaims[0], entry);
    // 1.36 makes its automatic gang without them (spec.scheduling is 1.37's).
    EXPECT_TRUE(jobControllerGroup(j, kOn136)->resourceClaims.empty());
}

namespace {

api::PodGroup podGroup(const char* name, const char* parent)
{
    api::PodGroup g;
    g.meta.name = name;
    g.meta.namespace_ = "default";
    g.parentCompositePodGroupName = parent;
    return g;
}

api::ObjectSet podsNaming(const char* group)
{
    api::ObjectSet set;
    api::Pod pod;
    pod.meta.name = "worker-0";
    pod.meta.namespace_ = "default";
    pod.meta.pos = SourcePos { "train.yaml", 12, 1 };
    pod.spec.schedulingGroup = group;
    set.pods.push_back(pod);
    api::PodController j = job(2, 2, true);
    j.meta.pos = SourcePos { "train.yaml", 40, 1 };
    j.podTemplate.spec.schedulingGroup = group;
    set.controllers.push_back(j);
    set.podGroups = { podGroup("replica-0", "train"), podGroup("solo", "") };
    return set;
}

} // namespace

// A simulation schedules a CompositePodGroup hierarchy of the manifests as one unit: the pods that
// name one of its PodGroups carry the manifests' groups (and no PodGroup of their own), without a
// warning. With the parent missing they carry them too (their root waits at PreEnqueue for the
// whole run, as kube-scheduler's would), and the user is told so at the object.
TEST(OwnPodGroup, PodsNamingAHierarchysPodGroupCarryTheHierarchy)
{
    Diagnostics diags;
    api::ObjectSet set = podsNaming("replica-0");
    api::CompositePodGroup train;
    train.meta.name = "train";
    set.compositePodGroups.push_back(train);
    const auto types = jobTypesFromObjects(set, "default", diags, GroupRules { kOn137, {} });
    ASSERT_EQ(types.size(), 2u);
    EXPECT_TRUE(diags.all().empty()) << diags.formatAll();
    for (const auto& t : types) {
        EXPECT_FALSE(t.group);
        ASSERT_TRUE(t.hierarchy);
        ASSERT_EQ(t.hierarchy->composites.size(), 1u);
        EXPECT_EQ(t.hierarchy->composites[0].meta.namespace_, "default"); // filled in
        EXPECT_EQ(t.hierarchy->groups.size(), 2u);
    }
    EXPECT_EQ(types[0].hierarchy, types[1].hierarchy); // one copy for all

    Diagnostics missing;
    const auto orphans
        = jobTypesFromObjects(podsNaming("replica-0"), "default", missing, GroupRules { kOn137, {} });
    ASSERT_EQ(missing.all().size(), 2u);
    const std::string tail
        = ": PodGroup \"replica-0\" belongs to CompositePodGroup \"train\", which is not "
          "among the workload's manifests: kube-scheduler holds these pods until it exists, "
          "for the whole run";
    EXPECT_EQ(missing.all()[0].format(),
        "train.yaml:12:1: warning: Pod default/worker-0: spec.schedulingGroup" + tail);
    EXPECT_EQ(missing.all()[1].format(),
        "train.yaml:40:1: warning: Job default/train: spec.template.spec.schedulingGroup" + tail);
    EXPECT_TRUE(orphans[0].hierarchy);

    // A lone PodGroup is no hierarchy: its pods go one by one, as before.
    Diagnostics lone;
    EXPECT_FALSE(
        jobTypesFromObjects(podsNaming("solo"), "default", lone, GroupRules { kOn137, {} })[0].hierarchy);
}

TEST(OwnPodGroup, ALonePodGroupAndAMissingOneSayWhatUpstreamWouldDo)
{
    api::PodSpec spec;
    const std::vector<api::PodGroup> groups = { podGroup("solo", ""), podGroup("replica-0", "train") };
    EXPECT_EQ(ownPodGroupNote(spec, "default", groups, {}), "");
    spec.schedulingGroup = "solo";
    EXPECT_EQ(ownPodGroupNote(spec, "default", groups, {}),
        "PodGroup \"solo\" is among the workload's manifests: drasim simulate schedules these pods one by "
        "one, "
        "as pods of no group (it makes a PodGroup only for a Job, from its spec.scheduling); drasim allocate "
        "and explain schedule the group as one unit");
    // The PodGroup is looked up in the pod's namespace only.
    EXPECT_EQ(ownPodGroupNote(spec, "other", groups, {}),
        "PodGroup \"solo\" is not among the workload's manifests: kube-scheduler would hold these pods until "
        "it exists; drasim simulate schedules these pods one by one, as pods of no group (it makes a "
        "PodGroup "
        "only for a Job, from its spec.scheduling)");
}

namespace {

/// A JobSet's Workload as its controller compiles it: spec.controllerRef names the JobSet, and
/// its templates "workers" (gang of 3 in one rack, disrupted whole) and "leader" (basic).
api::Workload jobSetWorkload(const std::string& jobSet)
{
    api::Workload w;
    w.meta.name = jobSet + "-wl";
    w.controllerRef = api::TypedLocalObjectReference { "jobset.x-k8s.io", "JobSet", jobSet };
    api::PodGroupTemplate workers;
    workers.name = "workers";
    workers.policy.scheduling.gang = true;
    workers.policy.scheduling.minCount = 3;
    workers.policy.topologyKeys = { "example.com/rack" };
    workers.policy.disruptionMode = api::DisruptionMode::All;
    api::PodGroupTemplate leader;
    leader.name = "leader";
    w.podGroupTemplates = { workers, leader };
    return w;
}

/// A Job of JobSet "js" (its controller owner); `templateName` set: the JobSet delegates the
/// Job's PodGroup to the Job controller through the annotation.
api::PodController childJob(const std::optional<std::string>& templateName)
{
    api::PodController j = job(4, 4, true);
    j.meta.name = "js-workers-0";
    j.meta.pos = { "jobset.yaml", 30, 1 };
    j.meta.ownerReferences.push_back({ "jobset.x-k8s.io/v1alpha2", "JobSet", "js", "", true });
    if (templateName)
        j.meta.annotations["scheduling.k8s.io/group-template-name"] = *templateName;
    return j;
}

std::string delegated(const api::PodController& j, const std::vector<api::Workload>& workloads,
    const api::FeatureGates& g, std::string* why = nullptr)
{
    std::string note;
    const std::string out = describe(jobControllerGroup(j, g, workloads, "default", note));
    if (why)
        *why = note;
    return out;
}

} // namespace

// KEP-6089 / job_scheduling_manager.go (getOrCreateDelegatedPodGroup): a Job whose controller owner
// names one of its Workload's PodGroupTemplates in scheduling.k8s.io/group-template-name gets a
// PodGroup from that template alone (the Job's own spec.scheduling plays no part); the parent's
// Workload is the one whose spec.controllerRef names the owner. Without the annotation the owner
// keeps both objects, and the Job controller makes none.
TEST(JobControllerGroup, AParentThatDelegatesGetsAPodGroupFromItsOwnTemplate)
{
    const std::vector<api::Workload> workloads = { jobSetWorkload("js") };
    api::PodController workers = childJob("workers");
    workers.scheduling.emplace(); // basic: ignored, the parent's template decides
    EXPECT_EQ(delegated(workers, workloads, kOn137), "gang 3 @example.com/rack");
    EXPECT_TRUE(jobControllerGroup(workers, kOn137, workloads, "default")->disruptAll);
    EXPECT_EQ(delegated(childJob("leader"), workloads, kOn137), "basic");
    // No delegation: the owner manages both objects; nothing to say, as before.
    std::string why = "unset";
    EXPECT_EQ(delegated(childJob(std::nullopt), workloads, kOn137, &why), "none");
    EXPECT_EQ(why, "");
    // Delegation is 1.37's (KEP-6089); 1.36 skips every owned Job.
    EXPECT_EQ(delegated(childJob("workers"), workloads, kOn136, &why), "none");
    EXPECT_EQ(why, "");
    // Pods that name their own PodGroup: the controller manages nothing, delegated or not.
    api::PodController byo = childJob("workers");
    byo.podTemplate.spec.schedulingGroup = "mine";
    EXPECT_EQ(delegated(byo, workloads, kOn137, &why), "none");
    EXPECT_EQ(why, "");
}

// When the delegation cannot be served the Job controller makes no PodGroup (upstream logs it and
// retries); the Job's pods are then pods of no group. The reason is given for a located warning.
TEST(JobControllerGroup, ADelegationThatCannotBeServedSaysWhy)
{
    std::string why;
    EXPECT_EQ(delegated(childJob("workers"), {}, kOn137, &why), "none");
    EXPECT_EQ(why,
        "the Job's controller owner JobSet \"js\" delegates its PodGroup to the Job controller, but no "
        "Workload in namespace \"default\" among the workload's manifests names JobSet \"js\" in "
        "spec.controllerRef: the Job controller makes no PodGroup, and the pods are scheduled one by one");
    // The Workload must name the owner's API group, kind and name, in the Job's namespace.
    api::Workload other = jobSetWorkload("js");
    other.controllerRef->apiGroup = "example.com";
    api::Workload elsewhere = jobSetWorkload("js");
    elsewhere.meta.namespace_ = "team-b";
    EXPECT_EQ(delegated(childJob("workers"), { other, elsewhere }, kOn137), "none");
    EXPECT_EQ(delegated(childJob("chief"), { jobSetWorkload("js") }, kOn137, &why), "none");
    EXPECT_EQ(why,
        "the Job's controller owner JobSet \"js\" delegates its PodGroup to the Job controller, but its "
        "Workload \"js-wl\" has no podGroupTemplate \"chief\": the Job controller makes no PodGroup, and "
        "the pods are scheduled one by one");
}

// What a user sees: the delegated group on the job type, and a warning located at the annotation
// when the delegation cannot be served.
TEST(JobControllerGroup, ManifestJobsOfADelegatingParentCarryItsTemplate)
{
    api::ObjectSet set;
    set.workloads.push_back(jobSetWorkload("js"));
    set.controllers.push_back(childJob("workers"));
    api::PodController lost = childJob("chief");
    lost.meta.name = "js-chief-0";
    lost.meta.pos.line = 60;
    set.controllers.push_back(lost);
    Diagnostics diags;
    const auto types = jobTypesFromObjects(set, "default", diags, GroupRules { kOn137, std::nullopt });
    ASSERT_EQ(types.size(), 2u);
    EXPECT_EQ(describe(types[0].group), "gang 3 @example.com/rack");
    EXPECT_EQ(describe(types[1].group), "none");
    ASSERT_EQ(diags.all().size(), 1u) << diags.formatAll();
    EXPECT_EQ(diags.all()[0].format(),
        "jobset.yaml:60:1: warning: Job default/js-chief-0: "
        "metadata.annotations[scheduling.k8s.io/group-template-name]: the Job's controller owner JobSet "
        "\"js\" delegates its PodGroup to the Job controller, but its Workload \"js-wl\" has no "
        "podGroupTemplate \"chief\": the Job controller makes no PodGroup, and the pods are scheduled one "
        "by one");
    // A workload's `scheduling:` does not replace the parent's template.
    const auto withRule
        = jobTypesFromObjects(set, "default", diags, GroupRules { kOn137, GroupSpec { true, 0, "zone" } });
    EXPECT_EQ(describe(withRule[0].group), "gang 3 @example.com/rack");
}
