// SPDX-License-Identifier: Apache-2.0
// forEachItem: the worker pool the planner's simulations and the fragmentation study's replays
// share.
#include <atomic>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "core/common/parallel_items.h"

namespace parallel_items_tests {

using drasim::CancelToken;
using drasim::forEachItem;

TEST(ParallelItems, EveryItemRunsOnceAndItsResultLandsInItsSlot)
{
    for (size_t count : { 0u, 1u, 7u, 200u }) {
        for (unsigned threads : { 0u, 1u, 2u, 5u }) {
            std::vector<std::atomic<int>> runs(count);
            std::vector<size_t> squares(count, 0);
            EXPECT_TRUE(forEachItem(count, threads, [&](size_t i) {
                runs[i]++;
                squares[i] = i * i;
            }));
            for (size_t i = 0; i < count; ++i) {
                EXPECT_EQ(runs[i], 1) << count << " items, " << threads << " threads, item " << i;
                EXPECT_EQ(squares[i], i * i);
            }
        }
    }
}

TEST(ParallelItems, NoItemStartsOnceCancelled)
{
    CancelToken cancel;
    cancel.cancel();
    std::atomic<int> ran { 0 };
    EXPECT_FALSE(forEachItem(
        50, 3, [&](size_t) { ran++; }, &cancel));
    EXPECT_EQ(ran, 0);

    // Raised by item 3 on one thread: items 0-3 ran, none after.
    CancelToken midway;
    std::vector<int> seen;
    EXPECT_FALSE(forEachItem(
        10, 1,
        [&](size_t i) {
            seen.push_back(int(i));
            if (i == 3)
                midway.cancel();
        },
        &midway));
    EXPECT_EQ(seen, (std::vector<int> { 0, 1, 2, 3 }));
}

TEST(ParallelItems, AnExceptionReachesTheCallerAfterEveryThreadIsDone)
{
    std::atomic<int> ran { 0 };
    EXPECT_THROW(forEachItem(20, 3,
                     [&](size_t i) {
                         ran++;
                         if (i == 4)
                             throw std::runtime_error("item 4");
                     }),
        std::runtime_error);
    EXPECT_GE(ran, 5);
}

} // namespace parallel_items_tests
