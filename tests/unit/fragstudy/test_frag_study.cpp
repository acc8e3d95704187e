// SPDX-License-Identifier: Apache-2.0
// The study across policies and seeds: statistics, seed lists, thread-count independence, and
// its three output forms.

#include <algorithm>

#include <gtest/gtest.h>

#include "core/fragstudy/frag_study.h"
#include "core/fragstudy/study_output.h"

namespace drasim::fragstudy {
namespace study_test {

StudyInput smallTrace()
{
    StudyInput in;
    in.models.idOf("A");
    for (int n = 0; n < 12; ++n) {
        gpushare::ShareNode node;
        node.cpuFreeMilli = 32000;
        node.memoryFreeMiB = 1 << 20;
        node.model = 0;
        node.gpuFreeMilli.assign(n % 3 == 0 ? 8 : 2, 1000);
        in.gpuCapacityMilli += int64_t(node.gpuFreeMilli.size()) * 1000;
        in.nodes.push_back(node);
        in.nodeNames.push_back("n" + std::to_string(n));
    }
    workload::Rng rng(9);
    for (int p = 0; p < 60; ++p) {
        gpushare::SharePod pod;
        pod.cpuMilli = 1000 * int64_t(1 + rng.below(6));
        const uint64_t kind = rng.below(4);
        pod.gpuCount = kind == 0 ? 0 : kind == 3 ? 2 : 1;
        pod.gpuMilli = kind == 0 ? 0 : kind == 1 ? 250 * int32_t(1 + rng.below(3)) : 1000;
        in.pods.push_back(pod);
        in.podNames.push_back("p" + std::to_string(100 + p));
    }
    return in;
}

StudyOptions allPolicies(unsigned threads)
{
    StudyOptions o;
    for (const auto& info : gpushare::sharePolicies())
        o.policies.push_back(info.policy);
    o.seeds = { 1, 2, 3, 4, 5 };
    o.threads = threads;
    return o;
}

TEST(FragStudy, TheOutcomeDoesNotDependOnTheThreadCount)
{
    const StudyInput in = smallTrace();
    const auto one = runStudy(in, allPolicies(1));
    const auto three = runStudy(in, allPolicies(3));
    ASSERT_TRUE(one && three);
    EXPECT_EQ(studyCsv(*one), studyCsv(*three));
    EXPECT_EQ(studyJson(*one, "t"), studyJson(*three, "t"));
}

TEST(FragStudy, CancelledStudiesReturnNothing)
{
    CancelToken cancel;
    cancel.cancel();
    EXPECT_FALSE(runStudy(smallTrace(), allPolicies(2), nullptr, &cancel));
}

TEST(FragStudy, ProgressReachesOne)
{
    struct Last : ProgressSink
    {
        double last = 0;
        int calls = 0;
        void progress(double fraction, std::string_view) override
        {
            EXPECT_GE(fraction, last);
            last = fraction;
            ++calls;
        }
    } sink;
    ASSERT_TRUE(runStudy(smallTrace(), allPolicies(2), &sink));
    EXPECT_EQ(sink.calls, 30);
    EXPECT_EQ(sink.last, 1.0);
}

TEST(FragStudy, SeedStatsInterpolateQuartiles)
{
    const SeedStats s = seedStats({ 4, 1, 3, 2 });
    EXPECT_EQ(s.seeds, 4u);
    EXPECT_DOUBLE_EQ(s.mean, 2.5);
    EXPECT_DOUBLE_EQ(s.median, 2.5);
    EXPECT_DOUBLE_EQ(s.lowerQuartile, 1.75);
    EXPECT_DOUBLE_EQ(s.upperQuartile, 3.25);
    EXPECT_EQ(seedStats({}).seeds, 0u);
}

TEST(FragStudy, SeedLists)
{
    std::string error;
    EXPECT_EQ(parseSeedList("42-45", error), (std::vector<uint64_t> { 42, 43, 44, 45 }));
    EXPECT_EQ(parseSeedList("7,9-10", error), (std::vector<uint64_t> { 7, 9, 10 }));
    EXPECT_FALSE(parseSeedList("5-3", error));
    EXPECT_EQ(error, "\"5-3\" is not a seed or a range of seeds (42, 42-51)");
    EXPECT_FALSE(parseSeedList("a", error));
    EXPECT_FALSE(parseSeedList("1,", error));
}

TEST(FragStudy, OutputsCoverEveryPolicyAndArrivedPercent)
{
    StudyOptions o = allPolicies(2);
    o.policies = { gpushare::SharePolicy::Fgd, gpushare::SharePolicy::Random };
    const auto result = runStudy(smallTrace(), o);
    ASSERT_TRUE(result);
    const std::string csv = studyCsv(*result, { 75, 130, 5 });
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 2 * 56);
    EXPECT_EQ(csv.rfind("policy,arrived_percent,seeds,allocated_mean", 0), 0u);
    const std::string text = studyText(*result, "small", { 75, 130, 5 });
    EXPECT_NE(text.find("Fragmentation study: small"), std::string::npos);
    EXPECT_NE(text.find("      100"), std::string::npos) << text;
    const std::string json = studyJson(*result, "small", { 100, 100, 5 });
    EXPECT_NE(json.find("\"arrivedPercent\": 100"), std::string::npos) << json;
}

// On the paper's own trace the policies whose published means lie points apart keep their order
// at 100 % arrived load in every seed: fgd, best-fit, dot-product, random (gpu-packing and
// gpu-clustering sit within each other's spread across seeds, so they are left out).
TEST(FragStudy, PolicyOrderAtFullLoadHoldsInEverySeed)
{
    Diagnostics diags;
    const std::string dir = DRASIM_TRACES_DIR "/alibaba-gpu-2023/";
    auto in = loadStudyInput(dir + "openb_node_list_gpu_node.csv", dir + "openb_pod_list_default.csv", diags);
    ASSERT_TRUE(in) << diags.formatAll();
    const gpushare::SharePolicy order[] = { gpushare::SharePolicy::Fgd, gpushare::SharePolicy::BestFit,
        gpushare::SharePolicy::DotProduct, gpushare::SharePolicy::Random };
    for (uint64_t seed : { 42, 43, 44 }) {
        double previous = 101;
        for (gpushare::SharePolicy policy : order) {
            ReplayOptions o;
            o.policy = policy;
            o.seed = seed;
            const RunCurves curves = binByArrival(replay(*in, o).points, in->gpuCount());
            ASSERT_TRUE(curves.allocatedPercent[100]);
            const double allocated = *curves.allocatedPercent[100];
            EXPECT_LT(allocated, previous) << gpushare::sharePolicyInfo(policy).name << ", seed " << seed;
            previous = allocated;
        }
    }
}

// The paper's experiment, reproduced: the mean GPU allocation of ten seeds (42-51) at 100 % and
// 120 % arrived load, against the authors' own ten runs per policy on the default trace
// (hkust-adsl/kubernetes-scheduler-simulator, experiments/analysis/expected_results/
// analysis_allo_discrete.csv at commit 1853fc0e, rows openb_pod_list_default, tune 1.3). Their
// random streams are not reproduced, so only the means compare: within 0.1 points where the
// seeds agree closely (standard deviation 0.1 to 0.33 in their runs), within 0.4 for gpu-packing
// and gpu-clustering, whose seeds spread 0.53 and 0.61.
TEST(FragStudy, ReproducesThePublishedAllocationOfEveryPolicy)
{
    Diagnostics diags;
    const std::string dir = DRASIM_TRACES_DIR "/alibaba-gpu-2023/";
    auto in = loadStudyInput(dir + "openb_node_list_gpu_node.csv", dir + "openb_pod_list_default.csv", diags);
    ASSERT_TRUE(in) << diags.formatAll();
    struct Published
    {
        gpushare::SharePolicy policy;
        double at100, at120, tolerance;
    };
    const Published published[] = {
        { gpushare::SharePolicy::Random, 86.303, 87.278, 0.1 },
        { gpushare::SharePolicy::DotProduct, 90.622, 90.765, 0.1 },
        { gpushare::SharePolicy::GpuClustering, 91.650, 91.796, 0.4 },
        { gpushare::SharePolicy::GpuPacking, 91.779, 91.921, 0.4 },
        { gpushare::SharePolicy::BestFit, 92.862, 93.001, 0.1 },
        { gpushare::SharePolicy::Fgd, 95.227, 95.347, 0.1 },
    };
    StudyOptions o;
    for (const Published& p : published)
        o.policies.push_back(p.policy);
    for (uint64_t seed = 42; seed <= 51; ++seed)
        o.seeds.push_back(seed);
    o.threads = 2;
    const auto result = runStudy(*in, o);
    ASSERT_TRUE(result);
    for (size_t i = 0; i < std::size(published); ++i) {
        const PolicyCurves& c = result->policies[i];
        const char* name = gpushare::sharePolicyInfo(c.policy).name;
        EXPECT_NEAR(c.allocated[100].mean, published[i].at100, published[i].tolerance) << name;
        EXPECT_NEAR(c.allocated[120].mean, published[i].at120, published[i].tolerance) << name;
    }
}

} // namespace study_test
} // namespace drasim::fragstudy
