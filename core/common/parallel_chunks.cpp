// SPDX-License-Identifier: Apache-2.0
#include "core/common/parallel_chunks.h"

#include <algorithm>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace drasim {

unsigned chunkCount(size_t count, unsigned threads, size_t minPerChunk)
{
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    const size_t byWork = count / std::max<size_t>(1, minPerChunk);
    return unsigned(std::max<size_t>(1, std::min<size_t>(threads, byWork)));
}

void forEachChunk(
    size_t count, unsigned chunks, const std::function<void(unsigned chunk, size_t begin, size_t end)>& body)
{
    chunks = unsigned(std::clamp<size_t>(chunks, 1, std::max<size_t>(1, count)));
    if (chunks == 1) {
        body(0, 0, count);
        return;
    }
    std::vector<std::exception_ptr> failures(chunks);
    auto run = [&](unsigned c) {
        // Even split; the first count % chunks chunks take one item more.
        const size_t base = count / chunks;
        const size_t extra = count % chunks;
        const size_t begin = c * base + std::min<size_t>(c, extra);
        const size_t end = begin + base + (c < extra ? 1 : 0);
        try {
            body(c, begin, end);
        } catch (...) {
            failures[c] = std::current_exception();
        }
    };
    std::vector<std::thread> threads;
    threads.reserve(chunks - 1);
    for (unsigned c = 1; c < chunks; ++c) {
        try {
            threads.emplace_back(run, c);
        } catch (const std::system_error&) {
            run(c); // no thread to be had: this one does the chunk itself
        }
    }
    run(0);
    for (auto& t : threads)
        t.join();
    for (const auto& f : failures)
        if (f)
            std::rethrow_exception(f);
}

} // namespace drasim
