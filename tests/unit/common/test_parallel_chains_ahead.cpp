// SPDX-License-Identifier: Apache-2.0
// forEachChainAhead: the planner's seeds of a mix, where a spare thread runs the next seed before
// the last one has answered. Whatever ran ahead, the steps that count are those of a run one step
// after another.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <numeric>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/common/parallel_chains_ahead.h"

namespace parallel_chains_ahead_tests {

using drasim::CancelToken;
using drasim::forEachChainAhead;

/// Chain c answers false at step stopAt[c] (or never, when past its steps).
struct RandomChains
{
    std::vector<size_t> steps;
    std::vector<size_t> stopAt;
    std::vector<size_t> expected() const
    {
        std::vector<size_t> counted;
        for (size_t c = 0; c < steps.size(); ++c)
            counted.push_back(std::min(steps[c], stopAt[c] + 1));
        return counted;
    }
};

RandomChains randomChains(std::mt19937& rng)
{
    RandomChains r;
    const size_t chains = rng() % 7;
    for (size_t c = 0; c < chains; ++c) {
        r.steps.push_back(rng() % 5);
        r.stopAt.push_back(rng() % 6);
    }
    return r;
}

TEST(ParallelChainsAhead, TheStepsThatCountAreThoseOfARunOneStepAfterAnother)
{
    std::mt19937 rng(20261207);
    int ranAhead = 0;
    for (int round = 0; round < 200; ++round) {
        const RandomChains chains = randomChains(rng);
        for (unsigned threads : { 1u, 2u, 4u }) {
            std::mutex mutex;
            std::vector<std::vector<size_t>> reported(chains.steps.size());
            std::atomic<int> started { 0 };
            auto counted = forEachChainAhead(
                chains.steps, threads,
                [&](size_t c, size_t k, const CancelToken& abandon) {
                    ++started;
                    // Later steps are quick, so a step run ahead often finishes first.
                    std::this_thread::sleep_for(std::chrono::microseconds(k == 0 ? 300 : 50));
                    if (abandon.cancelled())
                        return false;
                    return k != chains.stopAt[c];
                },
                [&](size_t c, size_t k) {
                    std::lock_guard<std::mutex> lock(mutex);
                    reported[c].push_back(k);
                });
            ASSERT_TRUE(counted.has_value());
            EXPECT_EQ(*counted, chains.expected()) << "round " << round << ", " << threads << " threads";
            size_t countedSteps = 0;
            for (size_t c = 0; c < reported.size(); ++c) {
                std::vector<size_t> want((*counted)[c]);
                std::iota(want.begin(), want.end(), size_t(0));
                EXPECT_EQ(reported[c], want) << "round " << round; // each once, in order
                countedSteps += want.size();
            }
            if (threads == 1)
                EXPECT_EQ(size_t(started.load()), countedSteps); // nothing ahead on one thread
            else
                ranAhead += started.load() > int(countedSteps) ? 1 : 0;
        }
    }
    EXPECT_GT(ranAhead, 10); // the law saw steps run ahead and then not count
}

TEST(ParallelChainsAhead, ASpareThreadRunsTheNextStepBeforeTheLastOneAnswers)
{
    // One chain of two steps on two threads: step 1 starts while step 0 still runs.
    std::atomic<bool> firstRunning { false };
    std::atomic<bool> overlapped { false };
    auto counted = forEachChainAhead({ 2 }, 2,
        [&](size_t, size_t k, const CancelToken&) {
            if (k == 0) {
                firstRunning = true;
                for (int i = 0; i < 2000 && !overlapped; ++i)
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                firstRunning = false;
            } else if (firstRunning) {
                overlapped = true;
            }
            return true;
        },
        {});
    ASSERT_TRUE(counted.has_value());
    EXPECT_EQ(*counted, std::vector<size_t>({ 2 }));
    EXPECT_TRUE(overlapped);
}

TEST(ParallelChainsAhead, AStepRunAheadIsToldToAbandonWhenAnEarlierOneAnswersFalse)
{
    std::atomic<bool> abandoned { false };
    std::atomic<bool> secondStarted { false };
    auto counted = forEachChainAhead({ 2 }, 2,
        [&](size_t, size_t k, const CancelToken& abandon) {
            if (k == 0) {
                for (int i = 0; i < 2000 && !secondStarted; ++i)
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                return false;
            }
            secondStarted = true;
            for (int i = 0; i < 2000 && !abandon.cancelled(); ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            abandoned = abandon.cancelled();
            return true;
        },
        {});
    ASSERT_TRUE(counted.has_value());
    EXPECT_EQ(*counted, std::vector<size_t>({ 1 }));
    EXPECT_TRUE(abandoned);
}

TEST(ParallelChainsAhead, CancelStopsAndAThrownExceptionIsRethrown)
{
    CancelToken cancel;
    cancel.cancel();
    EXPECT_FALSE(forEachChainAhead(
        { 3, 3 }, 2, [](size_t, size_t, const CancelToken&) { return true; }, {}, &cancel)
                     .has_value());
    EXPECT_THROW(forEachChainAhead({ 3, 3 }, 2,
                     [](size_t c, size_t k, const CancelToken&) -> bool {
                         if (c == 1 && k == 1)
                             throw std::runtime_error("step failed");
                         return true;
                     },
                     {}),
        std::runtime_error);
}

} // namespace parallel_chains_ahead_tests
