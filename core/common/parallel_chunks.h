// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <functional>

namespace drasim {

/// How many contiguous chunks to cut `count` items into for up to `threads` threads (0: every
/// core the machine reports), when a chunk should hold at least `minPerChunk` items to be worth
/// a thread. At least 1; 1 means "do it serially on the caller's thread".
unsigned chunkCount(size_t count, unsigned threads, size_t minPerChunk);

/// Calls body(chunk, begin, end) for `chunks` contiguous, ordered ranges covering [0, count),
/// each on its own std::thread (the caller's thread takes chunk 0; new threads inherit its
/// scheduling priority). Returns when every chunk is done; the first exception a chunk threw is
/// rethrown then. Callers write chunk c's results to slot c and merge them in chunk order, so the
/// outcome does not depend on the number of chunks.
void forEachChunk(
    size_t count, unsigned chunks, const std::function<void(unsigned chunk, size_t begin, size_t end)>& body);

} // namespace drasim
