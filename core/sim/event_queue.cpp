// SPDX-License-Identifier: Apache-2.0
#include "core/sim/event_queue.h"

#include <algorithm>

namespace drasim::sim {

namespace {
// std heap algorithms build a max-heap, so "greater" puts the earliest event on top.
bool later(const Event& x, const Event& y)
{
    if (x.time != y.time)
        return x.time > y.time;
    return x.seq > y.seq;
}
} // namespace

uint64_t EventQueue::push(SimTime time, EventKind kind, uint32_t a, uint64_t b, uint32_t c)
{
    uint64_t seq = m_nextSeq++;
    m_heap.push_back(Event { time, seq, kind, a, c, b });
    std::push_heap(m_heap.begin(), m_heap.end(), later);
    return seq;
}

Event EventQueue::pop()
{
    std::pop_heap(m_heap.begin(), m_heap.end(), later);
    Event e = m_heap.back();
    m_heap.pop_back();
    return e;
}

} // namespace drasim::sim
