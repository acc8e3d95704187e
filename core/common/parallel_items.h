// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <functional>

#include "core/common/progress.h"

namespace drasim {

/// Calls body(i) for every i in [0, count) on up to `threads` threads (0: every core the machine
/// reports; the caller's thread is one of them, and new threads inherit its scheduling priority).
/// Each thread takes the next index from a shared counter until none is left, so items of uneven
/// cost (simulations, replays) keep every thread busy; which thread runs an item varies, so
/// callers write body(i)'s result to slot i and the outcome does not depend on the thread count.
/// Once `cancel` is raised no further item starts (those running finish) and the call returns
/// false; true when every item ran. The first exception a body threw is rethrown once every
/// thread is done (forEachChunk).
bool forEachItem(size_t count, unsigned threads, const std::function<void(size_t)>& body,
    const CancelToken* cancel = nullptr);

} // namespace drasim
