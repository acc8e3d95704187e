// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <utility>
#include <vector>

#include "core/scheduler/queueing_hints.h"

namespace drasim::scheduler {

/// The changes a scheduling queue has not seen yet (Cluster::takeChanges). Nothing is kept until
/// someone asks for the first time, so a cluster whose changes nobody reads does not grow a log.
/// A transaction that rolls back truncates it to where it began, as it does with every counter.
class ChangeLog
{
public:
    void record(ClusterChange change)
    {
        if (m_reading)
            m_changes.push_back(std::move(change));
    }
    /// Replaces `into` with the changes since the last call; the two buffers trade places, so
    /// neither side allocates once both have grown.
    void take(std::vector<ClusterChange>& into)
    {
        m_reading = true;
        into.clear();
        std::swap(into, m_changes);
    }
    size_t size() const { return m_changes.size(); }
    void truncate(size_t size)
    {
        if (size < m_changes.size())
            m_changes.resize(size);
    }

private:
    bool m_reading = false;
    std::vector<ClusterChange> m_changes;
};

} // namespace drasim::scheduler
