// SPDX-License-Identifier: Apache-2.0
// Allocator::prepare with spec ids: a preparation serves again for other claims of the same spec,
// and what it then says is what a fresh preparation of those claims would say.
#include <gtest/gtest.h>

#include "tests/unit/allocator/harness.h"

using namespace drasim;
using namespace drasim::testing;
using allocator::AttemptStatus;

namespace {

// Two GPUs of which one is big; a claim that prefers two big ones, else takes one of any size,
// tolerating a taint (the toleration is copied into the results from the prepared spec).
api::ResourceClaim preferring(const std::string& name)
{
    api::DeviceRequest r;
    r.name = "gpu";
    api::DeviceSubRequest big;
    big.name = "big";
    big.spec = requestSpec("gpu", 2, { "device.attributes[\"gpu.example.com\"].size == \"big\"" });
    api::DeviceSubRequest any;
    any.name = "any";
    any.spec = requestSpec("gpu");
    api::DeviceToleration t;
    t.key = "maintenance";
    t.op = "Exists";
    any.spec.tolerations.push_back(t);
    r.firstAvailable = { big, any };
    return claim(name, { r });
}

struct Prepared
{
    AllocHarness h;
    std::deque<api::ResourceClaim> claims;

    Prepared()
    {
        h.addClass(deviceClass("gpu", { "device.driver == \"gpu.example.com\"" }));
        h.addSlice(slice("s", kDrv, "pool", "node-1",
            { device("gpu-0", { { "size", strAttr("big") } }),
                device("gpu-1", { { "size", strAttr("small") } }) }));
        std::vector<const api::ResourceSlice*> list;
        for (const auto& s : h.slices)
            list.push_back(&s);
        h.inventory.setSlices(list);
        h.alloc
            = std::make_unique<allocator::Allocator>(h.inventory, h.state, h.selectors, h.classes, h.options);
    }

    /// allocate on the node after preparing `c` with these spec ids; "" or the error.
    std::string run(
        const api::ResourceClaim& c, const std::vector<uint64_t>& ids, std::vector<std::string>& out)
    {
        claims.push_back(c);
        std::string err;
        if (!h.alloc->prepare({ &claims.back() }, &err, ids))
            return err;
        auto a = h.alloc->allocate(h.theNode);
        if (a.status != AttemptStatus::Success)
            return a.error.empty() ? "no solution" : a.error;
        auto res = h.alloc->buildResults(
            h.theNode, a, [] { return std::string("share"); }, [] { return std::string("now"); });
        out = summary(res[0]);
        for (const auto& r : res[0].results)
            out.push_back(r.request + " tolerates " + std::to_string(r.tolerations.size()));
        return "";
    }
};

} // namespace

TEST(PrepareReuse, AnotherClaimOfTheSameSpecAllocatesAsIfPreparedAfresh)
{
    Prepared reused;
    std::vector<std::string> first, second;
    ASSERT_EQ(reused.run(preferring("a"), { 7 }, first), "");
    // The first claim's spec changes after it was prepared (as a freed claim's memory would):
    // a reused preparation must read the new claim's spec, not the old one's.
    reused.claims.back().spec.requests[0].firstAvailable[1].spec.tolerations.clear();
    ASSERT_EQ(reused.run(preferring("b"), { 7 }, second), "");

    Prepared fresh;
    std::vector<std::string> expected;
    ASSERT_EQ(fresh.run(preferring("b"), {}, expected), "");
    EXPECT_EQ(second, expected);
    EXPECT_EQ(first, expected);
    EXPECT_EQ(expected, (std::vector<std::string> { "gpu/any:pool/gpu-0", "gpu/any tolerates 1" }));
}

TEST(PrepareReuse, ErrorsNameTheClaimNowPrepared)
{
    // More devices than a claim may get: the allocator's error names the claim.
    auto over = [](const std::string& name) {
        return claim(name, { exactRequest("gpu", requestSpec("gpu", 33)) });
    };
    Prepared p;
    std::vector<std::string> out;
    EXPECT_EQ(p.run(over("a"), { 9 }, out),
        "claim default/a: number of requested devices 33 exceeds the claim limit of 32");
    EXPECT_EQ(p.run(over("b"), { 9 }, out),
        "claim default/b: number of requested devices 33 exceeds the claim limit of 32");
}

TEST(PrepareReuse, OtherIdsOrNoIdsPrepareAfresh)
{
    Prepared p;
    std::vector<std::string> out;
    ASSERT_EQ(p.run(preferring("a"), { 7 }, out), "");
    // Another spec under another id: prepared from its own requests.
    auto one = claim("c", { exactRequest("gpu", requestSpec("gpu", 2)) });
    EXPECT_EQ(p.run(one, { 8 }, out), "");
    EXPECT_EQ(out,
        (std::vector<std::string> {
            "gpu:pool/gpu-0", "gpu:pool/gpu-1", "gpu tolerates 0", "gpu tolerates 0" }));
    // An id of 0 names no spec: never served from the last preparation.
    auto three = claim("d", { exactRequest("gpu", requestSpec("gpu", 3)) });
    EXPECT_EQ(p.run(three, { 0 }, out), "no solution");
    EXPECT_EQ(p.run(one, { 0 }, out), "");
}
