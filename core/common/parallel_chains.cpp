// SPDX-License-Identifier: Apache-2.0
#include "core/common/parallel_chains.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <utility>

#include "core/common/parallel_chunks.h"

namespace drasim {

namespace {

/// The steps ready to run and the bookkeeping that tells a waiting thread when no more can come.
struct ChainQueue
{
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<std::pair<size_t, size_t>> ready; ///< (chain, step)
    size_t running = 0;
    bool stopped = false; ///< cancelled or a step threw
    std::exception_ptr error;

    /// The next step to run; false when every chain has ended or the run stopped.
    bool take(std::pair<size_t, size_t>& out, const CancelToken* cancel)
    {
        std::unique_lock<std::mutex> lock(mutex);
        for (;;) {
            if (cancel && cancel->cancelled())
                stopped = true;
            if (stopped)
                return false;
            if (!ready.empty()) {
                out = ready.front();
                ready.pop_front();
                ++running;
                return true;
            }
            // Nothing ready: a running step may still continue its chain.
            if (running == 0)
                return false;
            changed.wait(lock);
        }
    }

    void finish(size_t chain, size_t step, bool continues, std::exception_ptr thrown)
    {
        {
            std::lock_guard<std::mutex> lock(mutex);
            --running;
            if (thrown && !error) {
                error = thrown;
                stopped = true;
            }
            if (continues && !stopped)
                ready.emplace_front(chain, step + 1);
        }
        changed.notify_all();
    }
};

} // namespace

bool forEachChain(size_t chains, unsigned threads, const std::function<bool(size_t, size_t)>& body,
    const CancelToken* cancel)
{
    ChainQueue queue;
    for (size_t c = 0; c < chains; ++c)
        queue.ready.emplace_back(c, 0);
    const unsigned workers = chunkCount(chains, threads, 1);
    forEachChunk(workers, workers, [&](unsigned, size_t, size_t) {
        std::pair<size_t, size_t> item;
        while (queue.take(item, cancel)) {
            bool continues = false;
            std::exception_ptr thrown;
            try {
                continues = body(item.first, item.second);
            } catch (...) {
                thrown = std::current_exception();
            }
            queue.finish(item.first, item.second, continues, thrown);
        }
    });
    if (queue.error)
        std::rethrow_exception(queue.error);
    return !queue.stopped;
}

} // namespace drasim
