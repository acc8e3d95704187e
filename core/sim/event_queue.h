// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "core/sim/sim_time.h"

namespace drasim::sim {

/// What an event does; the payload fields a/b are interpreted per kind by the engine.
enum class EventKind : uint8_t {
    Arrival, ///< the next job of the arrival stream is due
    PodCreate, ///< a = job slot, b = job serial, c = task: the job controller replaces failed pods
    PodComplete, ///< a = pod slot, b = pod serial (stale completions of evicted pods are ignored)
    BackoffExpired, ///< a = pod slot, b = pod serial: the pod leaves backoffQ for activeQ (only
                    ///< without SchedulerPopFromBackoffQ; with it backoffQ never outlives an event)
    Injected, ///< a = index into the scenario's event list
    TaintEviction, ///< a = pod slot, b = pod serial: a tolerated NoExecute device taint's time is up
    NodeTaintEviction, ///< a = pod slot, b = pod serial: the same for a NoExecute node taint
    GroupBackoffExpired, ///< a = job slot, b = job serial: its PodGroup's backoff is over
    VictimGone, ///< a = pod slot, b = pod serial: a preemption victim's grace period is over
    UnschedulableFlush, ///< the scheduling queue moves pods unschedulable for over 5 minutes
    PermitTimeout, ///< a = job slot, b = job serial: its 1.35 gang's deadline at Permit has come
    Sample, ///< metric sample at this time
    End, ///< scenario duration reached
};

struct Event
{
    SimTime time = 0;
    uint64_t seq = 0; ///< insertion order: ties at equal time are processed first-in first-out
    EventKind kind = EventKind::End;
    uint32_t a = 0;
    uint32_t c = 0;
    uint64_t b = 0;
};

/// Min-heap of events ordered by (time, sequence). Plain binary heap over a vector: O(log n)
/// push/pop and no allocation per event once warmed up.
class EventQueue
{
public:
    /// Schedules an event; returns its sequence number.
    uint64_t push(SimTime time, EventKind kind, uint32_t a = 0, uint64_t b = 0, uint32_t c = 0);
    /// Removes and returns the earliest event. Precondition: !empty().
    Event pop();
    const Event& top() const { return m_heap.front(); }
    bool empty() const { return m_heap.empty(); }
    size_t size() const { return m_heap.size(); }
    uint64_t pushed() const { return m_nextSeq; }

private:
    std::vector<Event> m_heap;
    uint64_t m_nextSeq = 0;
};

} // namespace drasim::sim
