// SPDX-License-Identifier: Apache-2.0
// The claim measure of fragmentation in a run (ClusterPort::claimFragmentation): at every sample
// the reported fragment per class is clusterClaimFragment of the nodes' free devices at that
// moment, against the typical claims of the run's own jobs; the summary says it word for word,
// and a run without a target reports nothing of it.
#include <random>

#include <gtest/gtest.h>

#include "core/gpushare/device_fragmentation.h"
#include "core/scheduler/cluster.h"
#include "core/sim/run_summary.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "core/sim/workload_claims.h"
#include "tests/unit/sim/sim_test_util.h"

namespace claim_fragmentation_run_test {

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

/// The class "gpu" and templates gpu-1, gpu-2, gpu-4 and gpu-8.
api::ObjectSet gpuTemplates()
{
    api::ObjectSet o = oneAndTwoGpuTemplates();
    for (int64_t count : { 4, 8 }) {
        api::ResourceClaimTemplate t = o.resourceClaimTemplates.front();
        t.meta.name = "gpu-" + std::to_string(count);
        t.spec.requests.front().exactly->count = count;
        o.resourceClaimTemplates.push_back(t);
    }
    return o;
}

/// At each sample, the points of the claim measure next to the measure of the nodes' free
/// devices, counted from the devices the cluster reports allocated.
class MeasureChecker : public RunRecorder
{
public:
    MeasureChecker(const scheduler::Cluster& cluster, const gpushare::ClaimTarget& target)
        : m_cluster(cluster)
        , m_target(target)
    { }
    void onSample(const MetricSample& sample) override
    {
        std::vector<gpushare::DeviceCounts> free;
        for (const scheduler::DeviceUsage& u : m_cluster.deviceUsage())
            free.push_back({ { "gpu", int64_t(u.total) - int64_t(u.allocated) } });
        const auto expected = gpushare::clusterClaimFragment(free, m_target.typical);
        const double fragment = expected.count("gpu") ? expected.at("gpu").fragment : 0.0;
        const double freeDevices = expected.count("gpu") ? expected.at("gpu").free : 0.0;
        int seen = 0;
        for (const SeriesPoint& p : sample.points) {
            if (p.metric == "fragmentation.claim_devices") {
                EXPECT_EQ(p.key, "gpu");
                EXPECT_NEAR(p.value, fragment, 1e-9) << "at " << sample.time;
                ++seen;
            } else if (p.metric == "fragmentation.claim_rate_percent") {
                EXPECT_NEAR(p.value, freeDevices > 0 ? 100.0 * fragment / freeDevices : 0.0, 1e-9);
                ++seen;
            }
        }
        EXPECT_EQ(seen, 2) << "at " << sample.time;
        ++samples;
        fragmented += fragment > 0;
    }
    int samples = 0;
    int fragmented = 0;

private:
    const scheduler::Cluster& m_cluster;
    const gpushare::ClaimTarget& m_target;
};

/// Runs random jobs of 1, 2, 4 and 8 GPUs on 1 to 4 nodes of 8 GPUs and checks every sample
/// against the whole-device measure of the free GPUs; the number of samples that saw a fragment.
int checkRandomRuns(const api::ObjectSet& objects, bool onShares)
{
    int fragmented = 0;
    for (uint64_t seed = 1; seed <= 12; ++seed) {
        std::mt19937_64 rng(seed);
        std::vector<workload::JobSpec> jobs;
        PodClaimRefs refs;
        const int gpusChoice[] = { 1, 2, 4, 8 };
        for (int j = 0, count = 5 + int(rng() % 40); j < count; ++j) {
            jobs.push_back(gpuJob("j" + std::to_string(j), double(rng() % 3600), 60.0 + double(rng() % 3600),
                gpusChoice[rng() % 4]));
            countPodClaims(jobs.back(), refs);
        }
        scheduler::SchedulerOptions options;
        // The general measure reads the selectors as it does on a cluster with partitions.
        options.claimTarget = onShares ? gpushare::claimTargetOf(podClaimRequests(refs, objects), 95, true)
                                       : workloadClaimTarget(refs, objects);
        EXPECT_NE(options.claimTarget, nullptr);
        if (!options.claimTarget)
            return 0;
        EXPECT_EQ(options.claimTarget->general != nullptr, onShares);
        scheduler::Cluster cluster(objects, options);
        SchedulerClusterPort port(cluster);
        SimOptions o;
        o.scenarioName = "claims";
        o.duration = 8000 * kSecond;
        o.metricInterval = 120 * kSecond;
        Simulator sim(port, o);
        sim.addNodePool(gpuPool("n", 1 + int(rng() % 4), 8));
        sim.setArrivals(source(std::move(jobs)));
        MeasureChecker checker(cluster, *options.claimTarget);
        sim.addRecorder(&checker);
        const RunSummary s = sim.run();
        EXPECT_GT(checker.samples, 0);
        fragmented += checker.fragmented;
        EXPECT_EQ(s.claimFragmentationOnShares, onShares);
        EXPECT_EQ(s.claimFragmentation.size(), 1u);
        if (s.claimFragmentation.size() != 1)
            continue;
        EXPECT_EQ(s.claimFragmentation[0].deviceClass, "gpu");
        EXPECT_EQ(s.claimFragmentation[0].samples, uint64_t(checker.samples));
    }
    return fragmented;
}

TEST(ClaimFragmentationRun, EverySampleReportsTheMeasureOfTheFreeDevices)
{
    EXPECT_GT(checkRandomRuns(gpuTemplates(), false), 0)
        << "some sample must see a fragment for the law to say something";
}

// The general measure (device_fragmentation.h) on whole devices, its requests' selectors
// accepting every device: at every sample the whole-device measure, and the summary says which.
TEST(ClaimFragmentationRun, TheGeneralMeasureOnWholeDevicesIsTheWholeDeviceMeasure)
{
    api::ObjectSet objects = gpuTemplates();
    for (api::ResourceClaimTemplate& t : objects.resourceClaimTemplates)
        t.spec.requests.front().exactly->selectors.push_back({ "device.driver != ''", {} });
    EXPECT_GT(checkRandomRuns(objects, true), 0);
}

TEST(ClaimFragmentationRun, ARunWithoutTypicalClaimsReportsNoneOfIt)
{
    scheduler::Cluster cluster(gpuTemplates());
    SchedulerClusterPort port(cluster);
    SimOptions o;
    o.duration = 600 * kSecond;
    o.metricInterval = 60 * kSecond;
    Simulator sim(port, o);
    sim.addNodePool(gpuPool("n", 1, 8));
    sim.setArrivals(source({ gpuJob("a", 0, 100, 2) }));
    const RunSummary s = sim.run();
    EXPECT_TRUE(s.claimFragmentation.empty());
    EXPECT_EQ(formatText(s).find("claim fragmentation"), std::string::npos);
    EXPECT_FALSE(toData(s).find("claimFragmentation"));
}

TEST(ClaimFragmentationRun, TheSummarySaysItPerClass)
{
    RunSummary s;
    s.claimFragmentation.push_back({ "gpu.nvidia.com", 4, 1.5, 3, 6, 25 });
    s.claimFragmentation.push_back({ "rdma-net", 4, 0.25, 1, 2, 12.5 });
    const std::string text = formatText(s);
    EXPECT_NE(
        text.find(
            "claim fragmentation (the FGD measure on whole devices, against the workload's typical "
            "claims):\n"
            "  gpu.nvidia.com: mean 1.50 devices (peak 3.00), 25.0% of the free devices (mean 6.00 free)\n"
            "  rdma-net: mean 0.25 devices (peak 1.00), 12.5% of the free devices (mean 2.00 free)\n"),
        std::string::npos)
        << text;
    const DataValue data = toData(s);
    const DataValue* claims = data.find("claimFragmentation");
    ASSERT_TRUE(claims);
    const DataValue* gpu = claims->find("gpu.nvidia.com");
    ASSERT_TRUE(gpu);
    EXPECT_DOUBLE_EQ(gpu->find("meanDevices")->asDouble(), 1.5);
    EXPECT_EQ(gpu->find("peakDevices")->asInt(), 3) << "whole numbers as integers";
    EXPECT_EQ(gpu->find("meanFreeDevices")->asInt(), 6);
    EXPECT_EQ(gpu->find("meanPercentOfFree")->asInt(), 25);
}

TEST(ClaimFragmentationRun, OnWholeDevicesSelectorsAreNotRead)
{
    PodClaimRefs refs;
    countPodClaims(gpuJob("a", 0, 10, 2), refs);
    api::ObjectSet objects = gpuTemplates();
    for (api::ResourceClaimTemplate& t : objects.resourceClaimTemplates)
        t.spec.requests.front().exactly->selectors.push_back({ "device.driver != ''", {} });
    EXPECT_FALSE(publishesPartitionsOrShares(objects));
    const auto whole = workloadClaimTarget(refs, objects);
    ASSERT_NE(whole, nullptr);
    EXPECT_EQ(whole->general, nullptr) << "no partition or shareable device: the whole-device measure";
    api::ResourceSlice slice;
    slice.devices.emplace_back().allowMultipleAllocations = true;
    objects.resourceSlices.push_back(slice);
    EXPECT_TRUE(publishesPartitionsOrShares(objects));
    const auto general = workloadClaimTarget(refs, objects);
    ASSERT_NE(general, nullptr);
    EXPECT_NE(general->general, nullptr);
}

TEST(ClaimFragmentationRun, PodsAreCountedByTheDevicesTheirClaimsAskFor)
{
    PodClaimRefs refs;
    workload::JobSpec twoPods = gpuJob("a", 0, 10, 2);
    twoPods.completions = 2;
    countPodClaims(twoPods, refs);
    countPodClaims(gpuJob("b", 0, 10, 8), refs);
    workload::JobSpec none = gpuJob("c", 0, 10, 1);
    auto tmpl = std::make_shared<api::PodTemplateSpec>(*none.tasks[0].pod);
    tmpl->spec.resourceClaims.clear();
    none.tasks[0].pod = tmpl;
    countPodClaims(none, refs);
    countPodClaims(gpuJob("d", 0, 10, 3), refs); // no template gpu-3: asks for nothing known
    const auto shapes = podClaimShapes(refs, gpuTemplates());
    using Shapes = std::map<gpushare::DeviceCounts, int64_t>;
    EXPECT_EQ(shapes, (Shapes { { {}, 2 }, { { { "gpu", 2 } }, 2 }, { { { "gpu", 8 } }, 1 } }));
}

} // namespace claim_fragmentation_run_test
