// SPDX-License-Identifier: Apache-2.0
// Feature semantics: constraints, counters, capacity, taints, admin access, config, node selectors.
#include <gtest/gtest.h>

#include "tests/unit/allocator/harness.h"

using namespace drasim;
using namespace drasim::testing;
using allocator::AttemptStatus;
using V = std::vector<std::string>;

namespace {

api::DeviceConstraint matchAttr(std::string attr, std::vector<std::string> reqs = {})
{
    api::DeviceConstraint c;
    c.matchAttribute = std::move(attr);
    c.requests = std::move(reqs);
    return c;
}

} // namespace

TEST(AllocatorFeatures, MatchAttributeAcrossRequests)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu", { "device.driver == \"gpu.example.com\"" }));
    h.addClass(deviceClass("nic", { "device.driver == \"nic.example.com\"" }));
    h.addSlice(slice("g", kDrv, "gpus", "node-1",
        { device("gpu-0", { { "resource.kubernetes.io/pcieRoot", strAttr("pci0") } }),
            device("gpu-1", { { "resource.kubernetes.io/pcieRoot", strAttr("pci1") } }) }));
    h.addSlice(slice("n", "nic.example.com", "nics", "node-1",
        { device("nic-1", { { "resource.kubernetes.io/pcieRoot", strAttr("pci1") } }) }));
    auto c = claim("c", { exactRequest("gpu", requestSpec("gpu")), exactRequest("nic", requestSpec("nic")) });
    c.spec.constraints.push_back(matchAttr("resource.kubernetes.io/pcieRoot"));
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ c }, &res).status, AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "gpu:gpus/gpu-1", "nic:nics/nic-1" }));
}

TEST(AllocatorFeatures, MatchAttributeBareNameUsesDriverDomain)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    h.addSlice(slice("g", kDrv, "p", "node-1",
        { device("a", { { "model", strAttr("x") } }), device("b", { { "model", strAttr("y") } }),
            device("c", { { "model", strAttr("x") } }) }));
    auto c = claim("c", { exactRequest("r", requestSpec("gpu", 2)) });
    c.spec.constraints.push_back(matchAttr("gpu.example.com/model"));
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ c }, &res).status, AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "r:p/a", "r:p/c" }));
    // Another domain does not resolve bare names: no device has the attribute.
    c.spec.constraints[0].matchAttribute = "other.example.com/model";
    EXPECT_EQ(h.run({ c }).status, AttemptStatus::NoSolution);
}

TEST(AllocatorFeatures, DistinctAttribute)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    h.addSlice(slice("g", kDrv, "p", "node-1",
        { device("a", { { "numa", intAttr(0) } }), device("b", { { "numa", intAttr(0) } }),
            device("c", { { "numa", intAttr(1) } }) }));
    auto c = claim("c", { exactRequest("x", requestSpec("gpu")), exactRequest("y", requestSpec("gpu")) });
    api::DeviceConstraint d;
    d.distinctAttribute = "gpu.example.com/numa";
    c.spec.constraints.push_back(d);
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ c }, &res).status, AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "x:p/a", "y:p/c" }));
    // Without DRAConsumableCapacity (1.35) the allocator knows matchAttribute only.
    h.options.consumableCapacity = false;
    auto a = h.run({ c });
    ASSERT_EQ(a.status, AttemptStatus::Error);
    EXPECT_EQ(a.error, "claim default/c, constraint #0: empty constraint (unsupported constraint type?)");
    c.spec.constraints[0].matchAttribute = "gpu.example.com/numa"; // matchAttribute wins, as upstream
    ASSERT_EQ(h.run({ c }, &res).status, AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "x:p/a", "y:p/b" }));
}

TEST(AllocatorFeatures, AllModeConstraintViolationIsAnError)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    h.addSlice(slice("g", kDrv, "p", "node-1",
        { device("a", { { "model", strAttr("x") } }), device("b", { { "model", strAttr("y") } }) }));
    auto all = requestSpec("gpu");
    all.allocationMode = "All";
    auto c = claim("c", { exactRequest("r", all) });
    c.spec.constraints.push_back(matchAttr("gpu.example.com/model"));
    auto a = h.run({ c });
    ASSERT_EQ(a.status, AttemptStatus::Error);
    EXPECT_EQ(a.error,
        "claim default/c, request r: cannot add device gpu.example.com/p/b because a claim constraint would "
        "not be satisfied");
}

TEST(AllocatorFeatures, PrioritizedListWithCounters)
{
    // Walk-through 2: counter 8Gi, partitions 4/6/4; a takes 4, b falls back to the second 4.
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    auto counters = slice("counters", kDrv, "p", "node-1", {});
    counters.sharedCounters.push_back(api::CounterSet { "mem", { { "memory", q("8Gi") } } });
    auto part = [](std::string name, std::string mem) {
        auto d = device(std::move(name), {}, { { "memory", mem } });
        d.consumesCounters.push_back(api::DeviceCounterConsumption { "mem", { { "memory", q(mem) } }, {} });
        return d;
    };
    auto devs
        = slice("devs", kDrv, "p", "node-1", { part("p4a", "4Gi"), part("p6", "6Gi"), part("p4b", "4Gi") });
    counters.pool.resourceSliceCount = devs.pool.resourceSliceCount = 2;
    h.addSlice(counters);
    h.addSlice(devs);
    const std::string big = "device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"6Gi\")) >= 0";
    const std::string small = "device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"4Gi\")) == 0";
    api::DeviceRequest b;
    b.name = "b";
    b.firstAvailable.push_back(api::DeviceSubRequest { "big", requestSpec("gpu", 1, { big }) });
    b.firstAvailable.push_back(api::DeviceSubRequest { "small", requestSpec("gpu", 1, { small }) });
    std::vector<api::AllocationResult> res;
    auto a = h.run({ claim("c", { exactRequest("a", requestSpec("gpu", 1, { small })), b }) }, &res);
    ASSERT_EQ(a.status, AttemptStatus::Success) << a.error;
    EXPECT_EQ(summary(res[0]), V({ "a:p/p4a", "b/small:p/p4b" }));
}

TEST(AllocatorFeatures, CountersOfAllocatedDevicesAreCharged)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    auto s = slice("s", kDrv, "p", "node-1", {});
    s.sharedCounters.push_back(api::CounterSet { "c", { { "slots", q("2") } } });
    auto d = [](std::string n) {
        auto x = device(std::move(n));
        x.consumesCounters.push_back(api::DeviceCounterConsumption { "c", { { "slots", q("1") } }, {} });
        return x;
    };
    auto devs = slice("t", kDrv, "p", "node-1", { d("a"), d("b"), d("c") });
    s.pool.resourceSliceCount = devs.pool.resourceSliceCount = 2;
    h.addSlice(s);
    h.addSlice(devs);
    h.allocated(kDrv, "p", "a");
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ claim("c", { exactRequest("r", requestSpec("gpu")) }) }, &res).status,
        AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "r:p/b" }));
    EXPECT_EQ(h.run({ claim("c", { exactRequest("r", requestSpec("gpu", 2)) }) }).status,
        AttemptStatus::NoSolution);
}

TEST(AllocatorFeatures, UnknownCounterSetMakesPoolInvalid)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    auto x = device("a");
    x.consumesCounters.push_back(api::DeviceCounterConsumption { "missing", { { "slots", q("1") } }, {} });
    h.addSlice(slice("t", kDrv, "p", "node-1", { x }));
    EXPECT_EQ(
        h.run({ claim("c", { exactRequest("r", requestSpec("gpu")) }) }).status, AttemptStatus::InvalidPools);
}

TEST(AllocatorFeatures, TaintsNeedTolerations)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    auto t = device("tainted");
    t.taints.push_back(api::DeviceTaint { "maintenance", "true", "NoSchedule", "" });
    auto n = device("none-effect");
    n.taints.push_back(api::DeviceTaint { "info", "", "None", "" });
    h.addSlice(slice("s", kDrv, "p", "node-1", { t, n }));
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ claim("c", { exactRequest("r", requestSpec("gpu")) }) }, &res).status,
        AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "r:p/none-effect" }));
    auto spec = requestSpec("gpu");
    spec.tolerations.push_back(
        api::DeviceToleration { "maintenance", "Exists", "", "NoSchedule", std::nullopt });
    ASSERT_EQ(h.run({ claim("c", { exactRequest("r", spec) }) }, &res).status, AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "r:p/tainted" }));
    ASSERT_EQ(res[0].results[0].tolerations.size(), 1u);
    EXPECT_EQ(res[0].results[0].tolerations[0].key, "maintenance");
}

TEST(AllocatorFeatures, ConsumableCapacitySharesAndRounding)
{
    // Walk-through 5: bandwidth 4, default 2, range 2..4 step 2.
    AllocHarness h;
    h.addClass(deviceClass("nic"));
    auto d = device("nic-0", {}, { { "bandwidth", "4" } });
    d.allowMultipleAllocations = true;
    api::CapacityRequestPolicy pol;
    pol.defaultValue = q("2");
    pol.validRange = api::CapacityRequestPolicyRange { q("2"), q("4"), q("2") };
    d.capacity["bandwidth"].requestPolicy = pol;
    h.addSlice(slice("s", "nic.example.com", "p", "node-1", { d }));
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ claim("c1", { exactRequest("r", requestSpec("nic")) }),
                        claim("c2", { exactRequest("r", requestSpec("nic")) }) },
                   &res)
                  .status,
        AttemptStatus::Success);
    ASSERT_TRUE(res[0].results[0].shareID);
    EXPECT_EQ(*res[0].results[0].shareID, "share-1");
    EXPECT_EQ(*res[1].results[0].shareID, "share-2");
    EXPECT_EQ(res[0].results[0].consumedCapacity.at("bandwidth").toString(), "2");
    h.state.apply(res[0], +1);
    h.state.apply(res[1], +1);
    EXPECT_EQ(
        h.run({ claim("c3", { exactRequest("r", requestSpec("nic")) }) }).status, AttemptStatus::NoSolution);
    h.state.apply(res[1], -1);
    auto spec = requestSpec("nic");
    spec.capacity = api::CapacityRequirements { { { "bandwidth", q("1") } } };
    ASSERT_EQ(h.run({ claim("c3", { exactRequest("r", spec) }) }, &res).status, AttemptStatus::Success);
    EXPECT_EQ(res[0].results[0].consumedCapacity.at("bandwidth").toString(), "2");
    spec.capacity = api::CapacityRequirements { { { "bandwidth", q("3") } } };
    EXPECT_EQ(h.run({ claim("c4", { exactRequest("r", spec) }) }).status, AttemptStatus::NoSolution)
        << "3 rounds up to 4, and 2 of 4 are in use";
}

TEST(AllocatorFeatures, CapacityRequestForUnknownCapacitySkipsDevice)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    h.addSlice(slice("s", kDrv, "p", "node-1", { device("a"), device("b", {}, { { "memory", "8Gi" } }) }));
    auto spec = requestSpec("gpu");
    spec.capacity = api::CapacityRequirements { { { "memory", q("4Gi") } } };
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ claim("c", { exactRequest("r", spec) }) }, &res).status, AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "r:p/b" }));
    EXPECT_FALSE(res[0].results[0].shareID) << "dedicated devices get no shareID";
    EXPECT_TRUE(res[0].results[0].consumedCapacity.empty());
}

TEST(AllocatorFeatures, AdminAccessIgnoresOtherClaimsButNotItself)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    h.addSlice(slice("s", kDrv, "p", "node-1", { device("a") }));
    h.allocated(kDrv, "p", "a");
    auto spec = requestSpec("gpu");
    spec.adminAccess = true;
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ claim("c", { exactRequest("r", spec) }) }, &res).status, AttemptStatus::Success);
    ASSERT_TRUE(res[0].results[0].adminAccess);
    EXPECT_TRUE(*res[0].results[0].adminAccess);
    spec.count = 2;
    EXPECT_EQ(h.run({ claim("c", { exactRequest("r", spec) }) }).status, AttemptStatus::NoSolution);
}

TEST(AllocatorFeatures, ConfigFromClassAndClaim)
{
    AllocHarness h;
    h.options.version = api::KubernetesVersion::V1_36; // every entry names its requests
    auto cls = deviceClass("gpu");
    cls.config.push_back(api::OpaqueDeviceConfiguration { kDrv, DataValue("class-params") });
    h.addClass(cls);
    h.addSlice(slice("s", kDrv, "p", "node-1", { device("a"), device("b") }));
    auto c = claim("c", { exactRequest("x", requestSpec("gpu")), exactRequest("y", requestSpec("gpu")) });
    c.spec.config.push_back(api::DeviceClaimConfiguration { {}, { kDrv, DataValue("all") } });
    c.spec.config.push_back(api::DeviceClaimConfiguration { { "y" }, { kDrv, DataValue("only-y") } });
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ c }, &res).status, AttemptStatus::Success);
    const auto& cfg = res[0].config;
    ASSERT_EQ(cfg.size(), 3u);
    EXPECT_EQ(cfg[0].source, "FromClass");
    EXPECT_EQ(cfg[0].requests, V({ "x", "y" }));
    EXPECT_EQ(cfg[1].source, "FromClaim");
    EXPECT_TRUE(cfg[1].requests.empty());
    EXPECT_EQ(cfg[2].requests, V({ "y" }));
    EXPECT_EQ(cfg[2].opaque.parameters.asString(), "only-y");

    // 1.37: the class entry covers both requests and so names none.
    h.options.version = api::KubernetesVersion::V1_37;
    ASSERT_EQ(h.run({ c }, &res).status, AttemptStatus::Success);
    ASSERT_EQ(res[0].config.size(), 3u);
    EXPECT_TRUE(res[0].config[0].requests.empty());
    EXPECT_EQ(res[0].config[2].requests, V({ "y" }));
}

TEST(AllocatorFeatures, AllocationNodeSelector)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    h.theNode = node("node-1", { { "rack", "r1" } });
    auto net = slice("net", kDrv, "net", "", { device("n0") });
    net.allNodes.reset();
    net.nodeSelector = api::NodeSelector { { api::NodeSelectorTerm { { { "rack", "In", { "r1" } } }, {} } } };
    h.addSlice(net);
    h.addSlice(slice("all", kDrv, "any", "", { device("g0") }));
    std::vector<api::AllocationResult> res;
    // Pool "any" sorts first, allNodes: no selector at all.
    ASSERT_EQ(h.run({ claim("c", { exactRequest("r", requestSpec("gpu")) }) }, &res).status,
        AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "r:any/g0" }));
    EXPECT_FALSE(res[0].nodeSelector);
    ASSERT_EQ(h.run({ claim("c", { exactRequest("r", requestSpec("gpu", 2)) }) }, &res).status,
        AttemptStatus::Success);
    ASSERT_TRUE(res[0].nodeSelector);
    ASSERT_EQ(res[0].nodeSelector->terms.size(), 1u);
    EXPECT_EQ(res[0].nodeSelector->terms[0].matchExpressions.size(), 1u);
    h.addSlice(slice("local", kDrv, "local", "node-1", { device("l0") }));
    ASSERT_EQ(h.run({ claim("c", { exactRequest("r", requestSpec("gpu", 3)) }) }, &res).status,
        AttemptStatus::Success);
    ASSERT_TRUE(res[0].nodeSelector);
    EXPECT_EQ(res[0].nodeSelector->terms[0].matchFields[0].key, "metadata.name");
    EXPECT_EQ(res[0].nodeSelector->terms[0].matchFields[0].values, V({ "node-1" }));
}

TEST(AllocatorFeatures, PerDeviceNodeSelection)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    auto s = slice("s", kDrv, "p", "", {});
    s.allNodes.reset();
    s.perDeviceNodeSelection = true;
    auto other = device("other");
    other.nodeName = "node-2";
    auto mine = device("mine");
    mine.nodeName = "node-1";
    s.devices = { other, mine };
    h.addSlice(s);
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ claim("c", { exactRequest("r", requestSpec("gpu")) }) }, &res).status,
        AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "r:p/mine" }));
}
