// SPDX-License-Identifier: Apache-2.0
// The pods a workload's controllers create pass the Priority admission plugin: their template's
// priorityClassName is resolved when the job types are made (prepare time), never mid-run.
#include <gtest/gtest.h>

#include "core/workload/manifest_source.h"

using namespace drasim;
using namespace drasim::workload;

namespace {

api::PriorityClass priorityClass(const char* name, int32_t value, const char* policy = "PreemptLowerPriority")
{
    api::PriorityClass pc;
    pc.meta.name = name;
    pc.value = value;
    pc.preemptionPolicy = policy;
    return pc;
}

api::ObjectSet jobNaming(const char* className, std::optional<int32_t> priority = std::nullopt)
{
    api::ObjectSet set;
    api::PodController job;
    job.kind = api::PodController::Kind::Job;
    job.meta.name = "train";
    job.meta.pos = SourcePos { "jobs.yaml", 3, 1 };
    job.podTemplate.spec.containers.push_back(api::Container { "main", "img", {}, {} });
    job.podTemplate.spec.priorityClassName = className;
    job.podTemplate.spec.priority = priority;
    set.controllers.push_back(job);
    return set;
}

TEST(TemplatePriority, AClassOfTheClusterGivesTheJobTypeItsValue)
{
    Diagnostics diags;
    const auto types = jobTypesFromObjects(
        jobNaming("training"), "default", diags, {}, { priorityClass("training", 100, "Never") });
    ASSERT_EQ(diags.formatAll(), "");
    ASSERT_EQ(types.size(), 1u);
    EXPECT_EQ(types[0].priority, 100);
    ASSERT_TRUE(types[0].pod);
    EXPECT_EQ(types[0].pod->spec.priority, 100);
    EXPECT_EQ(types[0].pod->spec.preemptionPolicy, api::PreemptionPolicy::Never);
}

TEST(TemplatePriority, AClassInTheSameManifestsResolvesToo)
{
    api::ObjectSet set = jobNaming("training");
    set.priorityClasses.push_back(priorityClass("training", 7));
    Diagnostics diags;
    const auto types = jobTypesFromObjects(set, "default", diags);
    ASSERT_EQ(diags.formatAll(), "");
    EXPECT_EQ(types.at(0).priority, 7);
}

TEST(TemplatePriority, AnUnknownClassIsAnErrorAtTheController)
{
    Diagnostics diags;
    const auto types = jobTypesFromObjects(jobNaming("training"), "default", diags);
    EXPECT_TRUE(types.empty());
    EXPECT_EQ(diags.formatAll(),
        "jobs.yaml:3:1: Job default/train: spec.template.spec.priorityClassName: pods \"train-\" is "
        "forbidden: no "
        "PriorityClass with name training was found\n");
}

TEST(TemplatePriority, APriorityTheClassDisagreesWithIsAnError)
{
    Diagnostics diags;
    jobTypesFromObjects(jobNaming("training", 5), "default", diags, {}, { priorityClass("training", 100) });
    EXPECT_EQ(diags.formatAll(),
        "jobs.yaml:3:1: Job default/train: spec.template.spec.priority: pods \"train-\" is forbidden: the "
        "integer "
        "value of priority (5) must not be provided in pod spec; priority admission controller computed 100 "
        "from "
        "the given PriorityClass name\n");
}

TEST(TemplatePriority, WithoutAClassTheTemplatesPriorityStands)
{
    Diagnostics diags;
    const auto types
        = jobTypesFromObjects(jobNaming("", 50), "default", diags, {}, { priorityClass("other", 1) });
    ASSERT_EQ(diags.formatAll(), "");
    EXPECT_EQ(types.at(0).priority, 50);
    EXPECT_EQ(types.at(0).pod->spec.preemptionPolicy, api::PreemptionPolicy::Unset);
}

} // namespace
