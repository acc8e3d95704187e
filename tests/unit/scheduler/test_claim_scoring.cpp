// SPDX-License-Identifier: Apache-2.0
// The claim measure on the scheduler's cluster (claim_scoring.h), over random GPU+NIC clusters:
//   * claimFragmentation is clusterClaimFragment of the nodes' free devices per class, counted
//     here from the devices the cluster reports allocated;
//   * the fgd policy with a claim target places a pod exactly when some node has the devices it
//     asks for free, and on a node with the best claim score (the first by name among those).
// Seeded: DRASIM_CLAIM_SCORING_SEED (first case), DRASIM_CLAIM_SCORING_CASES (how many).
#include <algorithm>
#include <iterator>
#include <map>
#include <random>

#include <gtest/gtest.h>

#include "core/scheduler/claim_scoring.h"
#include "core/scheduler/cluster.h"
#include "tests/unit/allocator/fixtures.h"
#include "tests/unit/env_number.h"

namespace claim_scoring_test {

using namespace drasim;
using drasim::test_support::envNumber;
using gpushare::DeviceCounts;

const char* const kGpuDriver = "gpu.example.com";
const char* const kNicDriver = "nic.example.com";
const std::string kGpuClass = "gpu";
const std::string kNicClass = "nic";

/// A pod shape of the workload: GPUs and NICs per pod.
struct Shape
{
    int gpus;
    int nics;
};
const Shape kShapes[] = { { 1, 0 }, { 2, 0 }, { 4, 0 }, { 8, 0 }, { 1, 1 }, { 2, 2 } };

std::string templateName(const Shape& s)
{
    return "g" + std::to_string(s.gpus) + "n" + std::to_string(s.nics);
}

api::ObjectSet randomCluster(std::mt19937_64& rng, int nodes)
{
    using namespace drasim::testing;
    api::ObjectSet o;
    for (int n = 0; n < nodes; ++n) {
        const std::string name = numbered("node-", n);
        o.nodes.push_back(node(name));
        std::vector<api::Device> gpus, nics;
        for (int d = 0, count = 1 + int(rng() % 8); d < count; ++d)
            gpus.push_back(device(numbered("gpu-", d)));
        for (int d = 0, count = int(rng() % 4); d < count; ++d)
            nics.push_back(device(numbered("nic-", d)));
        o.resourceSlices.push_back(slice(name + "-gpus", kGpuDriver, name + "-gpus", name, gpus));
        if (!nics.empty())
            o.resourceSlices.push_back(slice(name + "-nics", kNicDriver, name + "-nics", name, nics));
    }
    o.deviceClasses.push_back(deviceClass(kGpuClass, { "device.driver == \"gpu.example.com\"" }));
    o.deviceClasses.push_back(deviceClass(kNicClass, { "device.driver == \"nic.example.com\"" }));
    for (const Shape& s : kShapes) {
        api::ResourceClaimTemplate t;
        t.meta.name = templateName(s);
        t.meta.namespace_ = "default";
        t.spec.requests.push_back(exactRequest("gpu", requestSpec(kGpuClass, s.gpus)));
        if (s.nics > 0)
            t.spec.requests.push_back(exactRequest("nic", requestSpec(kNicClass, s.nics)));
        o.resourceClaimTemplates.push_back(std::move(t));
    }
    return o;
}

/// A random target: some of the shapes, and pods without devices, with random counts.
std::shared_ptr<const gpushare::ClaimTarget> randomTarget(std::mt19937_64& rng)
{
    std::map<DeviceCounts, int64_t> counts;
    counts[{}] = int64_t(rng() % 4);
    for (const Shape& s : kShapes) {
        DeviceCounts shape { { kGpuClass, s.gpus } };
        if (s.nics > 0)
            shape[kNicClass] = s.nics;
        counts[shape] = int64_t(rng() % 6);
    }
    counts[{ { kGpuClass, 1 } }] += 1; // never empty
    return gpushare::claimTargetOf(counts, 100);
}

/// Free devices per class of every node, from what the cluster reports allocated per driver.
std::map<std::string, DeviceCounts> freeByNode(const scheduler::Cluster& c)
{
    std::map<std::string, DeviceCounts> out;
    for (const api::Node* n : c.nodes())
        out[n->meta.name];
    for (const scheduler::DeviceUsage& u : c.deviceUsage())
        out[u.node][u.driver == kGpuDriver ? kGpuClass : kNicClass]
            += int64_t(u.total) - int64_t(u.allocated);
    return out;
}

class ClaimScoringLaws : public ::testing::Test
{
protected:
    uint64_t m_first = envNumber("DRASIM_CLAIM_SCORING_SEED", 20261206);
    uint64_t m_cases = envNumber("DRASIM_CLAIM_SCORING_CASES", 60);
};

TEST_F(ClaimScoringLaws, FragmentationIsTheMeasureOfTheNodesFreeDevices)
{
    for (uint64_t seed = m_first; seed < m_first + m_cases && !HasFailure(); ++seed) {
        std::mt19937_64 rng(seed);
        scheduler::SchedulerOptions options;
        options.claimTarget = randomTarget(rng);
        scheduler::Cluster c(randomCluster(rng, 2 + int(rng() % 6)), options);
        for (int p = 0, pods = int(rng() % 20); p < pods; ++p) {
            const Shape& s = kShapes[rng() % std::size(kShapes)];
            c.schedule(drasim::testing::pod("p" + std::to_string(p), {}, { { "devices", templateName(s) } }));
            if (p % 3 == 0 && p > 0)
                c.podFinished("default/p" + std::to_string(p - 1));
        }
        std::vector<DeviceCounts> nodesFree;
        std::map<std::string, int64_t> installed;
        for (auto& [node, free] : freeByNode(c))
            nodesFree.push_back(free);
        for (const scheduler::DeviceUsage& u : c.deviceUsage())
            installed[u.driver == kGpuDriver ? kGpuClass : kNicClass] += u.total;
        auto expected = gpushare::clusterClaimFragment(nodesFree, options.claimTarget->typical);
        for (const std::string& cls : options.claimTarget->classes)
            if (installed[cls] > 0)
                expected.try_emplace(cls);
        for (auto it = expected.begin(); it != expected.end();)
            it = std::count(
                     options.claimTarget->classes.begin(), options.claimTarget->classes.end(), it->first)
                ? std::next(it)
                : expected.erase(it);
        const auto got = scheduler::claimFragmentation(c);
        ASSERT_EQ(got.size(), expected.size()) << "reproduce: DRASIM_CLAIM_SCORING_SEED=" << seed;
        for (const auto& [cls, f] : expected) {
            ASSERT_TRUE(got.count(cls)) << cls;
            EXPECT_NEAR(got.at(cls).fragment, f.fragment, 1e-9) << cls << ", seed " << seed;
            EXPECT_EQ(got.at(cls).free, f.free) << cls << ", seed " << seed;
        }
    }
}

TEST_F(ClaimScoringLaws, FgdPlacesWhereThePodFitsWithTheBestClaimScore)
{
    int placed = 0, refused = 0;
    for (uint64_t seed = m_first; seed < m_first + m_cases && !HasFailure(); ++seed) {
        std::mt19937_64 rng(seed);
        scheduler::SchedulerOptions options;
        options.scoring = scheduler::ScoringPolicy::Fgd;
        options.claimTarget = randomTarget(rng);
        scheduler::Cluster c(randomCluster(rng, 2 + int(rng() % 6)), options);
        for (int p = 0, pods = 1 + int(rng() % 24); p < pods; ++p) {
            const Shape& s = kShapes[rng() % std::size(kShapes)];
            const DeviceCounts want { { kGpuClass, s.gpus }, { kNicClass, s.nics } };
            DeviceCounts asked { { kGpuClass, s.gpus } };
            if (s.nics > 0)
                asked[kNicClass] = s.nics;
            const auto before = freeByNode(c);
            std::string best;
            int64_t bestScore = -1;
            for (const auto& [node, free] : before) { // by name
                if (!gpushare::claimFits(free, want))
                    continue;
                const int64_t score = gpushare::claimFgdScore(free, asked, options.claimTarget->typical);
                if (score > bestScore) {
                    bestScore = score;
                    best = node;
                }
            }
            const auto r = c.schedule(
                drasim::testing::pod("p" + std::to_string(p), {}, { { "devices", templateName(s) } }));
            ASSERT_EQ(r.scheduled, !best.empty()) << r.message << ", seed " << seed;
            if (!r.scheduled) {
                ++refused;
                continue;
            }
            ++placed;
            EXPECT_EQ(r.nodeName, best) << "seed " << seed << ", pod " << p;
        }
    }
    EXPECT_GT(placed, 0);
    EXPECT_GT(refused, 0);
}

TEST(ClaimScoring, WithoutATargetThereIsNothingToMeasure)
{
    std::mt19937_64 rng(7);
    scheduler::Cluster c(randomCluster(rng, 3));
    EXPECT_TRUE(scheduler::claimFragmentation(c).empty());
}

TEST(ClaimScoring, AClaimCountsItsExactCountDevices)
{
    using namespace drasim::testing;
    api::ResourceClaimSpec spec;
    spec.requests.push_back(exactRequest("gpu", requestSpec(kGpuClass, 2)));
    spec.requests.push_back(exactRequest("nic", requestSpec(kNicClass)));
    api::DeviceRequestSpec all = requestSpec(kNicClass);
    all.allocationMode = "All";
    spec.requests.push_back(exactRequest("every-nic", all));
    api::DeviceRequestSpec shared = requestSpec(kGpuClass);
    shared.capacity.emplace().requests["memory"] = q("10Gi");
    spec.requests.push_back(exactRequest("share", shared));
    api::DeviceRequest alternatives;
    alternatives.name = "either";
    alternatives.firstAvailable.push_back({ "big", requestSpec(kGpuClass, 4) });
    alternatives.firstAvailable.push_back({ "small", requestSpec(kNicClass, 1) });
    spec.requests.push_back(alternatives);
    DeviceCounts shape;
    scheduler::addClaimDevices(spec, shape);
    EXPECT_EQ(shape, (DeviceCounts { { kGpuClass, 6 }, { kNicClass, 1 } }))
        << "ExactCount only, the first subrequest, no capacity request";
}

/// One node whose GPU publishes partitions on one counter set of 8 memory slices, in `order`:
/// "whole" takes all 8, "half-a" and "half-b" 4 each.
api::ObjectSet partitionedGpu(const std::vector<std::string>& order)
{
    using namespace drasim::testing;
    api::ObjectSet o;
    o.nodes.push_back(node("node-0"));
    std::vector<api::Device> parts;
    for (const std::string& name : order) {
        api::Device d = device(name);
        d.consumesCounters.push_back({ "gpu-0", { { "memory", q(name == "whole" ? "8" : "4") } }, {} });
        parts.push_back(d);
    }
    api::ResourceSlice s = slice("node-0-gpu", kGpuDriver, "node-0", "node-0", parts);
    s.sharedCounters.push_back({ "gpu-0", { { "memory", q("8") } } });
    o.resourceSlices.push_back(s);
    o.deviceClasses.push_back(deviceClass(kGpuClass, { "device.driver == \"gpu.example.com\"" }));
    api::ResourceClaimTemplate t;
    t.meta.name = "one";
    t.meta.namespace_ = "default";
    t.spec.requests.push_back(exactRequest("gpu", requestSpec(kGpuClass)));
    o.resourceClaimTemplates.push_back(t);
    return o;
}

TEST(ClaimScoring, APartitionWhoseCountersASiblingTookIsNotFree)
{
    scheduler::SchedulerOptions options;
    options.claimTarget = gpushare::claimTargetOf({ { { { kGpuClass, 1 } }, 1 } });
    for (const auto& [order, freeAfter] : std::vector<std::pair<std::vector<std::string>, int64_t>> {
             { { "whole", "half-a", "half-b" }, 0 }, { { "half-a", "half-b", "whole" }, 1 } }) {
        scheduler::Cluster c(partitionedGpu(order), options);
        EXPECT_EQ(scheduler::claimFragmentation(c).at(kGpuClass).free, 3) << "nothing taken: each fits alone";
        ASSERT_TRUE(c.schedule(drasim::testing::pod("p", {}, { { "gpu", "one" } })).scheduled);
        EXPECT_EQ(scheduler::claimFragmentation(c).at(kGpuClass).free, freeAfter)
            << order.front() << " taken first";
    }
}

TEST(ClaimScoring, FgdScoresTheAlternativeAPodTakesOnEachNode)
{
    // Typical claims of two GPUs (whole devices, a target without alternatives). The pod asks for
    // "a NIC, else two GPUs". Node-0 (three GPUs, no NIC) serves it with two GPUs, stranding the
    // third (score 26); node-1 (three GPUs and a NIC) with the NIC, which changes no GPU (50).
    // Read as its first alternative only it would ask for no GPU anywhere and go to node-0 by name.
    using namespace drasim::testing;
    api::ObjectSet o;
    for (int n = 0; n < 2; ++n) {
        const std::string name = numbered("node-", n);
        o.nodes.push_back(node(name));
        o.resourceSlices.push_back(slice(name + "-gpus", kGpuDriver, name + "-gpus", name,
            { device("gpu-0"), device("gpu-1"), device("gpu-2") }));
        if (n == 1)
            o.resourceSlices.push_back(
                slice(name + "-nics", kNicDriver, name + "-nics", name, { device("nic-0") }));
    }
    o.deviceClasses.push_back(deviceClass(kGpuClass, { "device.driver == \"gpu.example.com\"" }));
    o.deviceClasses.push_back(deviceClass(kNicClass, { "device.driver == \"nic.example.com\"" }));
    api::ResourceClaimTemplate t;
    t.meta.name = "nic-else-gpus";
    t.meta.namespace_ = "default";
    api::DeviceRequest either;
    either.name = "either";
    either.firstAvailable.push_back({ "nic", requestSpec(kNicClass, 1) });
    either.firstAvailable.push_back({ "gpus", requestSpec(kGpuClass, 2) });
    t.spec.requests.push_back(either);
    o.resourceClaimTemplates.push_back(std::move(t));
    scheduler::SchedulerOptions options;
    options.scoring = scheduler::ScoringPolicy::Fgd;
    options.claimTarget
        = gpushare::claimTargetOf(std::map<DeviceCounts, int64_t> { { { { kGpuClass, 2 } }, 1 } });
    ASSERT_EQ(options.claimTarget->general, nullptr);
    scheduler::Cluster c(o, options);
    const auto r = c.schedule(pod("p", {}, { { "devices", "nic-else-gpus" } }));
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.nodeName, "node-1");
    // The next one finds no NIC left: two GPUs wherever, each node stranding one (26 both).
    const auto next = c.schedule(pod("q", {}, { { "devices", "nic-else-gpus" } }));
    ASSERT_TRUE(next.scheduled) << next.message;
    EXPECT_EQ(next.nodeName, "node-0");
    EXPECT_DOUBLE_EQ(scheduler::claimFragmentation(c).at(kGpuClass).fragment, 1.0);
}

} // namespace claim_scoring_test
