// SPDX-License-Identifier: Apache-2.0
// Derived attributes in the search (DRADerivedAttributes): a derived copy of a driver attribute
// decides like the attribute itself, a failing expression stops the attempt, and the allocation
// trace names the derived value a constraint compared.
#include <random>

#include <gtest/gtest.h>

#include "tests/unit/allocator/harness.h"

using namespace drasim;
using namespace drasim::testing;
using allocator::AttemptStatus;

namespace {

api::DeviceConstraint constraint(bool match, std::string attr)
{
    api::DeviceConstraint c;
    (match ? c.matchAttribute : c.distinctAttribute) = std::move(attr);
    return c;
}

api::DeviceRequestSpec derivedSpec(int64_t count, std::string name, std::string expression, bool all = false)
{
    auto s = requestSpec("gpu", count);
    if (all) {
        s.allocationMode = "All";
        s.count = 0;
    }
    s.derivedAttributes.push_back(api::DeviceDerivedAttribute { std::move(name), std::move(expression), {} });
    return s;
}

struct Collect : allocator::AllocationObserver
{
    std::vector<allocator::TraceEvent> events;
    void onTrace(const allocator::TraceEvent& e) override { events.push_back(e); }
};

} // namespace

// Law: deriving `derived/numa` as the device's own numa attribute picks exactly what a constraint
// on the driver attribute picks, over random devices, counts and constraint kinds.
TEST(AllocatorDerived, ACopyOfADriverAttributeDecidesLikeIt)
{
    std::mt19937 rng(6080);
    for (int round = 0; round < 300; ++round) {
        AllocHarness h;
        h.addClass(deviceClass("gpu"));
        std::vector<api::Device> devices;
        const int n = 1 + int(rng() % 6);
        for (int i = 0; i < n; ++i)
            devices.push_back(device("d" + std::to_string(i), { { "numa", intAttr(int64_t(rng() % 3)) } }));
        h.addSlice(slice("s", kDrv, "p", "node-1", devices));
        const int64_t count = 1 + int64_t(rng() % 3);
        const bool match = rng() % 2;
        auto plain = claim("c", { exactRequest("r", requestSpec("gpu", count)) });
        plain.spec.constraints.push_back(constraint(match, "gpu.example.com/numa"));
        auto derived = claim("c",
            { exactRequest(
                "r", derivedSpec(count, "derived/numa", "device.attributes[\"gpu.example.com\"].numa")) });
        derived.spec.constraints.push_back(constraint(match, "derived/numa"));
        std::vector<api::AllocationResult> a, b;
        const auto ra = h.run({ plain }, &a).status;
        const auto rb = h.run({ derived }, &b).status;
        ASSERT_EQ(ra, rb) << "round " << round;
        if (ra == AttemptStatus::Success) {
            EXPECT_EQ(summary(a[0]), summary(b[0])) << "round " << round;
        }
    }
}

TEST(AllocatorDerived, AFailingExpressionStopsTheAttemptInEitherMode)
{
    for (const bool all : { false, true }) {
        AllocHarness h;
        h.addClass(deviceClass("gpu"));
        h.addSlice(slice("s", kDrv, "p", "node-1",
            { device("a", { { "id", strAttr("a") } }), device("b", { { "numa", intAttr(1) } }) }));
        auto c = claim("c",
            { exactRequest(
                "r", derivedSpec(1, "derived/numa", "device.attributes[\"gpu.example.com\"].numa", all)) });
        c.spec.constraints.push_back(constraint(true, "derived/numa"));
        const auto a = h.run({ c });
        EXPECT_EQ(a.status, AttemptStatus::Error) << all;
        EXPECT_EQ(a.error,
            "claim default/c, request r, derived attribute derived/numa, device gpu.example.com/p/a: CEL "
            "runtime "
            "error: no such key: numa")
            << all;
    }
}

TEST(AllocatorDerived, TheTraceNamesTheDerivedValue)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu"));
    h.addSlice(slice("s", kDrv, "p", "node-1",
        { device("a", { { "numa", intAttr(0) } }), device("b", { { "numa", intAttr(1) } }) }));
    auto c = claim("c",
        { exactRequest(
            "r", derivedSpec(2, "derived/numa", "device.attributes[\"gpu.example.com\"].numa * 10")) });
    c.spec.constraints.push_back(constraint(true, "derived/numa"));
    Collect trace;
    h.run({ claim("warm", {}) }); // builds the allocator; the observer goes on the next one
    std::vector<const api::ResourceClaim*> ptrs { &c };
    std::string error;
    ASSERT_TRUE(h.alloc->prepare(ptrs, &error)) << error;
    h.alloc->setObserver(&trace);
    EXPECT_EQ(h.alloc->allocate(h.theNode).status, AttemptStatus::NoSolution);
    std::vector<std::string> details;
    for (const auto& e : trace.events)
        if (e.step == allocator::TraceStep::Rejected
            && e.reason == allocator::DeviceRejectReason::ConstraintMismatch)
            details.push_back(e.deviceName + ": " + e.detail);
    EXPECT_EQ(details,
        std::vector<std::string>({ "gpu.example.com/p/b: matchAttribute derived/numa (derived: 10): "
                                   "differs from the devices picked before" }));
}
