// SPDX-License-Identifier: Apache-2.0
// The search itself: visit order, backtracking, firstAvailable, limits, failure kinds.
#include <gtest/gtest.h>

#include "tests/unit/allocator/harness.h"

using namespace drasim;
using namespace drasim::testing;
using allocator::AttemptStatus;
using V = std::vector<std::string>;

namespace {

AllocHarness basic(std::vector<api::Device> devices, const std::string& pool = "pool-a")
{
    AllocHarness h;
    h.addClass(deviceClass("gpu", { "device.driver == \"gpu.example.com\"" }));
    h.addSlice(slice("slice-" + pool, kDrv, pool, "node-1", std::move(devices)));
    return h;
}

} // namespace

TEST(AllocatorSearch, PicksFirstFreeDeviceInListOrder)
{
    auto h = basic({ device("gpu-0"), device("gpu-1") });
    std::vector<api::AllocationResult> res;
    auto a = h.run({ claim("c", { exactRequest("r", requestSpec("gpu")) }) }, &res);
    ASSERT_EQ(a.status, AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "r:pool-a/gpu-0" }));
}

TEST(AllocatorSearch, DedicatedDevicesInUseAreSkipped)
{
    auto h = basic({ device("gpu-0"), device("gpu-1") });
    h.allocated(kDrv, "pool-a", "gpu-0");
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ claim("c", { exactRequest("r", requestSpec("gpu")) }) }, &res).status,
        AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "r:pool-a/gpu-1" }));
    h.allocated(kDrv, "pool-a", "gpu-1");
    EXPECT_EQ(
        h.run({ claim("c", { exactRequest("r", requestSpec("gpu")) }) }).status, AttemptStatus::NoSolution);
}

TEST(AllocatorSearch, PoolsVisitedByNameNotListingOrder)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    h.addSlice(slice("s1", kDrv, "pool-b", "node-1", { device("b-0") }));
    h.addSlice(slice("s2", kDrv, "pool-a", "node-1", { device("a-0") }));
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ claim("c", { exactRequest("r", requestSpec("gpu")) }) }, &res).status,
        AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "r:pool-a/a-0" }));
}

TEST(AllocatorSearch, SlicesOfAPoolVisitedByName)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    auto s1 = slice("slice-z", kDrv, "pool", "node-1", { device("z-0") });
    auto s2 = slice("slice-a", kDrv, "pool", "node-1", { device("a-0") });
    s1.pool.resourceSliceCount = s2.pool.resourceSliceCount = 2;
    h.addSlice(s1);
    h.addSlice(s2);
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ claim("c", { exactRequest("r", requestSpec("gpu")) }) }, &res).status,
        AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "r:pool/a-0" }));
}

TEST(AllocatorSearch, BindingConditionPoolsComeLast)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    auto d = device("a-0");
    d.bindingConditions = { "ready" };
    d.bindingFailureConditions = { "failed" };
    h.addSlice(slice("s1", kDrv, "pool-a", "node-1", { d }));
    h.addSlice(slice("s2", kDrv, "pool-b", "node-1", { device("b-0") }));
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ claim("c", { exactRequest("r", requestSpec("gpu")) }) }, &res).status,
        AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "r:pool-b/b-0" }));
    EXPECT_FALSE(res[0].allocationTimestamp.size());
}

TEST(AllocatorSearch, BacktracksAcrossRequests)
{
    // Walk-through 1: "small" first takes the large device, "large" then finds nothing.
    auto h = basic({ device("gpu-large", {}, { { "memory", "2Gi" } }),
        device("gpu-small", {}, { { "memory", "1Gi" } }) });
    std::string sel1 = "device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"1Gi\")) >= 0";
    std::string sel2 = "device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"2Gi\")) >= 0";
    std::vector<api::AllocationResult> res;
    auto a = h.run({ claim("c",
                       { exactRequest("small", requestSpec("gpu", 1, { sel1 })),
                           exactRequest("large", requestSpec("gpu", 1, { sel2 })) }) },
        &res);
    ASSERT_EQ(a.status, AttemptStatus::Success) << a.error;
    EXPECT_EQ(summary(res[0]), V({ "small:pool-a/gpu-small", "large:pool-a/gpu-large" }));
}

TEST(AllocatorSearch, ResultsOrderedByClaimThenRequest)
{
    auto h = basic({ device("d0"), device("d1"), device("d2") });
    std::vector<api::AllocationResult> res;
    auto a = h.run({ claim("c1", { exactRequest("a", requestSpec("gpu")) }),
                       claim("c2", { exactRequest("b", requestSpec("gpu", 2)) }) },
        &res);
    ASSERT_EQ(a.status, AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "a:pool-a/d0" }));
    EXPECT_EQ(summary(res[1]), V({ "b:pool-a/d1", "b:pool-a/d2" }));
}

TEST(AllocatorSearch, FirstAvailableFallsBackAndScores)
{
    auto h = basic({ device("small", { { "size", intAttr(1) } }) });
    api::DeviceRequest r;
    r.name = "gpu";
    r.firstAvailable.push_back(api::DeviceSubRequest {
        "big", requestSpec("gpu", 1, { "device.attributes[\"gpu.example.com\"].size > 1" }) });
    r.firstAvailable.push_back(api::DeviceSubRequest { "any", requestSpec("gpu") });
    std::vector<api::AllocationResult> res;
    auto a = h.run({ claim("c", { r }) }, &res);
    ASSERT_EQ(a.status, AttemptStatus::Success) << a.error;
    EXPECT_EQ(summary(res[0]), V({ "gpu/any:pool-a/small" }));
    EXPECT_EQ(a.plistScore, 7);
}

TEST(AllocatorSearch, SubrequestOverResultLimitIsSkipped)
{
    // Walk-through 3.
    std::vector<api::Device> devs;
    for (int i = 0; i < 40; ++i)
        devs.push_back(device(numbered("d", i)));
    auto h = basic(devs);
    const auto r = alternativesRequest(
        "gpu", { { "many", requestSpec("gpu", 40) }, { "one", requestSpec("gpu", 1) } });
    std::vector<api::AllocationResult> res;
    auto a = h.run({ claim("c", { r }) }, &res);
    ASSERT_EQ(a.status, AttemptStatus::Success) << a.error;
    EXPECT_EQ(summary(res[0]), V({ "gpu/one:pool-a/d0" }));
    EXPECT_LT(a.steps, 5u) << "the 40-device alternative must be skipped without visiting devices";
}

TEST(AllocatorSearch, ClaimOverLimitIsAnError)
{
    auto h = basic({ device("d0") });
    auto a = h.run({ claim("c", { exactRequest("r", requestSpec("gpu", 33)) }) });
    ASSERT_EQ(a.status, AttemptStatus::Error);
    EXPECT_EQ(a.error, "claim default/c: number of requested devices 33 exceeds the claim limit of 32");
}

TEST(AllocatorSearch, CelRuntimeErrorAbortsWhenReached)
{
    auto h = basic({ device("d0"), device("d1", { { "model", strAttr("a100") } }) });
    auto a = h.run({ claim("c",
        { exactRequest(
            "r", requestSpec("gpu", 1, { "device.attributes[\"gpu.example.com\"].model == \"a100\"" })) }) });
    ASSERT_EQ(a.status, AttemptStatus::Error);
    EXPECT_EQ(a.error.rfind("claim default/c: selector #0: CEL runtime error: ", 0), 0u) << a.error;
    EXPECT_NE(a.error.find("model"), std::string::npos) << a.error;
}

TEST(AllocatorSearch, CelErrorOnUnvisitedDeviceIsHarmless)
{
    auto h = basic({ device("d1", { { "model", strAttr("a100") } }), device("d0") });
    std::vector<api::AllocationResult> res;
    auto a = h.run(
        { claim("c",
            { exactRequest("r",
                requestSpec("gpu", 1, { "device.attributes[\"gpu.example.com\"].model == \"a100\"" })) }) },
        &res);
    ASSERT_EQ(a.status, AttemptStatus::Success) << a.error;
    EXPECT_EQ(summary(res[0]), V({ "r:pool-a/d1" }));
}

TEST(AllocatorSearch, ClassSelectorErrorNamesTheClass)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu", { "device.attributes[\"gpu.example.com\"].model == \"x\"" }));
    h.addSlice(slice("s", kDrv, "p", "node-1", { device("d0") }));
    auto a = h.run({ claim("c", { exactRequest("r", requestSpec("gpu")) }) });
    ASSERT_EQ(a.status, AttemptStatus::Error);
    EXPECT_EQ(a.error.rfind("class gpu: selector #0: CEL runtime error: ", 0), 0u) << a.error;
}

TEST(AllocatorSearch, MissingClassIsAPrepareError)
{
    auto h = basic({ device("d0") });
    std::string err;
    h.run({ claim("c", { exactRequest("r", requestSpec("nope")) }) }, nullptr, &err);
    EXPECT_EQ(err,
        "claim default/c, request r: could not retrieve device class nope: deviceclass.resource.k8s.io "
        "\"nope\" not found");
}

TEST(AllocatorSearch, InvalidPoolReportedOnlyWithoutSolution)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    h.addSlice(slice("s1", kDrv, "bad", "node-1", { device("dup"), device("dup") }));
    EXPECT_EQ(
        h.run({ claim("c", { exactRequest("r", requestSpec("gpu")) }) }).status, AttemptStatus::InvalidPools);
    h.addSlice(slice("s2", kDrv, "good", "node-1", { device("ok") }));
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ claim("c", { exactRequest("r", requestSpec("gpu")) }) }, &res).status,
        AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "r:good/ok" }));
}

TEST(AllocatorSearch, IncompletePoolSkippedByExactCountRejectedByAll)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    auto s = slice("s1", kDrv, "pool", "node-1", { device("d0") });
    s.pool.resourceSliceCount = 2;
    h.addSlice(s);
    EXPECT_EQ(
        h.run({ claim("c", { exactRequest("r", requestSpec("gpu")) }) }).status, AttemptStatus::NoSolution);
    auto all = requestSpec("gpu");
    all.allocationMode = "All";
    auto a = h.run({ claim("c", { exactRequest("r", all) }) });
    ASSERT_EQ(a.status, AttemptStatus::Error);
    EXPECT_EQ(a.error,
        "claim default/c, request r: asks for all devices, but resource pool gpu.example.com/pool is "
        "currently being updated");
}

TEST(AllocatorSearch, ObsoleteGenerationIsIgnored)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    auto old = slice("s-old", kDrv, "pool", "node-1", { device("old-0") });
    old.pool.generation = 1;
    auto fresh = slice("s-new", kDrv, "pool", "node-1", { device("new-0") });
    fresh.pool.generation = 2;
    h.addSlice(old);
    h.addSlice(fresh);
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ claim("c", { exactRequest("r", requestSpec("gpu")) }) }, &res).status,
        AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "r:pool/new-0" }));
}

TEST(AllocatorSearch, AllModeTakesEverythingAndFailsOnInUse)
{
    auto h = basic({ device("d0"), device("d1") });
    auto all = requestSpec("gpu");
    all.allocationMode = "All";
    std::vector<api::AllocationResult> res;
    ASSERT_EQ(h.run({ claim("c", { exactRequest("r", all) }) }, &res).status, AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), V({ "r:pool-a/d0", "r:pool-a/d1" }));
    // Walk-through 4.
    h.allocated(kDrv, "pool-a", "d1");
    EXPECT_EQ(h.run({ claim("c", { exactRequest("r", all) }) }).status, AttemptStatus::NoSolution);
    all.adminAccess = true;
    EXPECT_EQ(h.run({ claim("c", { exactRequest("r", all) }) }).status, AttemptStatus::Success);
}

TEST(AllocatorSearch, StepBudgetBoundsPathologicalSearch)
{
    // Ten devices, a request for 5 with a distinct constraint on an attribute only 4 values wide:
    // no solution, and the search must try many combinations before it knows.
    std::vector<api::Device> devs;
    for (int i = 0; i < 24; ++i)
        devs.push_back(device(numbered("d", i), { { "gpu.example.com/numa", intAttr(i % 4) } }));
    auto h = basic(devs);
    h.options.stepBudget = 5000;
    auto c = claim("c", {});
    for (int i = 0; i < 5; ++i)
        c.spec.requests.push_back(exactRequest(numbered("r", i), requestSpec("gpu")));
    api::DeviceConstraint con;
    con.distinctAttribute = "gpu.example.com/numa";
    c.spec.constraints.push_back(con);
    auto a = h.run({ c });
    EXPECT_EQ(a.status, AttemptStatus::Timeout);
    EXPECT_EQ(a.steps, 5001u);
    h.options.stepBudget = 100'000'000;
    a = h.run({ c });
    EXPECT_EQ(a.status, AttemptStatus::NoSolution);
    EXPECT_GT(a.steps, 5000u);
}
