// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

#include "core/sim/scheduling_loop.h"

namespace drasim::sim {

/// A scheduling cycle that ends in an error status rather than Unschedulable (a fatal allocator
/// error, a refused claim status update) (scheduling_loop_errors.cpp).
struct SchedulingLoop::Errors
{
    /// Whether the outcome goes to the error backoff queue: it is an error and the queueing hints
    /// are on (without them drasim keeps its earlier model, which parks every failure).
    static bool backsOff(const SchedulingLoop& loop, const BindOutcome& out)
    {
        return out.error && loop.m_hints;
    }
    /// The pod waits out its backoff in the error backoff queue and is then tried again,
    /// whatever changes meanwhile.
    static void backOff(SchedulingLoop& loop, uint32_t id, const BindOutcome& out);
};

} // namespace drasim::sim
