// SPDX-License-Identifier: Apache-2.0
// Allocator::buildResults over spare allocations (of claims deallocated since): what it writes is
// what it writes without them, and the lists of a spare are kept.
#include <gtest/gtest.h>

#include "tests/unit/allocator/harness.h"

using namespace drasim;
using namespace drasim::testing;
using allocator::AttemptStatus;

namespace {

/// Every field of an allocation, for comparing two of them.
std::string describe(const api::AllocationResult& a)
{
    std::string out;
    for (const auto& r : a.results) {
        out += r.request + "|" + r.driver + "|" + r.pool + "|" + r.device + "|"
            + (r.adminAccess ? (*r.adminAccess ? "admin" : "not-admin") : "-") + "|"
            + std::to_string(r.tolerations.size()) + "|" + std::to_string(r.bindingConditions.size()) + "|"
            + std::to_string(r.bindingFailureConditions.size()) + "|" + r.shareID.value_or("-") + "|"
            + std::to_string(r.consumedCapacity.size()) + "|" + std::to_string(r.skipNodeOperations.size())
            + ";";
    }
    out += " config " + std::to_string(a.config.size());
    if (a.nodeSelector)
        for (const auto& t : a.nodeSelector->terms) {
            out += " term";
            for (const auto* list : { &t.matchExpressions, &t.matchFields })
                for (const auto& r : *list) {
                    out += " " + r.key + " " + r.op;
                    for (const auto& v : r.values)
                        out += " " + v;
                }
        }
    return out + " at " + a.allocationTimestamp;
}

/// A spare as a finished claim leaves it: devices of another node, a node selector of that node,
/// a config entry and a timestamp.
api::AllocationResult spareOf(const std::string& nodeName)
{
    api::AllocationResult a;
    for (int i = 0; i < 3; ++i) {
        api::DeviceRequestAllocationResult r;
        r.request = "old";
        r.driver = "old.example.com";
        r.pool = nodeName;
        r.device = "dev-" + std::to_string(i);
        r.adminAccess = true;
        r.shareID = "share";
        a.results.push_back(r);
    }
    a.config.emplace_back();
    api::NodeSelectorTerm t;
    t.matchFields.push_back(api::NodeSelectorRequirement { "metadata.name", "In", { nodeName } });
    a.nodeSelector.emplace().terms.push_back(t);
    a.allocationTimestamp = "2020-01-01T00:00:00Z";
    return a;
}

struct TwoClaims
{
    AllocHarness h;
    allocator::Attempt attempt;

    TwoClaims()
    {
        h.addClass(deviceClass("gpu", { "device.driver == \"gpu.example.com\"" }));
        h.addSlice(slice("s", kDrv, "pool", "node-1", { device("gpu-0"), device("gpu-1"), device("gpu-2") }));
        attempt = h.run({ claim("a", { exactRequest("gpu", requestSpec("gpu", 2)) }),
            claim("b", { exactRequest("gpu", requestSpec("gpu")) }) });
    }
    std::vector<api::AllocationResult> build(std::vector<api::AllocationResult>* spares)
    {
        return h.alloc->buildResults(
            h.theNode, attempt, [] { return std::string("share"); }, [] { return std::string("now"); },
            spares);
    }
};

} // namespace

TEST(ResultsReuse, WrittenOverSparesTheResultsAreThoseWrittenAfresh)
{
    TwoClaims t;
    ASSERT_EQ(t.attempt.status, AttemptStatus::Success);
    const auto fresh = t.build(nullptr);
    ASSERT_EQ(fresh.size(), 2u);
    ASSERT_TRUE(fresh[0].nodeSelector);
    // One spare only: the second claim's allocation is made anew.
    std::vector<api::AllocationResult> spares { spareOf("node-9") };
    const auto* keptTerms = spares.back().nodeSelector->terms.data();
    const auto reused = t.build(&spares);
    EXPECT_TRUE(spares.empty());
    ASSERT_EQ(reused.size(), 2u);
    for (size_t i = 0; i < 2; ++i)
        EXPECT_EQ(describe(reused[i]), describe(fresh[i])) << "claim " << i;
    EXPECT_EQ(describe(fresh[0]).find("old"), std::string::npos);
    // The spare's node selector of the same shape was written over, not made anew.
    EXPECT_EQ(reused[0].nodeSelector->terms.data(), keptTerms);
}

TEST(ResultsReuse, ASpareOfAnotherShapeIsWrittenOverAllTheSame)
{
    TwoClaims t;
    ASSERT_EQ(t.attempt.status, AttemptStatus::Success);
    const auto fresh = t.build(nullptr);
    std::vector<api::AllocationResult> spares { spareOf("node-9"), spareOf("node-8") };
    spares[0].nodeSelector->terms.front().matchFields.front().op = "NotIn";
    spares[1].nodeSelector->terms.emplace_back();
    const auto reused = t.build(&spares);
    ASSERT_EQ(reused.size(), 2u);
    for (size_t i = 0; i < 2; ++i)
        EXPECT_EQ(describe(reused[i]), describe(fresh[i])) << "claim " << i;
}
