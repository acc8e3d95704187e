// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <functional>

namespace drasim::planner {

/// Threads to use for `requested` (0 = every core the machine reports, at least 1).
unsigned resolveThreads(unsigned requested);

/// Calls body(i) for every i in [0, count) on up to `threads` std::threads (the caller's thread
/// is one of them). Items are taken in index order from a shared counter, so the assignment of
/// items to threads varies but each result lands in its own slot: callers write body(i)'s result
/// to index i and the outcome does not depend on the thread count.
void parallelFor(size_t count, unsigned threads, const std::function<void(size_t)>& body);

} // namespace drasim::planner
