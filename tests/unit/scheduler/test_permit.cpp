// SPDX-License-Identifier: Apache-2.0
// Kubernetes 1.35's Permit barrier, the scheduler's side (permit.h): Unreserve of a member rejected
// at Permit frees what Reserve gave it but keeps the claims made for it, and the timeout message
// prints its wait as Go's time.Duration does.
#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/permit.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;

namespace {

/// One node with one GPU, a class and the template "one-gpu".
api::ObjectSet oneGpuNode()
{
    api::ObjectSet o;
    o.nodes.push_back(node("node-0"));
    o.resourceSlices.push_back(slice("node-0-gpus", kDrv, "node-0", "node-0", { device("gpu-0") }));
    o.deviceClasses.push_back(deviceClass("gpu", { "device.driver == \"gpu.example.com\"" }));
    api::ResourceClaimTemplate t;
    t.meta.name = "one-gpu";
    t.meta.namespace_ = "default";
    t.spec.requests.push_back(exactRequest("gpu", requestSpec("gpu")));
    o.resourceClaimTemplates.push_back(t);
    return o;
}

} // namespace

TEST(Permit, UnreserveFreesTheDevicesButKeepsTheGeneratedClaim)
{
    Cluster c(oneGpuNode());
    ASSERT_TRUE(c.schedule(pod("w-0", {}, { { "gpu", "one-gpu" } })).scheduled);
    // While w-0 is assumed, another pod finds the only GPU taken.
    EXPECT_FALSE(c.schedule(pod("other", {}, { { "gpu", "one-gpu" } })).scheduled);
    EXPECT_TRUE(c.podFinished("default/other"));

    const auto before = c.freeEventCount();
    EXPECT_TRUE(scheduler::unreservePod(c, "default/w-0"));
    EXPECT_GT(c.freeEventCount(), before);
    EXPECT_EQ(c.findBoundPod("default/w-0"), nullptr);
    const api::ResourceClaim* claim = c.findClaim("default/w-0-gpu");
    ASSERT_NE(claim, nullptr); // made for the pod by the ResourceClaim controller: it stays
    EXPECT_FALSE(claim->allocation.has_value());
    EXPECT_TRUE(claim->reservedFor.empty());
    // The GPU is free again, and the member's next cycle allocates the claim it already has.
    auto again = c.schedule(pod("w-0", {}, { { "gpu", "one-gpu" } }));
    ASSERT_TRUE(again.scheduled) << again.message;
    EXPECT_EQ(again.allocated.at(0).claim, "default/w-0-gpu");
    EXPECT_FALSE(scheduler::unreservePod(c, "default/nobody"));
    // A deletion, unlike Unreserve, removes the generated claim.
    EXPECT_TRUE(c.podFinished("default/w-0"));
    EXPECT_EQ(c.findClaim("default/w-0-gpu"), nullptr);
}

TEST(Permit, TimeoutMessageWordsTheWaitAsGoDoes)
{
    EXPECT_EQ(scheduler::gangPermitTimeoutMessage(300'000),
        "rejected due to timeout after waiting 5m0s at plugin GangScheduling");
    EXPECT_EQ(scheduler::goDuration(200'000), "3m20s");
    EXPECT_EQ(scheduler::goDuration(45'000), "45s");
    EXPECT_EQ(scheduler::goDuration(1'500), "1.5s");
    EXPECT_EQ(scheduler::goDuration(299'999), "4m59.999s");
    EXPECT_EQ(scheduler::goDuration(3'600'000), "1h0m0s");
    EXPECT_EQ(scheduler::goDuration(250), "250ms");
    EXPECT_EQ(scheduler::goDuration(0), "0s");
}
