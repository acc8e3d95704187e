// SPDX-License-Identifier: Apache-2.0
// The programs allocate with jemalloc when the build asks for it (DRASIM_JEMALLOC, every build but
// a sanitizer one): its counters must see this program's allocations, so a link that left the C
// library's malloc in place fails here rather than only in the benchmarks.
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <string>

#include <gtest/gtest.h>

namespace {

using Mallctl = int (*)(const char* name, void* oldp, size_t* oldlenp, void* newp, size_t newlen);

Mallctl findMallctl()
{
    return reinterpret_cast<Mallctl>(dlsym(RTLD_DEFAULT, "mallctl"));
}

#ifdef DRASIM_WITH_JEMALLOC

uint64_t allocatedByThisThread(Mallctl mallctl)
{
    uint64_t bytes = 0;
    size_t size = sizeof(bytes);
    EXPECT_EQ(mallctl("thread.allocated", &bytes, &size, nullptr, 0), 0);
    return bytes;
}

TEST(ProgramAllocator, JemallocServesThisProgramsAllocations)
{
    const Mallctl mallctl = findMallctl();
    ASSERT_NE(mallctl, nullptr) << "jemalloc is not linked into this program";
    const char* version = nullptr;
    size_t size = sizeof(version);
    ASSERT_EQ(mallctl("version", &version, &size, nullptr, 0), 0);
    EXPECT_EQ(std::string(version).substr(0, 2), "5.");

    const uint64_t before = allocatedByThisThread(mallctl);
    void* block = std::malloc(1 << 20);
    ASSERT_NE(block, nullptr);
    const uint64_t after = allocatedByThisThread(mallctl);
    std::free(block);
    EXPECT_GE(after - before, uint64_t(1 << 20));
}

#else

TEST(ProgramAllocator, TheCLibrarysAllocatorWhenJemallocIsOff)
{
    EXPECT_EQ(findMallctl(), nullptr);
}

#endif

} // namespace
