// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <functional>

#include "core/common/progress.h"

namespace drasim {

/// Runs `chains` sequences of steps on up to `threads` threads (0: every core the machine
/// reports; the caller's thread is one of them). Step 0 of every chain is started in chain order;
/// when body(c, k) returns true, step k + 1 of chain c follows, and false ends the chain. The
/// steps of one chain never overlap and run in order, so a step may read what the ones before it
/// wrote; different chains run side by side. A continuing chain goes ahead of chains not yet
/// started (a chain begun is finished first), so a caller that orders its chains longest first
/// keeps every thread busy to the end. Which thread runs a step varies: callers write results to
/// their chain's slots, and what runs depends only on the steps' own answers, never on the
/// thread count. Once `cancel` is raised no further step starts (those running finish) and the
/// call returns false. The first exception a step threw stops every chain and is rethrown once
/// every thread is done.
bool forEachChain(size_t chains, unsigned threads, const std::function<bool(size_t chain, size_t step)>& body,
    const CancelToken* cancel = nullptr);

} // namespace drasim
