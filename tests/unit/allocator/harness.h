// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <deque>
#include <memory>

#include "core/allocator/allocator.h"
#include "tests/unit/allocator/fixtures.h"

namespace drasim::testing {

/// One allocator with its inputs, for driving single attempts.
struct AllocHarness
{
    allocator::DeviceRegistry registry;
    allocator::Inventory inventory { registry };
    allocator::AllocatedState state { registry };
    allocator::SelectorCache selectors;
    std::map<std::string, api::DeviceClass> classes;
    std::deque<api::ResourceSlice> slices;
    std::deque<api::ResourceClaim> claims;
    allocator::AllocatorOptions options;
    /// Told every step of run()'s search when set (which also makes the search take no shortcut).
    allocator::AllocationObserver* observer = nullptr;
    std::unique_ptr<allocator::Allocator> alloc;
    api::Node theNode = node("node-1");
    int shareCounter = 0;

    void addClass(api::DeviceClass c) { classes[c.meta.name] = std::move(c); }
    void addSlice(api::ResourceSlice s) { slices.push_back(std::move(s)); }
    /// Marks a device busy as if another claim held it.
    void allocated(const std::string& driver, const std::string& pool, const std::string& dev)
    {
        api::AllocationResult r;
        api::DeviceRequestAllocationResult x;
        x.request = "x";
        x.driver = driver;
        x.pool = pool;
        x.device = dev;
        r.results.push_back(x);
        state.apply(r, +1);
    }

    allocator::Attempt run(std::vector<api::ResourceClaim> cs,
        std::vector<api::AllocationResult>* results = nullptr, std::string* prepareError = nullptr)
    {
        std::vector<const api::ResourceSlice*> list;
        for (const auto& s : slices)
            list.push_back(&s);
        inventory.setSlices(list);
        selectors.clearVerdicts();
        claims.clear();
        std::vector<const api::ResourceClaim*> ptrs;
        for (auto& c : cs) {
            claims.push_back(std::move(c));
            ptrs.push_back(&claims.back());
        }
        alloc = std::make_unique<allocator::Allocator>(inventory, state, selectors, classes, options);
        alloc->setObserver(observer);
        std::string err;
        if (!alloc->prepare(ptrs, &err)) {
            if (prepareError)
                *prepareError = err;
            allocator::Attempt a;
            a.status = allocator::AttemptStatus::Error;
            a.error = err;
            return a;
        }
        auto a = alloc->allocate(theNode);
        if (results && a.status == allocator::AttemptStatus::Success)
            *results = alloc->buildResults(
                theNode, a, [this] { return "share-" + std::to_string(++shareCounter); },
                [] { return std::string("2025-01-01T00:00:00Z"); });
        return a;
    }
};

/// "request:pool/device" per result, for compact assertions.
inline std::vector<std::string> summary(const api::AllocationResult& r)
{
    std::vector<std::string> out;
    for (const auto& x : r.results)
        out.push_back(x.request + ":" + x.pool + "/" + x.device);
    return out;
}

} // namespace drasim::testing
