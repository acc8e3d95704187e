// SPDX-License-Identifier: Apache-2.0
#include "core/common/parallel_items.h"

#include <atomic>

#include "core/common/parallel_chunks.h"

namespace drasim {

bool forEachItem(
    size_t count, unsigned threads, const std::function<void(size_t)>& body, const CancelToken* cancel)
{
    std::atomic<size_t> next { 0 };
    std::atomic<bool> stopped { false };
    const unsigned workers = chunkCount(count, threads, 1);
    // One "chunk" per worker; the workers share the items through the counter.
    forEachChunk(workers, workers, [&](unsigned, size_t, size_t) {
        for (size_t i = next++; i < count; i = next++) {
            if (cancel && cancel->cancelled()) {
                stopped = true;
                return;
            }
            body(i);
        }
    });
    return !stopped;
}

} // namespace drasim
