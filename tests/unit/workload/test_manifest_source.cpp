// SPDX-License-Identifier: Apache-2.0
#include <cmath>
#include <map>

#include <gtest/gtest.h>

#include "core/workload/manifest_source.h"
#include "core/workload/workload_spec.h"
#include "tests/unit/workload/source_helpers.h"

using namespace drasim;
using namespace drasim::workload;

namespace {

using test_support::drain;

api::ObjectSet objects()
{
    api::ObjectSet set;
    api::PodController job;
    job.kind = api::PodController::Kind::Job;
    job.meta.name = "train-small";
    job.meta.pos = SourcePos { "jobs.yaml", 1, 1 };
    job.meta.annotations["drasim.dev/duration"] = "2h";
    job.parallelism = 2;
    job.completions = 4;
    job.backoffLimit = 3;
    job.podTemplate.spec.containers.push_back(api::Container { "main", "img", {}, {} });
    job.podTemplate.spec.resourceClaims.push_back({ "gpu", std::nullopt, std::string("one-gpu") });
    job.podTemplate.spec.priority = 100;
    set.controllers.push_back(job);

    api::PodController big = job;
    big.meta.name = "train-large";
    big.meta.pos.line = 30;
    big.meta.annotations.clear();
    big.podTemplate.meta.annotations["drasim.dev/duration"] = "exponential(1h)";
    big.podTemplate.spec.resourceClaims[0].resourceClaimTemplateName = "missing-template";
    set.controllers.push_back(big);

    api::PodController web;
    web.kind = api::PodController::Kind::Deployment;
    web.meta.name = "web";
    web.meta.namespace_ = "frontend";
    web.meta.pos = SourcePos { "jobs.yaml", 60, 1 };
    web.replicas = 3;
    set.controllers.push_back(web);

    api::Pod pod;
    pod.meta.name = "debug";
    pod.meta.pos = SourcePos { "jobs.yaml", 20, 1 };
    pod.meta.annotations["drasim.dev/arrival"] = "10m";
    set.pods.push_back(pod);

    api::Pod owned = pod;
    owned.meta.name = "train-small-abcde";
    owned.meta.pos.line = 90;
    owned.meta.ownerReferences.push_back({ "batch/v1", "Job", "train-small", "", true });
    set.pods.push_back(owned);

    api::ResourceClaimTemplate t;
    t.meta.name = "one-gpu";
    set.resourceClaimTemplates.push_back(t);
    return set;
}

} // namespace

TEST(ManifestSource, JobTypesFollowInputOrderAndKinds)
{
    Diagnostics diags;
    auto types = jobTypesFromObjects(objects(), "default", diags);
    ASSERT_EQ(types.size(), 4u);
    EXPECT_EQ(types[0].name, "train-small");
    EXPECT_EQ(types[1].name, "debug");
    EXPECT_EQ(types[2].name, "train-large");
    EXPECT_EQ(types[3].name, "web");
    EXPECT_EQ(types[3].kind, kKindService);
    EXPECT_EQ(types[3].parallelism, 3);
    EXPECT_EQ(types[3].namespace_, "frontend");
    EXPECT_EQ(types[0].namespace_, "default");
    EXPECT_EQ(types[0].priority, 100);
    ASSERT_EQ(types[0].claimTemplates.size(), 1u);
    EXPECT_EQ(types[0].claimTemplates[0].meta.namespace_, "default");
    EXPECT_TRUE(types[2].claimTemplates.empty()); // missing template: the scheduler will report it
    ASSERT_EQ(diags.all().size(), 1u);
    EXPECT_EQ(diags.all()[0].format(),
        "jobs.yaml:90:1: warning: Pod train-small-abcde: metadata.ownerReferences: pod "
        "has a controller; ignored as a workload (its controller creates it)");
}

TEST(ManifestSource, OnceSubmitsEveryObjectWithItsOffset)
{
    Diagnostics diags;
    WorkloadSpec spec;
    spec.name = "batch";
    auto src = makeManifestSource(spec, jobTypesFromObjects(objects(), "default", diags), 1, diags);
    ASSERT_TRUE(src);
    auto jobs = drain(*src);
    ASSERT_EQ(jobs.size(), 4u);
    EXPECT_EQ(jobs[0].name, "train-small");
    EXPECT_EQ(jobs[0].arrivalSeconds, 0);
    EXPECT_EQ(jobs[0].parallelism, 2);
    EXPECT_EQ(jobs[0].completions, 4);
    EXPECT_EQ(jobs[0].backoffLimit, 3);
    EXPECT_EQ(jobs[0].tasks[0].durationSeconds, 7200);
    EXPECT_EQ(jobs[1].name, "train-large");
    EXPECT_GT(jobs[1].tasks[0].durationSeconds, 0);
    EXPECT_EQ(jobs[2].name, "web");
    EXPECT_TRUE(std::isinf(jobs[2].tasks[0].durationSeconds));
    EXPECT_EQ(jobs[3].name, "debug"); // drasim.dev/arrival: 10m
    EXPECT_EQ(jobs[3].arrivalSeconds, 600);
    EXPECT_EQ(jobs[3].backoffLimit, 0);
    // The bare pod has no duration: a warning says it will run forever.
    bool warned = false;
    for (const auto& d : diags.all())
        warned |= d.format()
            == "jobs.yaml:20:1: warning: Pod default/debug: metadata.annotations.drasim.dev/duration: "
               "no duration (annotation or workload duration): its pods run until the simulation ends";
    EXPECT_TRUE(warned) << diags.formatAll();
}

TEST(ManifestSource, MixWeightsAndGeneratedNames)
{
    Diagnostics diags;
    WorkloadSpec spec;
    spec.name = "gen";
    spec.arrival = ArrivalSpec {};
    spec.arrival->process = ArrivalSpec::Process::Poisson;
    spec.arrival->ratePerSecond = 1;
    spec.arrival->count = 40000;
    spec.mix = { { "train-small", 3 }, { "train-large", 1 } };
    auto src = makeManifestSource(spec, jobTypesFromObjects(objects(), "default", diags), 5, diags);
    ASSERT_TRUE(src) << diags.formatAll();
    std::map<std::string, int> counts;
    int i = 0;
    while (auto j = src->next()) {
        if (i < 3) {
            EXPECT_EQ(j->name, "gen-" + std::to_string(i));
        }
        ++i;
        ++counts[j->labels->at("drasim.dev/job-type")];
    }
    EXPECT_EQ(i, 40000);
    EXPECT_EQ(counts.size(), 2u);
    EXPECT_NEAR(counts["train-small"], 30000, 300);
}

TEST(ManifestSource, SameSeedSameStreamAndDurationsIndependentOfArrivals)
{
    Diagnostics diags;
    WorkloadSpec spec;
    spec.name = "gen";
    spec.arrival = ArrivalSpec {};
    spec.arrival->process = ArrivalSpec::Process::Poisson;
    spec.arrival->ratePerSecond = 0.5;
    spec.arrival->count = 500;
    auto a = drain(*makeManifestSource(spec, jobTypesFromObjects(objects(), "default", diags), 9, diags));
    auto b = drain(*makeManifestSource(spec, jobTypesFromObjects(objects(), "default", diags), 9, diags));
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].arrivalSeconds, b[i].arrivalSeconds);
        EXPECT_EQ(*a[i].labels, *b[i].labels);
        EXPECT_EQ(a[i].tasks[0].durationSeconds, b[i].tasks[0].durationSeconds);
    }
    // A different arrival rate leaves the job-type choices unchanged (separate random streams).
    spec.arrival->ratePerSecond = 2;
    auto c = drain(*makeManifestSource(spec, jobTypesFromObjects(objects(), "default", diags), 9, diags));
    for (size_t i = 0; i < a.size(); ++i)
        EXPECT_EQ(*a[i].labels, *c[i].labels);
}

TEST(ManifestSource, MixErrors)
{
    Diagnostics diags;
    WorkloadSpec spec;
    spec.name = "gen";
    spec.pos = SourcePos { "s.yaml", 4, 3 };
    spec.mix = { { "train-small", 1 } };
    EXPECT_FALSE(makeManifestSource(spec, jobTypesFromObjects(objects(), "default", diags), 1, diags));
    spec.arrival = ArrivalSpec {};
    spec.arrival->process = ArrivalSpec::Process::Poisson;
    spec.mix = { { "train-medium", 1 } };
    EXPECT_FALSE(makeManifestSource(spec, jobTypesFromObjects(objects(), "default", diags), 1, diags));
    std::vector<std::string> errors;
    for (const auto& d : diags.all())
        if (d.severity == Severity::Error)
            errors.push_back(d.format());
    EXPECT_EQ(errors,
        (std::vector<std::string> {
            "s.yaml:4:3: Workload gen: mix: mix needs an arrival process other than once (once submits "
            "every object)",
            "s.yaml:4:3: Workload gen: mix.train-medium: no object named \"train-medium\" in the "
            "manifests (have: train-small, debug, train-large, web)",
        }));
}

TEST(ManifestSource, BadAnnotationIsLocated)
{
    api::ObjectSet set = objects();
    set.controllers[0].meta.annotations["drasim.dev/duration"] = "2 hours";
    Diagnostics diags;
    jobTypesFromObjects(set, "default", diags);
    ASSERT_TRUE(diags.hasErrors());
    EXPECT_EQ(diags.all()[1].format(),
        "jobs.yaml:1:1: Job train-small: metadata.annotations.drasim.dev/duration: invalid duration \"2 "
        "hours\": "
        "unknown unit \" hours\"; expected seconds or a duration like 250ms, 90s, 15m, 2h, 1d, 1h30m, or "
        "forever");
}

TEST(ManifestSource, LoadsRealManifestsThroughTheLoader)
{
    WorkloadSpec spec;
    spec.name = "ml";
    spec.manifests = { DRASIM_SOURCE_DIR "/tests/data/workload/manifests/training.yaml" };
    spec.arrival = ArrivalSpec {};
    spec.arrival->process = ArrivalSpec::Process::Poisson;
    spec.arrival->ratePerSecond = 1.0 / 600;
    spec.arrival->count = 300;
    spec.mix = { { "train-small", 2 }, { "train-large", 1 } };
    Diagnostics diags;
    auto src = makeSource(spec, 1, api::FeatureGates(), diags);
    ASSERT_TRUE(src) << diags.formatAll();
    EXPECT_FALSE(diags.hasErrors()) << diags.formatAll();
    auto jobs = drain(*src);
    ASSERT_EQ(jobs.size(), 300u);
    std::map<std::string, int> counts;
    for (const JobSpec& j : jobs) {
        ++counts[j.labels->at("drasim.dev/job-type")];
        EXPECT_EQ(j.namespace_, "ml");
        if (j.labels->at("drasim.dev/job-type") == "train-large") {
            EXPECT_EQ(j.tasks[0].durationSeconds, 3 * 3600.0);
            ASSERT_EQ(j.claimTemplates.size(), 1u);
            EXPECT_EQ(j.claimTemplates[0].meta.name, "four-gpus");
            EXPECT_EQ(j.claimTemplates[0].spec.requests[0].exactly->count, 4);
        } else {
            EXPECT_EQ(j.completions, 2);
            EXPECT_EQ(j.backoffLimit, 1);
        }
    }
    EXPECT_EQ(counts.count("inference"), 0u); // weight 0: not in the mix
    EXPECT_NEAR(counts["train-small"], 200, 30);
}

TEST(ManifestSource, LoaderErrorsPassThrough)
{
    WorkloadSpec spec;
    spec.name = "ml";
    spec.manifests = { DRASIM_SOURCE_DIR "/tests/data/workload/no-such-dir" };
    Diagnostics diags;
    EXPECT_FALSE(makeSource(spec, 1, api::FeatureGates(), diags));
    EXPECT_TRUE(diags.hasErrors());
    EXPECT_NE(diags.formatAll().find("no-such-dir"), std::string::npos) << diags.formatAll();
}

TEST(ManifestSource, StatefulSetsStartTheirPodsInOrderUnlessParallel)
{
    // podManagementPolicy OrderedReady (the default) creates pod N+1 once pod N runs; Parallel
    // creates them all at once, as Deployments and ReplicaSets do.
    api::ObjectSet set;
    api::PodController db;
    db.kind = api::PodController::Kind::StatefulSet;
    db.meta.name = "db";
    db.meta.pos = SourcePos { "db.yaml", 1, 1 };
    db.replicas = 3;
    set.controllers.push_back(db);
    api::PodController cache = db;
    cache.meta.name = "cache";
    cache.meta.pos.line = 20;
    cache.orderedReady = false;
    set.controllers.push_back(cache);
    api::PodController web = db;
    web.kind = api::PodController::Kind::Deployment;
    web.meta.name = "web";
    web.meta.pos.line = 40;
    set.controllers.push_back(web);

    Diagnostics diags;
    auto types = jobTypesFromObjects(set, "default", diags);
    ASSERT_EQ(types.size(), 3u);
    EXPECT_TRUE(types[0].orderedStart);
    EXPECT_FALSE(types[1].orderedStart);
    EXPECT_FALSE(types[2].orderedStart);
    WorkloadSpec spec;
    spec.name = "w";
    auto source = makeManifestSource(spec, types, 1, diags);
    ASSERT_TRUE(source);
    auto jobs = drain(*source);
    ASSERT_EQ(jobs.size(), 3u);
    EXPECT_TRUE(jobs[0].orderedStart);
    EXPECT_FALSE(jobs[1].orderedStart);
}

// A Job's podFailurePolicy and the workload's checkpointInterval reach every job the source makes.
TEST(ManifestSource, JobsCarryTheirPodFailurePolicyAndTheWorkloadsCheckpointInterval)
{
    WorkloadSpec spec;
    spec.name = "training";
    spec.manifests = { DRASIM_SOURCE_DIR "/scenarios/plan/inference-slo/training.yaml" };
    spec.checkpointInterval = 1800;
    std::vector<api::PriorityClass> classes(2);
    classes[0].meta.name = "training";
    classes[1].meta.name = "batch";
    Diagnostics diags;
    auto src = makeSource(spec, 1, api::FeatureGates(), diags, classes);
    ASSERT_TRUE(src) << diags.formatAll();
    auto jobs = drain(*src);
    ASSERT_EQ(jobs.size(), 1u);
    EXPECT_EQ(jobs[0].onDisruption, api::DisruptionAction::Ignore);
    EXPECT_TRUE(jobs[0].replaceFailedOnly);
    EXPECT_EQ(jobs[0].checkpointSeconds, 1800);
    spec.name = "batch";
    spec.manifests = { DRASIM_SOURCE_DIR "/scenarios/plan/inference-slo/batch.yaml" };
    spec.checkpointInterval.reset();
    auto batch = makeSource(spec, 1, api::FeatureGates(), diags, classes);
    ASSERT_TRUE(batch) << diags.formatAll();
    auto batchJobs = drain(*batch);
    ASSERT_EQ(batchJobs.size(), 1u);
    EXPECT_EQ(batchJobs[0].onDisruption, api::DisruptionAction::Count);
    EXPECT_FALSE(batchJobs[0].replaceFailedOnly);
    EXPECT_EQ(batchJobs[0].checkpointSeconds, 0);
}
