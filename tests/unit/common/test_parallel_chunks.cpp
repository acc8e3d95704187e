// SPDX-License-Identifier: Apache-2.0
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "core/common/parallel_chunks.h"

using drasim::chunkCount;
using drasim::forEachChunk;

TEST(ParallelChunks, ChunksCoverEveryItemOnceInOrder)
{
    for (size_t count : { 0u, 1u, 5u, 64u, 1000u, 1001u }) {
        for (unsigned chunks : { 1u, 2u, 3u, 8u, 200u }) {
            std::vector<std::pair<size_t, size_t>> ranges(chunks, { 0, 0 });
            std::vector<std::atomic<int>> seen(count);
            std::mutex mutex;
            unsigned calls = 0;
            forEachChunk(count, chunks, [&](unsigned c, size_t begin, size_t end) {
                for (size_t i = begin; i < end; ++i)
                    seen[i]++;
                const std::lock_guard lock(mutex);
                ranges[c] = { begin, end };
                ++calls;
            });
            for (size_t i = 0; i < count; ++i)
                EXPECT_EQ(seen[i], 1) << count << " items, " << chunks << " chunks, item " << i;
            ASSERT_GE(calls, 1u);
            // Chunk c ends where chunk c + 1 begins; sizes differ by one at most.
            EXPECT_EQ(ranges[0].first, 0u);
            EXPECT_EQ(ranges[calls - 1].second, count);
            for (unsigned c = 0; c + 1 < calls; ++c) {
                EXPECT_EQ(ranges[c].second, ranges[c + 1].first);
                const size_t a = ranges[c].second - ranges[c].first;
                const size_t b = ranges[c + 1].second - ranges[c + 1].first;
                EXPECT_LE(a > b ? a - b : b - a, 1u);
            }
        }
    }
}

TEST(ParallelChunks, ChunkCountFollowsTheWorkAndTheThreads)
{
    EXPECT_EQ(chunkCount(0, 4, 64), 1u);
    EXPECT_EQ(chunkCount(100, 4, 64), 1u); // not worth a second thread
    EXPECT_EQ(chunkCount(128, 4, 64), 2u);
    EXPECT_EQ(chunkCount(10000, 4, 64), 4u);
    EXPECT_EQ(chunkCount(10000, 1, 64), 1u);
    EXPECT_GE(chunkCount(10000, 0, 64), 1u); // every core the machine has
    EXPECT_EQ(chunkCount(5, 3, 0), 3u); // no minimum: one item a chunk is fine
}

TEST(ParallelChunks, AChunksExceptionReachesTheCallerAfterEveryChunkEnded)
{
    std::atomic<int> finished { 0 };
    try {
        forEachChunk(400, 4, [&](unsigned c, size_t, size_t) {
            if (c == 2)
                throw std::runtime_error("chunk 2 failed");
            finished++;
        });
        FAIL() << "the exception was swallowed";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "chunk 2 failed");
    }
    EXPECT_EQ(finished, 3);
}
