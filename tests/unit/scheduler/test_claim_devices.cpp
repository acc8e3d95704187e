// SPDX-License-Identifier: Apache-2.0
// The general claim measure on the scheduler's cluster (claim_devices.cpp): MIG-like GPUs whose
// placements consume a counter set of eight memory slices (so a GPU's share is the fraction of its
// slices left), typical claims of 1g, 3g and 7g profiles. Exact values after each placement, and
// the fgd policy putting a second small instance on the GPU the first one already broke.
#include <gtest/gtest.h>

#include "core/gpushare/device_fragmentation.h"
#include "core/scheduler/claim_scoring.h"
#include "core/scheduler/cluster.h"
#include "tests/unit/allocator/fixtures.h"

namespace claim_devices_test {

using namespace drasim;
using namespace drasim::testing;

const char* const kMigDriver = "mig.example.com";
const std::string kMigClass = "mig";

struct Profile
{
    std::string name;
    int size;
    std::vector<int> starts;
};
const std::vector<Profile> kProfiles { { "1g", 1, { 0, 1, 2, 3, 4, 5, 6 } }, { "3g", 4, { 0, 4 } },
    { "7g", 8, { 0 } } };

std::string selectorOf(const std::string& profile)
{
    return "device.attributes[\"mig.example.com\"].profile == \"" + profile + "\"";
}

/// `nodes` nodes of one MIG GPU each, a class of MIG devices and one template per profile.
api::ObjectSet migCluster(int nodes)
{
    using namespace drasim::testing;
    api::ObjectSet o;
    for (int n = 0; n < nodes; ++n) {
        const std::string name = numbered("node-", n);
        o.nodes.push_back(node(name));
        api::CounterSet set;
        set.name = "gpu-0-counters";
        for (int i = 0; i < 8; ++i)
            set.counters["memory-slice-" + std::to_string(i)] = Quantity::fromInt(1);
        std::vector<api::Device> devices;
        for (const Profile& p : kProfiles)
            for (int start : p.starts) {
                api::Device d = device(
                    "gpu-0-" + p.name + "-" + std::to_string(start), { { "profile", strAttr(p.name) } });
                api::DeviceCounterConsumption use;
                use.counterSet = set.name;
                for (int i = start; i < start + p.size; ++i)
                    use.counters["memory-slice-" + std::to_string(i)] = Quantity::fromInt(1);
                d.consumesCounters.push_back(use);
                devices.push_back(std::move(d));
            }
        api::ResourceSlice s = slice(name + "-mig", kMigDriver, name + "-mig", name, devices);
        s.sharedCounters.push_back(set);
        o.resourceSlices.push_back(std::move(s));
    }
    o.deviceClasses.push_back(deviceClass(kMigClass, { "device.driver == \"mig.example.com\"" }));
    for (const Profile& p : kProfiles) {
        api::ResourceClaimTemplate t;
        t.meta.name = p.name;
        t.meta.namespace_ = "default";
        t.spec.requests.push_back(exactRequest("mig", requestSpec(kMigClass, 1, { selectorOf(p.name) })));
        o.resourceClaimTemplates.push_back(std::move(t));
    }
    return o;
}

/// Typical claims 1g (p .5), 3g (.3), 7g (.2).
std::shared_ptr<const gpushare::ClaimTarget> migTarget()
{
    std::map<gpushare::ClaimShape, int64_t> pods;
    const std::pair<const char*, int64_t> counts[] = { { "1g", 5 }, { "3g", 3 }, { "7g", 2 } };
    for (const auto& [profile, count] : counts)
        pods[{ { kMigClass, { selectorOf(profile) }, 1, {}, {}, -1 } }] = count;
    return gpushare::claimTargetOf(pods, 100);
}

TEST(ClaimDevices, TheMeasureReadsTheCountersThePlacementsLeft)
{
    scheduler::SchedulerOptions options;
    options.claimTarget = migTarget();
    ASSERT_NE(options.claimTarget->general, nullptr);
    scheduler::Cluster c(migCluster(1), options);
    auto f = scheduler::claimFragmentation(c);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_DOUBLE_EQ(f.at(kMigClass).fragment, 0.0) << "an untouched GPU holds every profile";
    EXPECT_DOUBLE_EQ(f.at(kMigClass).free, 1.0);

    // A 1g instance takes slice 0: 7/8 left, where no 7g fits any more (.2 x .875); the 3g still
    // fits at slice 4.
    ASSERT_TRUE(c.schedule(drasim::testing::pod("a", {}, { { "mig", "1g" } })).scheduled);
    f = scheduler::claimFragmentation(c);
    EXPECT_DOUBLE_EQ(f.at(kMigClass).free, 0.875);
    EXPECT_DOUBLE_EQ(f.at(kMigClass).fragment, 0.2 * 0.875);

    // A 3g instance takes slices 4-7: 3/8 left, too little for 3g and 7g.
    ASSERT_TRUE(c.schedule(drasim::testing::pod("b", {}, { { "mig", "3g" } })).scheduled);
    f = scheduler::claimFragmentation(c);
    EXPECT_DOUBLE_EQ(f.at(kMigClass).free, 0.375);
    EXPECT_DOUBLE_EQ(f.at(kMigClass).fragment, (0.3 + 0.2) * 0.375);

    // The GPU whole again once both finish.
    c.podFinished("default/a");
    c.podFinished("default/b");
    EXPECT_DOUBLE_EQ(scheduler::claimFragmentation(c).at(kMigClass).fragment, 0.0);
}

TEST(ClaimDevices, FgdPutsTheSecondSmallInstanceOnTheGpuTheFirstBroke)
{
    scheduler::SchedulerOptions options;
    options.scoring = scheduler::ScoringPolicy::Fgd;
    options.claimTarget = migTarget();
    scheduler::Cluster c(migCluster(3), options);
    // The first 1g breaks one GPU whatever the node (score 45 everywhere: the first by name).
    const auto first = c.schedule(drasim::testing::pod("a", {}, { { "mig", "1g" } }));
    ASSERT_TRUE(first.scheduled);
    EXPECT_EQ(first.nodeName, "node-0");
    // The second scores 50 there (F .175 -> .15) against 45 on an untouched GPU.
    const auto second = c.schedule(drasim::testing::pod("b", {}, { { "mig", "1g" } }));
    ASSERT_TRUE(second.scheduled);
    EXPECT_EQ(second.nodeName, "node-0");
    // A 7g goes where it fits, an untouched GPU, and scores the fragment it leaves (none).
    const auto big = c.schedule(drasim::testing::pod("c", {}, { { "mig", "7g" } }));
    ASSERT_TRUE(big.scheduled);
    EXPECT_NE(big.nodeName, "node-0");
    const auto f = scheduler::claimFragmentation(c);
    EXPECT_DOUBLE_EQ(f.at(kMigClass).free, 0.75 + 1.0);
    EXPECT_DOUBLE_EQ(f.at(kMigClass).fragment, 0.2 * 0.75);
}

TEST(ClaimDevices, AClaimIsReadRequestByRequest)
{
    using namespace drasim::testing;
    api::ResourceClaimSpec spec;
    spec.requests.push_back(exactRequest("gpu", requestSpec("gpu", 1, { "true" })));
    spec.requests.push_back(exactRequest("nic", requestSpec("nic", 2)));
    api::DeviceRequestSpec share = requestSpec("gpu");
    share.capacity.emplace().requests["memory"] = q("10Gi");
    spec.requests.push_back(exactRequest("share", share));
    api::DeviceRequestSpec all = requestSpec("gpu");
    all.allocationMode = "All";
    spec.requests.push_back(exactRequest("all", all));
    api::DeviceConstraint align;
    align.requests = { "gpu", "nic" };
    align.matchAttribute = "resource.kubernetes.io/pcieRoot";
    spec.constraints.push_back(align);
    gpushare::ClaimShape shape;
    int group = 4;
    scheduler::addClaimRequests(spec, shape, group);
    ASSERT_EQ(shape.size(), 3u) << "allocationMode All asks for nothing countable";
    EXPECT_EQ(group, 5);
    EXPECT_EQ(shape[0].selectors, std::vector<std::string> { "true" });
    EXPECT_EQ(shape[0].matchAttribute, "resource.kubernetes.io/pcieRoot");
    EXPECT_EQ(shape[0].alignGroup, 4);
    EXPECT_EQ(shape[1].count, 2);
    EXPECT_EQ(shape[1].alignGroup, 4);
    EXPECT_EQ(shape[2].capacityMilli.at("memory"), q("10Gi").milliValue());
    EXPECT_EQ(shape[2].alignGroup, -1);
}

/// A claim template of one request with alternatives: the profiles in order.
api::ResourceClaimTemplate profilesInOrder(const std::string& name, const std::vector<std::string>& profiles)
{
    api::ResourceClaimTemplate t;
    t.meta.name = name;
    t.meta.namespace_ = "default";
    api::DeviceRequest r;
    r.name = "mig";
    for (const std::string& profile : profiles)
        r.firstAvailable.push_back({ profile, requestSpec(kMigClass, 1, { selectorOf(profile) }) });
    t.spec.requests.push_back(std::move(r));
    return t;
}

TEST(ClaimDevices, FgdScoresAPodWithAlternativesAsTheOneItTakesOnEachNode)
{
    // Typical claims: 1g (p .5) and "7g, else 1g" (.5). Node-0's GPU lost slice 0 to a 1g, so
    // there the second typical claim takes a 1g and fits: nothing of it is fragment (read as its
    // first alternative, a 7g, it would fit nowhere on node-0 and strand all 7/8).
    scheduler::SchedulerOptions options;
    options.scoring = scheduler::ScoringPolicy::Fgd;
    std::map<gpushare::ClaimShape, int64_t> pods;
    pods[{ { kMigClass, { selectorOf("1g") }, 1, {}, {}, -1 } }] = 1;
    pods[{ { kMigClass, { selectorOf("7g") }, 1, {}, {}, -1, 0, 0 },
        { kMigClass, { selectorOf("1g") }, 1, {}, {}, -1, 0, 1 } }]
        = 1;
    options.claimTarget = gpushare::claimTargetOf(pods, 100);
    ASSERT_NE(options.claimTarget->general, nullptr);
    api::ObjectSet objects = migCluster(2);
    objects.resourceClaimTemplates.push_back(profilesInOrder("7g-else-1g", { "7g", "1g" }));
    scheduler::Cluster c(objects, options);
    ASSERT_TRUE(c.schedule(drasim::testing::pod("a", {}, { { "mig", "1g" } })).scheduled);
    auto f = scheduler::claimFragmentation(c);
    EXPECT_DOUBLE_EQ(f.at(kMigClass).free, 0.875 + 1.0);
    EXPECT_DOUBLE_EQ(f.at(kMigClass).fragment, 0.0);

    // The pod with alternatives: on node-0 it takes a 1g (F stays 0: score 50), on node-1 a 7g
    // (F stays 0: 50); the tie goes to node-0 by name. Read as its first alternative it would
    // score 0 on node-0, where a 7g does not fit, and go to node-1.
    const auto either = c.schedule(drasim::testing::pod("b", {}, { { "mig", "7g-else-1g" } }));
    ASSERT_TRUE(either.scheduled) << either.message;
    EXPECT_EQ(either.nodeName, "node-0");
    f = scheduler::claimFragmentation(c);
    EXPECT_DOUBLE_EQ(f.at(kMigClass).free, 0.75 + 1.0);
    EXPECT_DOUBLE_EQ(f.at(kMigClass).fragment, 0.0);
}

TEST(ClaimDevices, AFirstAvailableListIsReadAlternativeByAlternative)
{
    using namespace drasim::testing;
    api::ResourceClaimSpec spec;
    api::DeviceRequest gpus;
    gpus.name = "gpus";
    gpus.firstAvailable.push_back({ "large", requestSpec("gpu", 4, { "large" }) });
    api::DeviceRequestSpec all = requestSpec("gpu");
    all.allocationMode = "All";
    gpus.firstAvailable.push_back({ "all", all });
    gpus.firstAvailable.push_back({ "small", requestSpec("gpu", 8, { "small" }) });
    spec.requests.push_back(gpus);
    api::DeviceRequest one;
    one.name = "nic";
    one.firstAvailable.push_back({ "any", requestSpec("nic", 1) });
    spec.requests.push_back(one);
    api::DeviceConstraint align;
    align.requests = { "gpus/small", "nic" };
    align.matchAttribute = "resource.kubernetes.io/pcieRoot";
    spec.constraints.push_back(align);
    gpushare::ClaimShape shape;
    int group = 2;
    scheduler::addClaimRequests(spec, shape, group);
    ASSERT_EQ(shape.size(), 3u) << "allocationMode All is left out of its list";
    EXPECT_EQ(group, 4) << "one list with alternatives, one constraint";
    EXPECT_EQ(shape[0].count, 4);
    EXPECT_EQ(shape[0].firstAvailable, 2);
    EXPECT_EQ(shape[0].alternative, 0);
    EXPECT_EQ(shape[0].alignGroup, -1);
    EXPECT_EQ(shape[1].count, 8);
    EXPECT_EQ(shape[1].firstAvailable, 2);
    EXPECT_EQ(shape[1].alternative, 1);
    EXPECT_EQ(shape[1].alignGroup, 3);
    // A list of one is the request itself.
    EXPECT_EQ(shape[2].firstAvailable, -1);
    EXPECT_EQ(shape[2].alignGroup, 3);
    api::ResourceClaimSpec exact;
    exact.requests.push_back(exactRequest("nic", requestSpec("nic", 1)));
    gpushare::ClaimShape plain;
    int unused = 0;
    scheduler::addClaimRequests(exact, plain, unused);
    shape[2].alignGroup = -1;
    shape[2].matchAttribute.clear();
    EXPECT_EQ(plain, gpushare::ClaimShape { shape[2] });
}

} // namespace claim_devices_test
