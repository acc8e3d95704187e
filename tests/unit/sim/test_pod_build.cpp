// SPDX-License-Identifier: Apache-2.0
// A pod's api::Pod built over one built before (SimContext::buildPodInto, as BuiltPods reuses its
// entries) is exactly the Pod built afresh, whatever the earlier Pod came from.
#include <gtest/gtest.h>

#include "core/sim/sim_context.h"
#include "core/yamlio/writer.h"
#include "tests/unit/sim/fake_cluster.h"

using namespace drasim;
using namespace drasim::sim;

namespace {

std::shared_ptr<const api::PodTemplateSpec> podTemplate(const std::string& label, const std::string& group)
{
    auto t = std::make_shared<api::PodTemplateSpec>();
    t->meta.labels = { { "app", label }, { "drasim.dev/job", "from-template" }, { "tier", "gpu" } };
    t->meta.annotations = { { "note", label } };
    api::Container c;
    c.name = "main";
    c.resources.limits["cpu"] = *Quantity::parse("2"); // admission copies it to requests
    t->spec.containers.push_back(c);
    if (!group.empty())
        t->spec.schedulingGroup = group;
    return t;
}

/// A job of one task with `tmpl`, its labels, and a PodGroup when `grouped`; one pod of it.
uint32_t addJobWithPod(SimContext& ctx, const std::string& name,
    std::shared_ptr<const api::PodTemplateSpec> tmpl, std::map<std::string, std::string> labels, bool grouped)
{
    ctx.jobs.emplace_back();
    const uint32_t jobId = uint32_t(ctx.jobs.size() - 1);
    JobState& job = ctx.jobs[jobId];
    job.spec.name = name;
    job.spec.workload = "w-" + name;
    job.spec.labels = std::make_shared<const api::Labels>(std::move(labels));
    job.spec.tasks.emplace_back().pod = std::move(tmpl);
    job.spec.tasks[0].priority = int32_t(jobId) + 5;
    if (grouped)
        job.group.emplace();
    const uint32_t id = ctx.allocPod();
    SimPod& p = ctx.pods[id];
    p.key = "default/" + name + "-0";
    p.serial = ctx.nextPodSerial++;
    p.job = jobId;
    return id;
}

} // namespace

TEST(PodBuild, OverAnEarlierPodEqualsAFreshBuild)
{
    sim::testing::FakeCluster cluster;
    SimContext ctx(cluster, SimOptions {});
    const auto gpu = podTemplate("a", "tmpl-group");
    const auto cpu = podTemplate("b", "");
    std::vector<uint32_t> pods;
    pods.push_back(addJobWithPod(ctx, "one", gpu, { { "drasim.dev/qos", "LS" } }, false));
    // Same template: other job labels, one of them over a template label; and a PodGroup.
    pods.push_back(addJobWithPod(ctx, "two", gpu, { { "app", "mine" }, { "zone", "z1" } }, true));
    pods.push_back(addJobWithPod(ctx, "three", gpu, {}, false));
    pods.push_back(addJobWithPod(ctx, "four", cpu, { { "drasim.dev/trace-phase", "Running" } }, false));
    pods.push_back(addJobWithPod(ctx, "five", nullptr, { { "app", "bare" } }, false));
    pods.push_back(addJobWithPod(ctx, "six", gpu, { { "drasim.dev/qos", "BE" } }, false));

    api::Pod reused;
    std::shared_ptr<const api::PodTemplateSpec> from;
    for (uint32_t id : pods) {
        ctx.buildPodInto(ctx.pods[id], reused, from);
        const api::Pod fresh = ctx.buildPod(ctx.pods[id]);
        EXPECT_EQ(yamlio::toData(reused), yamlio::toData(fresh)) << ctx.pods[id].key;
        EXPECT_EQ(from, ctx.jobs[ctx.pods[id].job].spec.tasks[0].pod) << ctx.pods[id].key;
    }

    // What the fresh builds hold: admission's defaults, the job's labels over the template's and
    // the job's name over both, the template's group unless the job has its own.
    const api::Pod two = ctx.buildPod(ctx.pods[pods[1]]);
    EXPECT_EQ(two.meta.labels.at("app"), "mine");
    EXPECT_EQ(two.meta.labels.at("drasim.dev/job"), "two");
    EXPECT_EQ(two.meta.labels.at("tier"), "gpu");
    EXPECT_EQ(two.spec.schedulingGroup, "two");
    EXPECT_EQ(two.spec.containers.at(0).resources.requests.count("cpu"), 1u);
    const api::Pod three = ctx.buildPod(ctx.pods[pods[2]]);
    EXPECT_EQ(three.meta.labels.at("app"), "a");
    EXPECT_EQ(three.meta.labels.count("zone"), 0u);
    EXPECT_EQ(three.spec.schedulingGroup, "tmpl-group");
    EXPECT_FALSE(ctx.buildPod(ctx.pods[pods[3]]).spec.schedulingGroup);
}

TEST(PodBuild, AFreeEntryOfTheSameTemplateIsTakenFirst)
{
    // Two Pods built from two templates, both given back: the next pod's Pod is built over the
    // one of its own template (kept spec), not over the last one given back.
    auto a = podTemplate("a", "");
    auto b = podTemplate("b", "");
    BuiltPods built;
    int32_t slotA = -1, slotB = -1, slotC = -1;
    auto build = [](const std::shared_ptr<const api::PodTemplateSpec>& tmpl) {
        return [tmpl](api::Pod&, std::shared_ptr<const api::PodTemplateSpec>& from) { from = tmpl; };
    };
    built.get(1, slotA, a.get(), build(a));
    built.get(2, slotB, b.get(), build(b));
    const int32_t entryOfA = slotA;
    built.release(1, slotA);
    built.release(2, slotB);
    const api::PodTemplateSpec* overFrom = nullptr;
    built.get(3, slotC, a.get(), [&](api::Pod&, std::shared_ptr<const api::PodTemplateSpec>& from) {
        overFrom = from.get();
        from = a;
    });
    EXPECT_EQ(overFrom, a.get());
    EXPECT_EQ(slotC, entryOfA);
}
