// SPDX-License-Identifier: Apache-2.0
// DeviceTaintRules in the scheduler's view of slices, and when NoExecute device taints evict
// bound pods (the device taint eviction controller's rules, tolerationSeconds included).
#include <gtest/gtest.h>

#include "core/api/device_taint_rules.h"
#include "core/scheduler/cluster.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;

namespace {

api::DeviceTaintRule rule(const std::string& name, std::optional<api::DeviceTaintSelector> sel,
    const std::string& effect = "NoSchedule", const std::string& key = "maintenance")
{
    api::DeviceTaintRule r;
    r.meta.name = name;
    r.deviceSelector = std::move(sel);
    r.taint.key = key;
    r.taint.effect = effect;
    return r;
}

api::DeviceToleration noExecute(
    const std::string& key, std::optional<int64_t> seconds, const std::string& effect = "NoExecute")
{
    api::DeviceToleration t;
    t.key = key;
    t.op = "Exists";
    t.effect = effect;
    t.tolerationSeconds = seconds;
    return t;
}

/// One node, `devices` GPUs, a class and a claim template whose request carries `tolerations`.
api::ObjectSet cluster(int devices, std::vector<api::DeviceToleration> tolerations = {})
{
    api::ObjectSet o;
    o.nodes.push_back(node("node-0"));
    std::vector<api::Device> devs;
    for (int d = 0; d < devices; ++d)
        devs.push_back(device(numbered("gpu-", d)));
    o.resourceSlices.push_back(slice("node-0-gpus", kDrv, "node-0", "node-0", devs));
    o.deviceClasses.push_back(deviceClass("gpu", { "device.driver == \"gpu.example.com\"" }));
    api::ResourceClaimTemplate t;
    t.meta.name = "one-gpu";
    t.meta.namespace_ = "default";
    auto spec = requestSpec("gpu");
    spec.tolerations = std::move(tolerations);
    t.spec.requests.push_back(exactRequest("gpu", spec));
    o.resourceClaimTemplates.push_back(t);
    return o;
}

api::Pod gpuPod(const std::string& name)
{
    return pod(name, {}, { { "gpu", "one-gpu" } });
}

} // namespace

TEST(DeviceTaintRules, SelectorFieldsMustAllMatch)
{
    api::ResourceSlice s = slice("s", kDrv, "pool-a", "node-0", { device("gpu-0"), device("gpu-1") });
    auto sel
        = [](std::optional<std::string> d, std::optional<std::string> p, std::optional<std::string> dev) {
              return api::DeviceTaintSelector { std::move(d), std::move(p), std::move(dev) };
          };
    const api::Device& g0 = s.devices[0];
    EXPECT_TRUE(api::taintRuleSelects(rule("r", sel({}, {}, {})), s, g0)) << "empty selector: every device";
    EXPECT_FALSE(api::taintRuleSelects(rule("r", std::nullopt), s, g0)) << "no selector: no device";
    EXPECT_TRUE(api::taintRuleSelects(rule("r", sel(kDrv, "pool-a", "gpu-0")), s, g0));
    EXPECT_FALSE(api::taintRuleSelects(rule("r", sel(kDrv, "pool-a", "gpu-1")), s, g0));
    EXPECT_FALSE(api::taintRuleSelects(rule("r", sel("nic.example.com", {}, {})), s, g0));
    EXPECT_FALSE(api::taintRuleSelects(rule("r", sel({}, "pool-b", {})), s, g0));
}

TEST(DeviceTaintRules, ApplyAppendsAfterOwnTaintsAndRemoveTakesOnlyTheRules)
{
    api::ResourceSlice s = slice("s", kDrv, "pool-a", "node-0", { device("gpu-0"), device("gpu-1") });
    s.devices[0].taints.push_back(api::DeviceTaint { "own", "", "NoSchedule", "" });
    api::applyTaintRules({ rule("b", api::DeviceTaintSelector {}, "NoExecute", "kb"),
                             rule("a", api::DeviceTaintSelector { {}, {}, "gpu-0" }, "NoSchedule", "ka") },
        s);
    ASSERT_EQ(s.devices[0].taints.size(), 3u);
    EXPECT_EQ(s.devices[0].taints[0].key, "own");
    EXPECT_EQ(s.devices[0].taints[1].rule, "a") << "rules apply in name order";
    EXPECT_EQ(s.devices[0].taints[2].rule, "b");
    ASSERT_EQ(s.devices[1].taints.size(), 1u);
    EXPECT_EQ(api::removeTaintRule("b", s), 2u);
    EXPECT_EQ(s.devices[0].taints.size(), 2u);
    EXPECT_EQ(api::removeTaintRule("a", s), 1u);
    ASSERT_EQ(s.devices[0].taints.size(), 1u);
    EXPECT_EQ(s.devices[0].taints[0].key, "own");
}

TEST(DeviceTaintRules, LoadedRulesKeepDevicesFromNewClaimsAndFollowNewSlices)
{
    api::ObjectSet o = cluster(1);
    o.deviceTaintRules.push_back(rule("drain", api::DeviceTaintSelector { kDrv, {}, {} }));
    Cluster c(o);
    auto r = c.schedule(gpuPod("p1"), true);
    EXPECT_FALSE(r.scheduled);
    ASSERT_TRUE(r.diagnosis);
    ASSERT_FALSE(r.diagnosis->nodes.empty());
    ASSERT_FALSE(r.diagnosis->nodes[0].claims.empty());
    EXPECT_EQ(r.diagnosis->nodes[0].claims[0].requests[0].firstRuleTaint,
        "DeviceTaintRule drain: maintenance:NoSchedule on gpu.example.com/node-0/gpu-0");
    // A node added later gets the rule's taint too (the rule selects the driver).
    c.addNode(node("node-1"), { slice("node-1-gpus", kDrv, "node-1", "node-1", { device("gpu-0") }) });
    EXPECT_FALSE(c.schedule(gpuPod("p2")).scheduled);
    EXPECT_TRUE(c.removeDeviceTaintRule("drain"));
    EXPECT_FALSE(c.removeDeviceTaintRule("drain"));
    EXPECT_TRUE(c.schedule(gpuPod("p3")).scheduled);
}

TEST(DeviceTaintRules, NoExecuteRuleEvictsUntoleratingPodsAtOnce)
{
    Cluster c(cluster(1));
    ASSERT_TRUE(c.schedule(gpuPod("p1")).scheduled);
    c.setTime(50);
    auto evict = c.addDeviceTaintRule(rule("evict", api::DeviceTaintSelector {}, "NoExecute"));
    EXPECT_EQ(evict, std::vector<std::string>({ "default/p1" }));
    EXPECT_EQ(c.deviceTaintEvictionTime("default/p1"), 50.0);
}

TEST(DeviceTaintEviction, TolerationSecondsCountFromWhenTheTaintAppeared)
{
    Cluster c(cluster(1, { noExecute("maintenance", 300) }));
    ASSERT_TRUE(c.schedule(gpuPod("p1")).scheduled);
    EXPECT_FALSE(c.deviceTaintEvictionTime("default/p1")) << "no taint yet";
    c.setTime(100);
    scheduler::DeviceRef ref { kDrv, "node-0", "gpu-0" };
    EXPECT_TRUE(c.setDeviceTaint(ref, api::DeviceTaint { "maintenance", "", "NoExecute", "" }).empty());
    EXPECT_EQ(c.deviceTaintEvictionTime("default/p1"), 400.0);
    // Setting the same key and effect again later keeps the time it appeared.
    c.setTime(200);
    EXPECT_TRUE(c.setDeviceTaint(ref, api::DeviceTaint { "maintenance", "v2", "NoExecute", "" }).empty());
    EXPECT_EQ(c.deviceTaintEvictionTime("default/p1"), 400.0);
    auto all = c.deviceTaintEvictions();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0], std::make_pair(std::string("default/p1"), 400.0));
    c.setTime(400);
    // At its deadline a new taint change reports the pod as due.
    EXPECT_EQ(c.setDeviceTaint(ref, api::DeviceTaint { "other", "", "NoSchedule", "" }).size(), 0u)
        << "only NoExecute changes report due pods";
    EXPECT_TRUE(c.removeDeviceTaint(ref, "maintenance"));
    EXPECT_FALSE(c.deviceTaintEvictionTime("default/p1")) << "the taint went away: no eviction";
}

TEST(DeviceTaintEviction, ToleranceRulesOfTheEvictionController)
{
    struct Case
    {
        const char* what;
        std::vector<api::DeviceToleration> tolerations;
        std::optional<double> expected; ///< taint appears at 10
    };
    const std::vector<Case> cases = {
        { "no toleration: at once", {}, 10.0 },
        { "tolerated for ever", { noExecute("maintenance", std::nullopt) }, std::nullopt },
        { "smallest tolerationSeconds wins", { noExecute("maintenance", 60), noExecute("", 30) }, 40.0 },
        { "negative counts as zero", { noExecute("maintenance", -5) }, 10.0 },
        { "for ever beats a deadline", { noExecute("maintenance", 30), noExecute("", std::nullopt) },
            std::nullopt },
        { "an effect-less toleration does not count", { noExecute("maintenance", std::nullopt, "") }, 10.0 },
        { "a toleration of another key does not count", { noExecute("other", std::nullopt) }, 10.0 },
    };
    for (const auto& k : cases) {
        // The effect-less toleration also lets the allocator pick the tainted device.
        Cluster c(cluster(1, k.tolerations));
        ASSERT_TRUE(c.schedule(gpuPod("p")).scheduled) << k.what;
        c.setTime(10);
        c.setDeviceTaint(
            { kDrv, "node-0", "gpu-0" }, api::DeviceTaint { "maintenance", "", "NoExecute", "" });
        EXPECT_EQ(c.deviceTaintEvictionTime("default/p"), k.expected) << k.what;
    }
}

TEST(DeviceTaintEviction, EarliestTaintDecides)
{
    Cluster c(cluster(1, { noExecute("slow", 100), noExecute("fast", 5) }));
    ASSERT_TRUE(c.schedule(gpuPod("p")).scheduled);
    c.setTime(10);
    c.setDeviceTaint({ kDrv, "node-0", "gpu-0" }, api::DeviceTaint { "slow", "", "NoExecute", "" });
    c.setTime(20);
    c.addDeviceTaintRule(rule("fast", api::DeviceTaintSelector {}, "NoExecute", "fast"));
    EXPECT_EQ(c.deviceTaintEvictionTime("default/p"), 25.0) << "min(10+100, 20+5)";
    EXPECT_TRUE(c.removeDeviceTaintRule("fast"));
    EXPECT_EQ(c.deviceTaintEvictionTime("default/p"), 110.0);
}
