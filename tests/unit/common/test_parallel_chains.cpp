// SPDX-License-Identifier: Apache-2.0
// forEachChain: the worker pool on which the planner runs a mix's seeds one after another, the
// next one only when the last met the levels.
#include <atomic>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "core/common/parallel_chains.h"

namespace parallel_chains_tests {

using drasim::CancelToken;
using drasim::forEachChain;

TEST(ParallelChains, EachChainRunsItsStepsInOrderUntilOneSaysStop)
{
    // Chain c stops after step c % 4: 1 to 4 steps each.
    for (size_t chains : { 0u, 1u, 9u, 120u }) {
        for (unsigned threads : { 0u, 1u, 2u, 5u }) {
            std::vector<std::vector<size_t>> steps(chains);
            std::vector<std::atomic<int>> inside(chains);
            std::atomic<bool> overlapped { false };
            EXPECT_TRUE(forEachChain(chains, threads, [&](size_t c, size_t k) {
                if (inside[c]++ != 0)
                    overlapped = true; // two steps of one chain at once
                steps[c].push_back(k);
                inside[c]--;
                return k < c % 4;
            }));
            EXPECT_FALSE(overlapped);
            for (size_t c = 0; c < chains; ++c) {
                std::vector<size_t> want;
                for (size_t k = 0; k <= c % 4; ++k)
                    want.push_back(k);
                EXPECT_EQ(steps[c], want) << chains << " chains, " << threads << " threads, chain " << c;
            }
        }
    }
}

TEST(ParallelChains, AStepSeesWhatTheStepsBeforeItWrote)
{
    // Each step adds to its chain's running sum without a lock: safe only if the steps of one
    // chain are ordered (happens-before) even when different threads run them.
    std::vector<long> sums(64, 0);
    EXPECT_TRUE(forEachChain(sums.size(), 3, [&](size_t c, size_t k) {
        sums[c] += long(k + 1);
        return k < 9;
    }));
    for (long s : sums)
        EXPECT_EQ(s, 55);
}

TEST(ParallelChains, OnOneThreadABegunChainIsFinishedBeforeTheNextStarts)
{
    std::vector<std::pair<size_t, size_t>> order;
    EXPECT_TRUE(forEachChain(3, 1, [&](size_t c, size_t k) {
        order.emplace_back(c, k);
        return k < 1;
    }));
    const std::vector<std::pair<size_t, size_t>> want { { 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 }, { 2, 0 },
        { 2, 1 } };
    EXPECT_EQ(order, want);
}

TEST(ParallelChains, NoStepStartsOnceCancelled)
{
    CancelToken cancel;
    cancel.cancel();
    std::atomic<int> ran { 0 };
    EXPECT_FALSE(forEachChain(
        10, 2,
        [&](size_t, size_t) {
            ran++;
            return true;
        },
        &cancel));
    EXPECT_EQ(ran, 0);

    // Raised by chain 1's second step on one thread: nothing after it.
    CancelToken midway;
    std::vector<std::pair<size_t, size_t>> seen;
    EXPECT_FALSE(forEachChain(
        5, 1,
        [&](size_t c, size_t k) {
            seen.emplace_back(c, k);
            if (c == 1 && k == 1)
                midway.cancel();
            return k < 2;
        },
        &midway));
    const std::vector<std::pair<size_t, size_t>> want { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, 0 }, { 1, 1 } };
    EXPECT_EQ(seen, want);
}

TEST(ParallelChains, AnExceptionStopsEveryChainAndReachesTheCaller)
{
    for (unsigned threads : { 1u, 3u }) {
        std::atomic<int> ran { 0 };
        EXPECT_THROW(forEachChain(20, threads,
                         [&](size_t c, size_t k) -> bool {
                             ran++;
                             if (c == 2 && k == 1)
                                 throw std::runtime_error("chain 2, step 1");
                             return k < 5;
                         }),
            std::runtime_error);
        // On one thread: chains 0 and 1 ran six steps each, chain 2 two; nothing after.
        if (threads == 1) {
            EXPECT_EQ(ran, 14);
        }
        EXPECT_LT(ran, 20 * 6);
    }
}

} // namespace parallel_chains_tests
