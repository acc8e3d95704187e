// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace drasim::sim {

using PodId = uint32_t;

/// Queue order of kube-scheduler's default PrioritySort: higher priority first, then the pod that
/// entered the queue first. `order` is the pod's creation sequence number (its initial queue
/// timestamp), so the order is total and deterministic.
struct QueueKey
{
    int32_t priority = 0;
    uint64_t order = 0;
    PodId pod = 0;

    bool operator<(const QueueKey& o) const
    {
        if (priority != o.priority)
            return priority > o.priority;
        if (order != o.order)
            return order < o.order;
        return pod < o.pod;
    }
    bool operator==(const QueueKey&) const = default;
};

/// kube-scheduler's scheduling queue (activeQ, unschedulable pods; backoffQ is timed events in
/// the engine), organised so that the cost of an event does not grow with the number of pending
/// pods.
///
/// Pods with the same scheduling signature (everything in the spec that decides where a pod can
/// go: namespace, claims and templates, selectors, affinity, tolerations, requests) form an
/// equivalence group. If one member does not fit, none does, until the cluster's capacity
/// generation changes. So:
///  * a failed pod is parked in its group, which is marked blocked at the current generation;
///  * a new pod whose group is blocked at the current generation is parked without an attempt
///    (the attempt would fail with the same message: same outcome as upstream, less work);
///  * when the generation changes, one representative per blocked group (its first pod in queue
///    order) goes back to the activeQ; if it binds, the next one follows, and so on; if it fails the
///    group is blocked again. Upstream moves every unschedulable pod instead, which is O(pending)
///    per event; the outcome is the same because the members that are not tried would fail.
class SchedulingQueue
{
public:
    /// Returns the group id of a signature (interned; ids are dense and start at 0).
    uint32_t groupFor(const std::string& signature);
    size_t groupCount() const { return m_groups.size(); }

    void pushActive(const QueueKey& key);
    bool activeEmpty() const { return m_active.empty(); }
    size_t activeSize() const { return m_active.size(); }
    /// Pops the first pod in queue order. Entries may be stale (the engine checks the pod state).
    QueueKey popActive();

    /// Parks a pod that is unschedulable (or known to be) in its group.
    void park(uint32_t group, const QueueKey& key);
    /// Removes a parked pod (its job was deleted). No-op if absent.
    void unpark(uint32_t group, const QueueKey& key);
    /// Records that a member of the group failed at this generation with this reason.
    void markBlocked(uint32_t group, uint64_t generation, uint32_t reason);
    /// True when a member already failed at this generation (a new pod of the group cannot fit).
    bool blockedAt(uint32_t group, uint64_t generation) const;

    /// A member's scheduling attempt failed at `at` (simulated time), rejected by these plugins
    /// (scheduler::PluginSet, queueing_hints.h): the changes that may help it and the time its
    /// unschedulable stay is counted from.
    void noteFailure(uint32_t group, uint32_t rejectedBy, int64_t at);
    uint32_t rejectedBy(uint32_t group) const { return m_groups[group].rejectedBy; }
    int64_t failedAt(uint32_t group) const { return m_groups[group].failedAt; }
    using Released = std::vector<std::pair<uint32_t, QueueKey>>;
    /// Takes one representative out of every parked group that has none out and for which
    /// `release(group)` says yes (queueing hints, the unschedulable flush). Ordered by queue key;
    /// valid until the next release (one buffer serves them all: this runs after every change).
    template <class Release> const Released& releaseWhere(const Release& release)
    {
        m_released.clear();
        for (uint32_t id : m_parkedGroups)
            if (!m_groups[id].representativeOut && release(id))
                m_released.emplace_back(id, *m_groups[id].parked.begin());
        takeRepresentatives(m_released);
        return m_released;
    }
    /// Takes one representative out of every parked group blocked before `generation` that has
    /// none out already. Ordered by queue key, so the engine can push them in a stable order;
    /// valid until the next release.
    const Released& releaseRepresentatives(uint64_t generation);
    /// The representative's attempt ended. On success, returns the group's next parked pod (taken
    /// out as the new representative) if the group may still fit; otherwise returns false.
    bool representativeDone(uint32_t group, bool scheduled, uint64_t generation, QueueKey* next);

    size_t parkedCount() const { return m_parkedTotal; }
    size_t parkedInGroup(uint32_t group) const { return m_groups[group].parked.size(); }
    uint32_t groupReason(uint32_t group) const { return m_groups[group].reason; }
    /// First pod of a group that has parked pods.
    QueueKey firstParked(uint32_t group) const { return *m_groups[group].parked.begin(); }
    /// Groups that currently have parked pods, ascending by id.
    const std::set<uint32_t>& parkedGroups() const { return m_parkedGroups; }

private:
    /// Takes the chosen representatives out of their groups and sorts them by queue key.
    void takeRepresentatives(Released& chosen);

    struct Group
    {
        std::set<QueueKey> parked;
        uint64_t blockedGeneration = 0;
        bool blocked = false;
        bool representativeOut = false;
        uint32_t reason = 0;
        uint32_t rejectedBy = 0;
        int64_t failedAt = 0;
    };

    std::vector<QueueKey> m_active; ///< binary heap, first in queue order on top
    std::vector<Group> m_groups;
    std::map<std::string, uint32_t> m_groupIds;
    std::set<uint32_t> m_parkedGroups;
    size_t m_parkedTotal = 0;
    Released m_released; ///< what the last release took out
};

} // namespace drasim::sim
