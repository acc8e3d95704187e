// SPDX-License-Identifier: Apache-2.0
#include "core/sim/scheduling_queue.h"

#include <algorithm>

namespace drasim::sim {

namespace {
// Heap comparator: std heaps keep the "largest" on top, so invert the queue order.
bool heapLess(const QueueKey& x, const QueueKey& y)
{
    return y < x;
}
} // namespace

uint32_t SchedulingQueue::groupFor(const std::string& signature)
{
    auto [it, inserted] = m_groupIds.emplace(signature, uint32_t(m_groups.size()));
    if (inserted)
        m_groups.emplace_back();
    return it->second;
}

void SchedulingQueue::pushActive(const QueueKey& key)
{
    m_active.push_back(key);
    std::push_heap(m_active.begin(), m_active.end(), heapLess);
}

QueueKey SchedulingQueue::popActive()
{
    std::pop_heap(m_active.begin(), m_active.end(), heapLess);
    QueueKey key = m_active.back();
    m_active.pop_back();
    return key;
}

void SchedulingQueue::park(uint32_t group, const QueueKey& key)
{
    Group& g = m_groups[group];
    if (g.parked.insert(key).second) {
        ++m_parkedTotal;
        m_parkedGroups.insert(group);
    }
}

void SchedulingQueue::unpark(uint32_t group, const QueueKey& key)
{
    Group& g = m_groups[group];
    if (g.parked.erase(key) > 0) {
        --m_parkedTotal;
        if (g.parked.empty())
            m_parkedGroups.erase(group);
    }
}

void SchedulingQueue::markBlocked(uint32_t group, uint64_t generation, uint32_t reason)
{
    Group& g = m_groups[group];
    g.blocked = true;
    g.blockedGeneration = generation;
    g.reason = reason;
}

bool SchedulingQueue::blockedAt(uint32_t group, uint64_t generation) const
{
    const Group& g = m_groups[group];
    return g.blocked && g.blockedGeneration == generation;
}

void SchedulingQueue::noteFailure(uint32_t group, uint32_t rejectedBy, int64_t at)
{
    Group& g = m_groups[group];
    g.rejectedBy = rejectedBy;
    g.failedAt = at;
}

const SchedulingQueue::Released& SchedulingQueue::releaseRepresentatives(uint64_t generation)
{
    return releaseWhere([&](uint32_t id) {
        const Group& g = m_groups[id];
        return !(g.blocked && g.blockedGeneration == generation);
    });
}

void SchedulingQueue::takeRepresentatives(Released& chosen)
{
    for (const auto& [id, key] : chosen) {
        Group& g = m_groups[id];
        g.parked.erase(g.parked.begin());
        --m_parkedTotal;
        g.representativeOut = true;
        if (g.parked.empty())
            m_parkedGroups.erase(id);
    }
    std::sort(chosen.begin(), chosen.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
}

bool SchedulingQueue::representativeDone(uint32_t group, bool scheduled, uint64_t generation, QueueKey* next)
{
    Group& g = m_groups[group];
    g.representativeOut = false;
    if (!scheduled || g.parked.empty() || (g.blocked && g.blockedGeneration == generation))
        return false;
    *next = *g.parked.begin();
    g.parked.erase(g.parked.begin());
    --m_parkedTotal;
    g.representativeOut = true;
    if (g.parked.empty())
        m_parkedGroups.erase(group);
    return true;
}

} // namespace drasim::sim
