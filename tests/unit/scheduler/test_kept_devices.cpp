// SPDX-License-Identifier: Apache-2.0
// The devices kept with a remembered "fits" verdict (dra_verdicts.h): a cycle that chooses a node
// from remembered verdicts takes the devices found when that node was filtered, so they must be
// handed out only while the verdict they came with still stands.
#include <gtest/gtest.h>

#include "core/scheduler/dra_verdicts.h"

using drasim::allocator::Attempt;
using drasim::allocator::AttemptStatus;
using drasim::scheduler::DraVerdictCache;

namespace {

Attempt attemptOfSteps(uint64_t steps)
{
    Attempt a;
    a.status = AttemptStatus::Success;
    a.steps = steps;
    return a;
}

DraVerdictCache cacheOfNodes(uint32_t n)
{
    DraVerdictCache cache;
    std::vector<uint32_t> rank(n);
    for (uint32_t i = 0; i < n; ++i)
        rank[i] = i;
    cache.reset(rank);
    return cache;
}

} // namespace

TEST(KeptDevices, AreTakenOnceForTheirNodeAndKey)
{
    DraVerdictCache cache = cacheOfNodes(4);
    const auto slot = cache.slot("one-gpu");
    cache.store(slot, 2, -1);
    cache.keepDevices(slot, 2, attemptOfSteps(7));
    EXPECT_FALSE(cache.takeDevices(slot, 1)) << "another node";
    EXPECT_FALSE(cache.takeDevices(cache.slot("two-gpus"), 2)) << "another key";
    const auto kept = cache.takeDevices(slot, 2);
    ASSERT_TRUE(kept);
    EXPECT_EQ(kept->steps, 7u);
    EXPECT_FALSE(cache.takeDevices(slot, 2)) << "taken already";
}

TEST(KeptDevices, GoStaleWhenTheNodeChanges)
{
    DraVerdictCache cache = cacheOfNodes(3);
    const auto slot = cache.slot("one-gpu");
    cache.keepDevices(slot, 0, attemptOfSteps(1));
    cache.keepDevices(slot, 1, attemptOfSteps(2));
    cache.touch(0);
    EXPECT_FALSE(cache.takeDevices(slot, 0));
    ASSERT_TRUE(cache.takeDevices(slot, 1)) << "a change of node 0 leaves node 1's";
    // Kept again after the change: the newer devices are handed out.
    cache.keepDevices(slot, 0, attemptOfSteps(3));
    const auto kept = cache.takeDevices(slot, 0);
    ASSERT_TRUE(kept);
    EXPECT_EQ(kept->steps, 3u);
}

TEST(KeptDevices, GoStaleWhenTheCacheForgetsEverything)
{
    DraVerdictCache cache = cacheOfNodes(2);
    auto slot = cache.slot("one-gpu");
    cache.keepDevices(slot, 1, attemptOfSteps(1));
    cache.clear();
    EXPECT_FALSE(cache.takeDevices(slot, 1)) << "the old slot";
    slot = cache.slot("one-gpu");
    EXPECT_FALSE(cache.takeDevices(slot, 1)) << "the key's new slot";
}

TEST(KeptDevices, OneAttemptIsKeptPerNode)
{
    DraVerdictCache cache = cacheOfNodes(2);
    const auto one = cache.slot("one-gpu");
    const auto two = cache.slot("two-gpus");
    cache.keepDevices(one, 0, attemptOfSteps(1));
    cache.keepDevices(two, 0, attemptOfSteps(2));
    EXPECT_FALSE(cache.takeDevices(one, 0));
    const auto kept = cache.takeDevices(two, 0);
    ASSERT_TRUE(kept);
    EXPECT_EQ(kept->steps, 2u);
}
