// SPDX-License-Identifier: Apache-2.0
// The config list of an allocation result as 1.36 and 1.37 write it (allocation_config.h).
#include <gtest/gtest.h>

#include "core/allocator/allocation_config.h"

using namespace drasim;
using allocator::ConfigStyle;
using allocator::SettledRequest;

namespace {

using Names = std::vector<std::string>;

api::DeviceClass classWithConfig(const std::string& name, const std::string& params)
{
    api::DeviceClass c;
    c.meta.name = name;
    c.config.push_back(api::OpaqueDeviceConfiguration { "gpu.example.com", DataValue(params) });
    return c;
}

api::DeviceClaimConfiguration claimConfig(Names requests, const std::string& params)
{
    return api::DeviceClaimConfiguration { std::move(requests), { "gpu.example.com", DataValue(params) } };
}

std::vector<std::string> sources(const std::vector<api::DeviceAllocationConfiguration>& list)
{
    std::vector<std::string> out;
    for (const auto& e : list)
        out.push_back(e.source + ":" + e.opaque.parameters.asString());
    return out;
}

} // namespace

TEST(AllocationConfig, ClaimConfigForTwoRequestsPerVersion)
{
    const auto gpu = classWithConfig("gpu", "class");
    const std::vector<SettledRequest> settled { { "r1", "r1", false, &gpu }, { "r2", "r2", false, &gpu } };
    const std::vector<api::DeviceClaimConfiguration> claim { claimConfig({ "r1", "r2" }, "both") };

    // 1.36: the claim config once per request it names, every entry with its names.
    const auto old = allocator::allocationConfig(settled, claim, ConfigStyle::PerRequest);
    ASSERT_EQ(sources(old), Names({ "FromClass:class", "FromClaim:both", "FromClaim:both" }));
    EXPECT_EQ(old[0].requests, Names({ "r1", "r2" }));
    EXPECT_EQ(old[1].requests, Names({ "r1", "r2" }));

    // 1.37: once, and an entry covering both requests names none.
    const auto now = allocator::allocationConfig(settled, claim, ConfigStyle::Compact);
    ASSERT_EQ(sources(now), Names({ "FromClass:class", "FromClaim:both" }));
    EXPECT_TRUE(now[0].requests.empty());
    EXPECT_TRUE(now[1].requests.empty());
}

TEST(AllocationConfig, PartialCoverageKeepsNames)
{
    const auto gpu = classWithConfig("gpu", "gpu-class");
    const auto nic = classWithConfig("nic", "nic-class");
    const std::vector<SettledRequest> settled { { "r1", "r1", false, &gpu }, { "r2", "r2", false, &nic } };
    const auto now = allocator::allocationConfig(
        settled, { claimConfig({ "r1" }, "one"), claimConfig({ "r3" }, "none") }, ConfigStyle::Compact);
    // A config naming no settled request is not copied.
    ASSERT_EQ(sources(now), Names({ "FromClass:gpu-class", "FromClass:nic-class", "FromClaim:one" }));
    EXPECT_EQ(now[0].requests, Names({ "r1" }));
    EXPECT_EQ(now[1].requests, Names({ "r2" }));
    EXPECT_EQ(now[2].requests, Names({ "r1" }));
}

TEST(AllocationConfig, AlternativesOfOneRequestDoNotCoverTwoRequests)
{
    // Two names for two requests, but both name alternatives of r1 (kubernetes#139814).
    const auto gpu = classWithConfig("gpu", "class");
    const std::vector<SettledRequest> settled { { "r1", "r1/a", true, &gpu },
        { "r2", "r2", false, nullptr } };
    const auto now = allocator::allocationConfig(
        settled, { claimConfig({ "r1/a", "r1/b" }, "alts") }, ConfigStyle::Compact);
    ASSERT_EQ(sources(now), Names({ "FromClass:class", "FromClaim:alts" }));
    EXPECT_EQ(now[0].requests, Names({ "r1/a" }));
    EXPECT_EQ(now[1].requests, Names({ "r1/a", "r1/b" }));
}

TEST(AllocationConfig, ChosenAlternativeCoversItsRequest)
{
    const auto gpu = classWithConfig("gpu", "class");
    const std::vector<SettledRequest> settled { { "r1", "r1/b", true, &gpu } };
    const auto now = allocator::allocationConfig(settled,
        { claimConfig({ "r1/b" }, "chosen"), claimConfig({ "r1/a" }, "other") }, ConfigStyle::Compact);
    ASSERT_EQ(sources(now), Names({ "FromClass:class", "FromClaim:chosen" }));
    EXPECT_TRUE(now[0].requests.empty());
    EXPECT_TRUE(now[1].requests.empty());
}
