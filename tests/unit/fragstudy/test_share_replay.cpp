// SPDX-License-Identifier: Apache-2.0
// Laws of one fragmentation run over random clusters and pod lists: pods land only where they
// fit, a dropped pod fit nowhere, the cached scores pick the node a full rescoring picks, the
// seed alone decides a run; and the typical pods of the real default trace.

#include <set>

#include <gtest/gtest.h>

#include "core/fragstudy/share_replay.h"

namespace drasim::fragstudy {
namespace replay_test {

using gpushare::SharePolicy;

// A small cluster of mixed nodes (two models) and a pod list of the trace's kinds.
StudyInput randomInput(uint64_t seed)
{
    workload::Rng rng(seed);
    StudyInput in;
    in.models.idOf("A");
    in.models.idOf("B");
    const int nodes = 4 + int(rng.below(10));
    for (int n = 0; n < nodes; ++n) {
        gpushare::ShareNode node;
        node.cpuFreeMilli = 8000 * int64_t(1 + rng.below(8));
        node.memoryFreeMiB = 65536;
        node.model = int(rng.below(2));
        node.gpuFreeMilli.assign(size_t(1) << rng.below(4), gpushare::kMilliPerGpu);
        in.gpuCapacityMilli += int64_t(node.gpuFreeMilli.size()) * gpushare::kMilliPerGpu;
        in.nodes.push_back(node);
        in.nodeNames.push_back("node-" + std::to_string(n));
    }
    const int pods = 20 + int(rng.below(80));
    for (int p = 0; p < pods; ++p) {
        gpushare::SharePod pod;
        pod.cpuMilli = 1000 * int64_t(1 + rng.below(12));
        pod.memoryMiB = 1024 * int64_t(rng.below(20));
        const uint64_t kind = rng.below(5);
        pod.gpuCount = kind == 0 ? 0 : kind == 4 ? int32_t(1) << rng.below(4) : 1;
        pod.gpuMilli = kind == 0 ? 0 : kind == 1 ? int32_t(100 * (1 + rng.below(9))) : 1000;
        if (kind != 0 && rng.below(4) == 0)
            pod.models = uint64_t(1) << rng.below(2);
        in.pods.push_back(pod);
        in.podNames.push_back("pod-" + std::to_string(1000 + p));
    }
    return in;
}

ReplayOptions options(SharePolicy policy, uint64_t seed, TieBreak tieBreak = TieBreak::SeededOrder)
{
    ReplayOptions o;
    o.policy = policy;
    o.seed = seed;
    o.tieBreak = tieBreak;
    o.keepPlacements = true;
    o.inflation.targetPercent = 110.0;
    return o;
}

// Replays the placements on fresh nodes, checking each against the filter and the GPUs it names.
void checkPlacements(const StudyInput& in, const ReplayResult& result, const std::string& what)
{
    std::vector<gpushare::ShareNode> nodes = in.nodes;
    int64_t allocated = 0;
    for (size_t i = 0; i < result.placements.size(); ++i) {
        const Placement& p = result.placements[i];
        const gpushare::SharePod& pod = in.pods[p.pod];
        if (p.node < 0) {
            for (const gpushare::ShareNode& n : nodes)
                ASSERT_FALSE(gpushare::fits(n, pod)) << what << ": arrival " << i << " was dropped but fits";
        } else {
            gpushare::ShareNode& n = nodes[size_t(p.node)];
            ASSERT_TRUE(gpushare::fits(n, pod)) << what << ": arrival " << i;
            ASSERT_EQ(int32_t(p.gpus.size()), pod.gpuMilli > 0 ? pod.gpuCount : 0) << what;
            for (int g : p.gpus)
                ASSERT_GE(n.gpuFreeMilli[size_t(g)], pod.gpuMilli) << what;
            gpushare::place(n, pod, p.gpus);
            allocated += pod.gpuMilliTotal();
        }
        ASSERT_EQ(result.points[i].allocatedMilli, allocated) << what;
    }
}

TEST(ShareReplay, PodsLandOnlyWhereTheyFitAndDroppedPodsFitNowhere)
{
    for (uint64_t seed = 1; seed <= 40; ++seed) {
        const StudyInput in = randomInput(seed);
        for (const auto& info : gpushare::sharePolicies())
            for (TieBreak tie : { TieBreak::SeededOrder, TieBreak::Random }) {
                const ReplayResult r = replay(in, options(info.policy, seed, tie));
                checkPlacements(in, r, std::string(info.name) + " seed " + std::to_string(seed));
            }
    }
}

// With seeded-order ties, each placed pod went to the first node of the run's node order with the
// highest score, rescored from scratch on the state its arrival saw (no cache).
TEST(ShareReplay, CachedScoresPickWhatAFullRescoringPicks)
{
    for (uint64_t seed = 1; seed <= 30; ++seed) {
        const StudyInput in = randomInput(seed);
        for (SharePolicy policy : { SharePolicy::Fgd, SharePolicy::BestFit, SharePolicy::DotProduct,
                 SharePolicy::GpuPacking, SharePolicy::GpuClustering }) {
            const ReplayResult r = replay(in, options(policy, seed));
            std::vector<gpushare::ShareNode> nodes = in.nodes;
            for (const Placement& p : r.placements) {
                const gpushare::SharePod& pod = in.pods[p.pod];
                int best = -1;
                int64_t bestScore = -1;
                for (int n : r.nodeOrder)
                    if (gpushare::fits(nodes[size_t(n)], pod)) {
                        const int64_t s = gpushare::shareScore(policy, nodes[size_t(n)], pod, r.typical);
                        if (s > bestScore) {
                            best = n;
                            bestScore = s;
                        }
                    }
                ASSERT_EQ(p.node, best) << gpushare::sharePolicyInfo(policy).name << " seed " << seed;
                if (best >= 0)
                    gpushare::place(nodes[size_t(best)], pod, p.gpus);
            }
        }
    }
}

TEST(ShareReplay, TheSeedAloneDecidesARun)
{
    const StudyInput in = randomInput(5);
    for (const auto& info : gpushare::sharePolicies()) {
        const ReplayResult a = replay(in, options(info.policy, 11, TieBreak::Random));
        const ReplayResult b = replay(in, options(info.policy, 11, TieBreak::Random));
        ASSERT_EQ(a.placements.size(), b.placements.size());
        for (size_t i = 0; i < a.placements.size(); ++i) {
            EXPECT_EQ(a.placements[i].node, b.placements[i].node) << info.name;
            EXPECT_EQ(a.placements[i].gpus, b.placements[i].gpus) << info.name;
        }
    }
}

TEST(ShareReplay, SeededOrderSendsTiedPodsToTheFirstNodeOfTheSeedsOrder)
{
    // Identical empty nodes and a CPU-only pod: GPU Clustering scores 0 everywhere.
    StudyInput in;
    in.models.idOf("A");
    for (int n = 0; n < 16; ++n) {
        gpushare::ShareNode node;
        node.cpuFreeMilli = 64000;
        node.memoryFreeMiB = 1024;
        node.model = 0;
        node.gpuFreeMilli.assign(2, 1000);
        in.nodes.push_back(node);
        in.nodeNames.push_back("n" + std::to_string(n));
        in.gpuCapacityMilli += 2000;
    }
    gpushare::SharePod cpuOnly;
    cpuOnly.cpuMilli = 1000;
    in.pods.push_back(cpuOnly);
    in.podNames.push_back("p");
    std::set<int> chosen;
    for (uint64_t seed = 1; seed <= 8; ++seed) {
        ReplayOptions o = options(SharePolicy::GpuClustering, seed);
        o.inflation.targetPercent = std::nullopt;
        const ReplayResult r = replay(in, o);
        ASSERT_EQ(r.placements.size(), 1u);
        EXPECT_EQ(r.placements[0].node, r.nodeOrder[0]);
        chosen.insert(r.placements[0].node);
    }
    EXPECT_GT(chosen.size(), 1u);
}

TEST(ShareReplay, DefaultTraceTypicalPods)
{
    Diagnostics diags;
    const std::string dir = DRASIM_TRACES_DIR "/alibaba-gpu-2023/";
    auto in = loadStudyInput(dir + "openb_node_list_gpu_node.csv", dir + "openb_pod_list_default.csv", diags);
    ASSERT_TRUE(in) << diags.formatAll();
    EXPECT_EQ(in->nodes.size(), 1213u);
    EXPECT_EQ(in->gpuCount(), 6212);
    EXPECT_EQ(in->pods.size(), 8152u);
    const auto typical = gpushare::typicalPods(in->pods, 95);
    // 35 of the trace's 91 shapes cover 95.26 % of its pods; the commonest is <3152m, 0.81 GPU>.
    int64_t covered = 0;
    for (const auto& t : typical)
        covered += t.count;
    EXPECT_EQ(typical.size(), 35u);
    EXPECT_NEAR(100.0 * double(covered) / 8152.0, 95.26, 0.005);
    EXPECT_EQ(typical[0].shape.cpuMilli, 3152);
    EXPECT_EQ(typical[0].shape.gpuMilli, 810);
}

TEST(ShareReplay, MissingFilesAreReportedWithTheirPath)
{
    Diagnostics diags;
    EXPECT_FALSE(loadStudyInput("/nonexistent/nodes.csv", "/nonexistent/pods.csv", diags));
    EXPECT_NE(diags.formatAll().find("/nonexistent/nodes.csv"), std::string::npos) << diags.formatAll();
}

} // namespace replay_test
} // namespace drasim::fragstudy
