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

} // namespace study_test
} // namespace drasim::fragstudy
