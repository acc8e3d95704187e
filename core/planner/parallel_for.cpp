// SPDX-License-Identifier: Apache-2.0
#include "core/planner/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace drasim::planner {

unsigned resolveThreads(unsigned requested)
{
    if (requested > 0)
        return requested;
    return std::max(1u, std::thread::hardware_concurrency());
}

void parallelFor(size_t count, unsigned threads, const std::function<void(size_t)>& body)
{
    std::atomic<size_t> next { 0 };
    auto work = [&] {
        for (size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1))
            body(i);
    };
    const size_t helpers = std::min<size_t>(threads > 0 ? threads - 1 : 0, count > 0 ? count - 1 : 0);
    std::vector<std::thread> pool;
    pool.reserve(helpers);
    for (size_t t = 0; t < helpers; ++t)
        pool.emplace_back(work);
    work();
    for (auto& t : pool)
        t.join();
}

} // namespace drasim::planner
