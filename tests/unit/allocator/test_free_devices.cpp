// SPDX-License-Identifier: Apache-2.0
// The search's shortcut for a node whose free devices cannot serve some request
// (free_devices.h): it answers "no solution" only where the search would, and stands aside
// wherever the search could end otherwise. A traced search (an observer) never takes it, which
// gives the full search to compare with.
#include <cstdlib>
#include <random>

#include <gtest/gtest.h>

#include "tests/unit/allocator/harness.h"

using namespace drasim;
using namespace drasim::testing;
using allocator::AttemptStatus;

namespace {

constexpr const char* kNicDriver = "nic.example.com";
const std::string kModelIsA100 = "device.attributes[\"gpu.example.com\"].model == \"a100\"";

/// node-1 with `gpus` GPUs (model a100) and two NICs, the first `busy` GPUs held by other claims.
AllocHarness gpusAndNics(int gpus, int busy)
{
    AllocHarness h;
    h.addClass(deviceClass("gpu", { "device.driver == \"gpu.example.com\"" }));
    h.addClass(deviceClass("nic", { "device.driver == \"nic.example.com\"" }));
    std::vector<api::Device> devices;
    for (int i = 0; i < gpus; ++i)
        devices.push_back(device("gpu-" + std::to_string(i), { { "model", strAttr("a100") } }));
    h.addSlice(slice("gpus", kDrv, "gpus", "node-1", devices));
    h.addSlice(slice("nics", kNicDriver, "nics", "node-1", { device("nic-0"), device("nic-1") }));
    for (int i = 0; i < busy; ++i)
        h.allocated(kDrv, "gpus", "gpu-" + std::to_string(i));
    return h;
}

} // namespace

TEST(FreeDevices, FreeDevicesOfAnotherKindAnswerNoSolutionWithoutTheSearch)
{
    auto h = gpusAndNics(4, 3);
    auto a = h.run({ claim("c", { exactRequest("r", requestSpec("gpu", 2)) }) });
    EXPECT_EQ(a.status, AttemptStatus::NoSolution);
    EXPECT_EQ(a.steps, 0u) << "the free NICs and the one free GPU cannot serve 2 GPUs";

    allocator::AllocationTrace trace;
    h.observer = &trace;
    auto traced = h.run({ claim("c", { exactRequest("r", requestSpec("gpu", 2)) }) });
    EXPECT_EQ(traced.status, AttemptStatus::NoSolution);
    EXPECT_GT(traced.steps, 0u) << "a traced search visits the devices";
}

TEST(FreeDevices, EnoughMatchingFreeDevicesLeaveItToTheSearch)
{
    auto h = gpusAndNics(4, 2);
    std::vector<api::AllocationResult> res;
    auto a = h.run({ claim("c", { exactRequest("r", requestSpec("gpu", 2)) }) }, &res);
    ASSERT_EQ(a.status, AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), std::vector<std::string>({ "r:gpus/gpu-2", "r:gpus/gpu-3" }));
}

TEST(FreeDevices, AnAlternativeThatFitsLeavesItToTheSearch)
{
    auto h = gpusAndNics(4, 3);
    const auto r
        = alternativesRequest("r", { { "two", requestSpec("gpu", 2) }, { "one", requestSpec("gpu", 1) } });
    std::vector<api::AllocationResult> res;
    auto a = h.run({ claim("c", { r }) }, &res);
    ASSERT_EQ(a.status, AttemptStatus::Success);
    EXPECT_EQ(summary(res[0]), std::vector<std::string>({ "r/one:gpus/gpu-3" }));
}

TEST(FreeDevices, AFreeDeviceWhoseSelectorFailsStillEndsTheSearchWithItsError)
{
    // gpu-3 has no model attribute: the request's selector raises an error on it, which the
    // search meets before it runs out of devices.
    AllocHarness h;
    h.addClass(deviceClass("gpu", { "device.driver == \"gpu.example.com\"" }));
    h.addSlice(slice("gpus", kDrv, "gpus", "node-1",
        { device("gpu-0", { { "model", strAttr("a100") } }), device("gpu-1") }));
    h.allocated(kDrv, "gpus", "gpu-0");
    auto a = h.run({ claim("c", { exactRequest("r", requestSpec("gpu", 2, { kModelIsA100 })) }) });
    ASSERT_EQ(a.status, AttemptStatus::Error);
    EXPECT_EQ(a.error.rfind("claim default/c: selector #0: CEL runtime error: ", 0), 0u) << a.error;
}

TEST(FreeDevices, AStepBudgetTheSearchWouldExhaustLeavesItToTheSearch)
{
    auto h = gpusAndNics(4, 3);
    h.options.stepBudget = 2; // the search steps through 6 devices before it gives up
    auto a = h.run({ claim("c", { exactRequest("r", requestSpec("gpu", 2)) }) });
    EXPECT_EQ(a.status, AttemptStatus::Timeout);
}

// Law: over random nodes and claims, the allocator answers as the full (traced) search does,
// devices included, and the shortcut is taken often enough for that to mean something.
TEST(FreeDevices, AnswersAsTheFullSearchDoes)
{
    // A fixed seed, or DRASIM_INVARIANT_SEED's when it is set (the laws' fresh-seed runs).
    const char* fresh = std::getenv("DRASIM_INVARIANT_SEED");
    std::mt19937 rng(fresh ? uint32_t(std::strtoul(fresh, nullptr, 10)) : 20261207u);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    int shortcuts = 0;
    for (int round = 0; round < 400; ++round) {
        const int gpus = pick(1, 8);
        auto h = gpusAndNics(gpus, pick(0, gpus));
        std::vector<api::ResourceClaim> claims;
        const int claimCount = pick(1, 2);
        for (int c = 0; c < claimCount; ++c) {
            std::vector<api::DeviceRequest> requests;
            const int requestCount = pick(1, 2);
            for (int r = 0; r < requestCount; ++r) {
                const std::string name = "r" + std::to_string(r);
                const std::string cls = pick(0, 3) == 0 ? "nic" : "gpu";
                std::vector<std::string> selectors;
                if (cls == "gpu" && pick(0, 2) == 0)
                    selectors.push_back(kModelIsA100);
                if (pick(0, 3) == 0) {
                    requests.push_back(alternativesRequest(name,
                        { { "big", requestSpec(cls, pick(2, 4)) },
                            { "small", requestSpec(cls, 1, selectors) } }));
                } else {
                    requests.push_back(exactRequest(name, requestSpec(cls, pick(1, 4), selectors)));
                }
            }
            claims.push_back(claim("c" + std::to_string(c), requests));
        }
        std::vector<api::AllocationResult> fast, full;
        const auto a = h.run(claims, &fast);
        allocator::AllocationTrace trace;
        h.observer = &trace;
        const auto b = h.run(claims, &full);
        ASSERT_EQ(a.status, b.status) << "round " << round;
        ASSERT_EQ(a.error, b.error) << "round " << round;
        if (a.status == AttemptStatus::Success) {
            ASSERT_EQ(fast.size(), full.size());
            for (size_t i = 0; i < fast.size(); ++i)
                ASSERT_EQ(summary(fast[i]), summary(full[i])) << "round " << round;
        }
        if (a.status == AttemptStatus::NoSolution && a.steps == 0 && b.steps > 0)
            ++shortcuts;
    }
    EXPECT_GT(shortcuts, 40);
}
