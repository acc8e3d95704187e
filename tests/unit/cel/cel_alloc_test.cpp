// SPDX-License-Identifier: Apache-2.0
// Proves the selector hot path does not allocate: this file replaces global operator new with
// a counting version and evaluates compiled selectors between two readings of the counter.
// The replacement holds for the whole cel_tests program, so it covers every form a library may
// call (plain, array, nothrow; sized deletes): a form left to the runtime would pair the
// runtime's allocation with this file's free(), which AddressSanitizer reports as a mismatch
// (std::stable_sort's temporary buffer uses the nothrow form).
#include <atomic>
#include <cstdlib>
#include <new>

#include <gtest/gtest.h>

#include "core/cel/cel.h"
#include "tests/unit/cel/cel_fixtures.h"

namespace {
std::atomic<long> g_allocations { 0 };
}

// The replacement pair below is malloc/free based on purpose; GCC cannot see that both sides
// are replaced together.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t size)
{
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size ? size : 1))
        return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size)
{
    return operator new(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept
{
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size ? size : 1);
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept
{
    return operator new(size, tag);
}
void operator delete(void* p, const std::nothrow_t&) noexcept
{
    std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept
{
    std::free(p);
}
void operator delete(void* p) noexcept
{
    std::free(p);
}
void operator delete[](void* p) noexcept
{
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept
{
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept
{
    std::free(p);
}

namespace drasim::cel {
namespace {

long allocationsDuring(const Selector& s, const DeviceView& v, int times, Outcome* outcome)
{
    long before = g_allocations.load();
    for (int i = 0; i < times; ++i)
        *outcome = s.evaluate(v).outcome;
    return g_allocations.load() - before;
}

TEST(CelAllocation, CounterSeesAllocations)
{
    // Explicit operator new calls cannot be elided by the optimiser, unlike new-expressions.
    static void* volatile sink;
    long before = g_allocations.load();
    sink = ::operator new(16);
    ::operator delete(sink);
    EXPECT_EQ(g_allocations.load() - before, 1);
}

TEST(CelAllocation, BenchmarkSelectorEvaluatesWithoutHeapAllocation)
{
    auto dev = testing::gpuDevice();
    CompileError e;
    auto s = Selector::compile(
        "device.driver == \"gpu.nvidia.com\" && "
        "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA H100 80GB HBM3\" && "
        "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0",
        &e);
    ASSERT_NE(s, nullptr) << e.message;
    Outcome outcome = Outcome::Error;
    EXPECT_EQ(allocationsDuring(*s, dev.view(), 100, &outcome), 0);
    EXPECT_EQ(outcome, Outcome::True);
}

TEST(CelAllocation, CommonSelectorShapesDoNotAllocate)
{
    auto dev = testing::gpuDevice();
    const char* exprs[] = {
        "device.attributes[\"gpu.nvidia.com\"].index >= 2 && device.attributes[\"numa.example.org\"].node == "
        "1",
        "device.attributes[\"gpu.nvidia.com\"].architecture in [\"Ampere\", \"Hopper\"]",
        "device.capacity[\"gpu.nvidia.com\"].memory.isGreaterThan(quantity(\"10Gi\")) || device.driver == "
        "\"x\"",
        "has(device.attributes[\"gpu.nvidia.com\"].productName) && device.allowMultipleAllocations",
        "device.attributes[\"gpu.nvidia.com\"].productName.startsWith(\"NVIDIA\")",
    };
    for (const char* expr : exprs) {
        CompileError e;
        auto s = Selector::compile(expr, &e);
        ASSERT_NE(s, nullptr) << expr << ": " << e.message;
        Outcome outcome = Outcome::Error;
        EXPECT_EQ(allocationsDuring(*s, dev.view(), 10, &outcome), 0) << expr;
        EXPECT_EQ(outcome, Outcome::True) << expr;
    }
}

TEST(CelAllocation, ErrorsStillAllocateTheirMessage)
{
    // The counter must be able to fail: the error path builds a message on the heap.
    auto dev = testing::gpuDevice();
    CompileError e;
    auto s = Selector::compile("device.attributes[\"gpu.nvidia.com\"].nope == 1", &e);
    ASSERT_NE(s, nullptr);
    Outcome outcome = Outcome::True;
    EXPECT_GT(allocationsDuring(*s, dev.view(), 1, &outcome), 0);
    EXPECT_EQ(outcome, Outcome::Error);
}

} // namespace
} // namespace drasim::cel
