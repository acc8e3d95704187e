// SPDX-License-Identifier: Apache-2.0
// Two paths, one answer (placements and the fragmentation they leave): a fragmentation run without inflation
// or shuffle, with the GPU the DRA allocator would pick (first fit) and seeded-order ties, places every pod
// exactly where the scheduler does with the same scoring profile and tie-break, on the same cluster as DRA
// objects (the trace mapping: one device per GPU with a consumable gpuMilli capacity, pods with claims from
// templates). Random clusters and pod lists, every policy but random (whose draws come from different streams
// in the two).

#include <cstdio>

#include <gtest/gtest.h>

#include "core/fragstudy/share_replay.h"
#include "core/scheduler/cluster.h"
#include "core/workload/rng.h"
#include "core/workload/trace_mapping.h"
#include "core/workload/trace_share_pods.h"
#include "core/workload/workload.h"
#include "tests/unit/env_number.h"

namespace drasim::fragstudy {
namespace agreement_test {

struct Trace
{
    std::vector<workload::TraceGpuNode> nodes;
    std::vector<workload::AlibabaPodRow> pods;
};

std::string numbered(const char* prefix, int n)
{
    char name[32];
    std::snprintf(name, sizeof name, "%s-%03d", prefix, n);
    return name;
}

Trace randomTrace(uint64_t seed)
{
    workload::Rng rng(seed);
    Trace t;
    const char* models[] = { "T4", "V100M16", "G2" };
    const int nodes = 3 + int(rng.below(10));
    for (int n = 0; n < nodes; ++n) {
        workload::TraceGpuNode node;
        node.name = numbered("node", n);
        node.cpuMilli = 8000 * int64_t(1 + rng.below(8));
        node.memoryMiB = 65536;
        node.gpus = int32_t(1) << rng.below(4);
        node.model = models[rng.below(3)];
        t.nodes.push_back(node);
    }
    const int pods = 10 + int(rng.below(50));
    for (int p = 0; p < pods; ++p) {
        workload::AlibabaPodRow row;
        row.name = numbered("pod", p);
        row.cpuMilli = 1000 * int64_t(1 + rng.below(12));
        row.memoryMiB = 1024 * int64_t(rng.below(20));
        const uint64_t kind = rng.below(5);
        row.gpu.count = kind == 0 ? 0 : kind == 4 ? int32_t(1) << rng.below(4) : 1;
        row.gpu.milli = kind == 1 ? int32_t(100 * (1 + rng.below(9))) : 1000;
        if (kind != 0 && rng.below(4) == 0)
            row.gpu.models = rng.below(2) ? std::vector<std::string> { "T4" }
                                          : std::vector<std::string> { "T4", "V100M16" };
        t.pods.push_back(row);
    }
    return t;
}

scheduler::ScoringPolicy profileOf(gpushare::SharePolicy policy)
{
    for (const auto& p : scheduler::scoringProfiles())
        if (scheduler::sharePolicyOf(p) == policy)
            return p.policy;
    ADD_FAILURE() << "no scoring profile for " << gpushare::sharePolicyInfo(policy).name;
    return scheduler::ScoringPolicy::Default;
}

struct Outcome
{
    std::vector<std::string> placements; ///< per pod: "node gpu-i,gpu-j", or "" when not placed
    gpushare::ClusterFragment fragment; ///< after the last pod
};

// Where the scheduler binds each pod, one cycle per pod in name order.
Outcome schedulerOutcome(const Trace& t, gpushare::SharePolicy policy, uint64_t seed)
{
    api::ObjectSet objects = workload::traceClusterObjects(t.nodes, workload::GpuSharing::Capacity, 10);
    workload::TracePodFactory factory(
        "default", workload::GpuSpecMode::Selector, workload::GpuSharing::Capacity, 10);
    std::vector<api::Pod> pods;
    auto target = std::make_shared<gpushare::ShareTarget>();
    std::vector<gpushare::SharePod> shapes;
    for (const workload::AlibabaPodRow& row : t.pods) {
        workload::JobSpec job;
        factory.fill(job, row.cpuMilli, row.memoryMiB, row.gpu);
        for (auto& tmpl : job.claimTemplates)
            objects.resourceClaimTemplates.push_back(tmpl);
        api::Pod pod;
        pod.meta = job.tasks[0].pod->meta;
        pod.meta.name = row.name;
        pod.meta.namespace_ = "default";
        pod.meta.uid = "uid-" + row.name;
        pod.spec = job.tasks[0].pod->spec;
        pods.push_back(pod);
        shapes.push_back(workload::sharePodOf(row, target->models));
    }
    target->typical = gpushare::typicalPods(shapes);
    scheduler::SchedulerOptions options;
    options.scoring = profileOf(policy);
    options.tieBreak = scheduler::TieBreak::SeededOrder;
    // The paper's scheduler configuration scores every node (percentageOfNodesToScore 100).
    options.percentageOfNodesToScore = 100;
    options.seed = seed;
    options.shareTarget = target;
    scheduler::Cluster cluster(std::move(objects), options);
    EXPECT_FALSE(cluster.diagnostics().hasErrors()) << cluster.diagnostics().formatAll();
    Outcome out;
    for (const api::Pod& pod : pods) {
        const scheduler::ScheduleResult r = cluster.schedule(pod);
        std::string placed;
        if (r.scheduled) {
            placed = r.nodeName;
            for (size_t i = 0; i < r.allocated.size(); ++i)
                placed += (i ? "," : " ") + r.allocated[i].device;
        }
        out.placements.push_back(placed);
    }
    out.fragment = cluster.gpuShareFragmentation().value_or(gpushare::ClusterFragment {});
    return out;
}

Outcome studyOutcome(const Trace& t, gpushare::SharePolicy policy, uint64_t seed)
{
    Diagnostics diags;
    auto input = studyInputOf(t.nodes, t.pods, diags);
    EXPECT_TRUE(input) << diags.formatAll();
    ReplayOptions o;
    o.policy = policy;
    o.gpuChoice = gpushare::GpuChoice::FirstFit;
    o.tieBreak = TieBreak::SeededOrder;
    o.seed = seed;
    o.inflation = { std::nullopt, false };
    o.keepPlacements = true;
    const ReplayResult r = replay(*input, o);
    Outcome out;
    out.fragment = { r.points.back().fragmentMilli, input->gpuCapacityMilli - r.points.back().allocatedMilli,
        input->gpuCapacityMilli };
    for (const Placement& p : r.placements) {
        std::string placed;
        if (p.node >= 0) {
            placed = input->nodeNames[size_t(p.node)];
            for (size_t i = 0; i < p.gpus.size(); ++i)
                placed += (i ? ",gpu-" : " gpu-") + std::to_string(p.gpus[i]);
        }
        out.placements.push_back(placed);
    }
    return out;
}

TEST(SchedulerAgreement, AStudyRunPlacesEveryPodWhereTheSchedulerDoes)
{
    int placed = 0, dropped = 0;
    // DRASIM_AGREEMENT_SEED runs 40 other clusters (the fixed ones start at 1).
    const uint64_t first = test_support::envNumber("DRASIM_AGREEMENT_SEED", 1);
    for (uint64_t seed = first; seed < first + 40; ++seed) {
        const Trace t = randomTrace(seed);
        for (gpushare::SharePolicy policy :
            { gpushare::SharePolicy::Fgd, gpushare::SharePolicy::BestFit, gpushare::SharePolicy::DotProduct,
                gpushare::SharePolicy::GpuPacking, gpushare::SharePolicy::GpuClustering }) {
            const Outcome studied = studyOutcome(t, policy, seed);
            const Outcome scheduledOutcome = schedulerOutcome(t, policy, seed);
            const auto& study = studied.placements;
            const auto& scheduled = scheduledOutcome.placements;
            ASSERT_EQ(study.size(), scheduled.size());
            // The fragmentation the simulator samples from the scheduler is the study's.
            EXPECT_NEAR(studied.fragment.fragmentMilli, scheduledOutcome.fragment.fragmentMilli, 1e-6);
            EXPECT_EQ(studied.fragment.freeMilli, scheduledOutcome.fragment.freeMilli);
            EXPECT_EQ(studied.fragment.capacityMilli, scheduledOutcome.fragment.capacityMilli);
            for (size_t i = 0; i < study.size(); ++i) {
                ASSERT_EQ(study[i], scheduled[i])
                    << gpushare::sharePolicyInfo(policy).name << ", seed " << seed << ", " << t.pods[i].name;
                (study[i].empty() ? dropped : placed) += 1;
            }
        }
    }
    // Both outcomes occur, so the law says something about each.
    EXPECT_GT(placed, 1000);
    EXPECT_GT(dropped, 100);
}

} // namespace agreement_test
} // namespace drasim::fragstudy
