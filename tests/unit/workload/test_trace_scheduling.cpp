// SPDX-License-Identifier: Apache-2.0
// The trace mapping must produce objects the API server accepts and the scheduler allocates as
// intended: shares of one GPU by consumable capacity or partitions, model constraints, exclusivity
// of whole GPUs. Runs the real loader validation and kube-scheduler model.
#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/workload/alibaba_trace.h"
#include "core/workload/kfp_pipeline.h"
#include "core/workload/trace_mapping.h"
#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

using namespace drasim;
using namespace drasim::workload;

namespace {

struct Fixture
{
    api::ObjectSet objects;
    TracePodFactory factory;
    int next = 0;

    Fixture(GpuSharing sharing, GpuSpecMode mode, std::vector<TraceGpuNode> nodes)
        : objects(traceClusterObjects(nodes, sharing, 10))
        , factory("default", mode, sharing, 10)
    { }

    /// A pod for one trace demand, with its template added to the cluster objects.
    api::Pod pod(int32_t gpus, int32_t milli, std::vector<std::string> models = {})
    {
        JobSpec job;
        job.name = "p" + std::to_string(next++);
        factory.fill(job, 1000, 1024, TraceGpuDemand { gpus, milli, std::move(models) });
        for (auto& t : job.claimTemplates)
            objects.resourceClaimTemplates.push_back(t);
        api::Pod p;
        p.meta.name = job.name;
        p.meta.namespace_ = "default";
        p.spec = job.tasks[0].pod->spec;
        return p;
    }
};

TraceGpuNode node(std::string name, std::string model, int32_t gpus)
{
    return TraceGpuNode { std::move(name), 32000, 131072, gpus, std::move(model), {} };
}

std::string validate(const api::ObjectSet& objects)
{
    auto loaded = yamlio::loadText(yamlio::toYamlList(objects), "trace-cluster.yaml");
    return loaded.diagnostics.formatAll();
}

} // namespace

TEST(TraceScheduling, GeneratedObjectsPassApiValidation)
{
    for (GpuSharing sharing : { GpuSharing::Capacity, GpuSharing::Partitions }) {
        for (GpuSpecMode mode : { GpuSpecMode::Selector, GpuSpecMode::FirstAvailable }) {
            Fixture f(sharing, mode, { node("n-t4", "T4", 2), node("n-g2", "G2", 8) });
            f.pod(1, 460);
            f.pod(8, 1000, { "G2" });
            f.pod(1, 1000, { "V100M16", "V100M32" });
            EXPECT_EQ(validate(f.objects), "") << int(sharing) << int(mode);
        }
    }
}

TEST(TraceScheduling, CapacitySharesPackOneGpuUntilFull)
{
    Fixture f(GpuSharing::Capacity, GpuSpecMode::Selector, { node("n1", "T4", 1) });
    auto a = f.pod(1, 460), b = f.pod(1, 460), c = f.pod(1, 460), whole = f.pod(1, 1000),
         small = f.pod(1, 80);
    scheduler::Cluster cluster(f.objects);
    ASSERT_FALSE(cluster.diagnostics().hasErrors()) << cluster.diagnostics().formatAll();
    auto ra = cluster.schedule(a);
    ASSERT_TRUE(ra.scheduled) << ra.message;
    ASSERT_EQ(ra.allocated.size(), 1u);
    EXPECT_TRUE(ra.allocated[0].shared);
    EXPECT_TRUE(cluster.schedule(b).scheduled); // 920 of 1000 milli used
    EXPECT_FALSE(cluster.schedule(c).scheduled);
    EXPECT_FALSE(cluster.schedule(whole).scheduled);
    EXPECT_TRUE(cluster.schedule(small).scheduled); // 80 still fits
    ASSERT_TRUE(cluster.podFinished("default/" + a.meta.name));
    EXPECT_TRUE(cluster.schedule(c).scheduled);
}

TEST(TraceScheduling, WholeGpuIsExclusive)
{
    Fixture f(GpuSharing::Capacity, GpuSpecMode::Selector, { node("n1", "P100", 2) });
    auto two = f.pod(2, 1000), share = f.pod(1, 50);
    scheduler::Cluster cluster(f.objects);
    EXPECT_TRUE(cluster.schedule(two).scheduled);
    EXPECT_FALSE(cluster.schedule(share).scheduled);
}

TEST(TraceScheduling, PartitionsRoundUpAndStayOnOneGpu)
{
    Fixture f(GpuSharing::Partitions, GpuSpecMode::Selector, { node("n1", "T4", 1) });
    auto a = f.pod(1, 460), b = f.pod(1, 460), c = f.pod(1, 110);
    scheduler::Cluster cluster(f.objects);
    ASSERT_FALSE(cluster.diagnostics().hasErrors()) << cluster.diagnostics().formatAll();
    auto ra = cluster.schedule(a);
    ASSERT_TRUE(ra.scheduled) << ra.message;
    EXPECT_EQ(ra.allocated.size(), 5u); // 460 milli → 5 partitions of 100
    EXPECT_TRUE(cluster.schedule(b).scheduled);
    EXPECT_FALSE(cluster.schedule(c).scheduled); // needs 2 partitions, 0 left
}

TEST(TraceScheduling, ModelConstraintsSelectAndPrefer)
{
    for (GpuSpecMode mode : { GpuSpecMode::Selector, GpuSpecMode::FirstAvailable }) {
        Fixture f(GpuSharing::Capacity, mode, { node("a-p100", "P100", 1), node("b-t4", "T4", 1) });
        auto t4 = f.pod(1, 1000, { "T4" }), v100 = f.pod(1, 1000, { "V100M32" });
        scheduler::Cluster cluster(f.objects);
        auto r = cluster.schedule(t4);
        ASSERT_TRUE(r.scheduled) << r.message;
        EXPECT_EQ(r.nodeName, "b-t4");
        EXPECT_FALSE(cluster.schedule(v100).scheduled);
    }
}

// A pipeline task whose claim template does not exist is emitted anyway; the scheduler keeps it
// pending with the reason, as a real cluster would.
TEST(TraceScheduling, PipelineTaskWithMissingTemplateStaysPendingWithReason)
{
    WorkloadSpec w;
    w.name = "nightly";
    w.source = WorkloadSpec::Source::Pipeline;
    w.pipeline = PipelineRunSpec {};
    w.pipeline->path = DRASIM_SOURCE_DIR "/tests/data/workload/kfp/gpu_training_pipeline.yaml";
    DataValue claim = DataValue::map();
    claim.set("resourceClaimTemplateName", "a100-claim");
    w.pipeline->arguments["train_claim"] = claim;
    DurationSpec d;
    d.value = 60;
    w.duration = d;
    Diagnostics diags;
    auto src = makePipelineSource(w, 1, diags);
    ASSERT_TRUE(src) << diags.formatAll();
    auto run = src->next();
    const TaskSpec& train = run->tasks[1];
    api::Pod pod;
    pod.meta.name = run->name + "-" + train.name;
    pod.meta.namespace_ = run->namespace_;
    pod.spec = train.pod->spec;
    Fixture f(GpuSharing::Capacity, GpuSpecMode::Selector, { node("n1", "T4", 1) });
    scheduler::Cluster cluster(f.objects);
    auto r = cluster.schedule(pod);
    EXPECT_FALSE(r.scheduled);
    EXPECT_EQ(r.failure, scheduler::FailureKind::ClaimLookup);
    EXPECT_NE(r.message.find("a100-claim"), std::string::npos) << r.message;
}
