// SPDX-License-Identifier: Apache-2.0
#pragma once

// The DynamicResources Filter's verdict on a node, remembered across scheduling cycles.
//
// A search that stops after numFeasibleNodesToFind feasible nodes (node_tree.h) must filter every
// node it passes, hundreds per cycle on a large cluster, and running the allocator on each is most
// of a cycle's cost. Pods made from the same ResourceClaimTemplates ask for the same devices, and
// the allocator's answer on a node depends only on those requests and on the state of the devices
// the node sees. So the answer is kept per template list and node, and dropped when the node's
// devices change (Cluster::Impl::applyAllocation stamps the nodes an allocation touches; a device
// seen from several nodes, new slices, classes or nodes forget everything). Only answers that do
// not depend on the clock are kept: fits, cannot allocate, invalid pools.
//
// The same slots keep whole Filter verdicts (feasible_walk.cpp): a failure is then kept as a
// FilterFailure, all that it added to the cycle's counts, so that a pod that fits nowhere is told
// why from the remembered verdicts instead of filtering every node again.

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/allocator/allocator.h"

namespace drasim::scheduler {

/// What one node's failed Filter adds to a cycle: its node filters' reasons, or the
/// DynamicResources reason when those passed, and whether evicting pods there might help.
struct FilterFailure
{
    std::vector<std::string> reasons;
    int dra = -1; ///< index into kDraReasons, when the node filters passed
    bool resolvable = false;
    auto operator<=>(const FilterFailure&) const = default;
};

class DraVerdictCache
{
    struct Entry
    {
        uint64_t stamp = 0;
        int verdict = 0;
        bool set = false;
    };
    struct KeyState
    {
        std::vector<Entry> entries; ///< by node index
        /// By place in the node tree's order: a valid verdict is kept, and it is "fits". Cleared
        /// bit by bit as nodes change, so that a walk in that order reads 64 nodes at a time.
        std::vector<uint64_t> known, fits;
        /// By failure verdict: how many nodes' entries hold it, valid or not. A walk that finds
        /// every entry valid and none fitting reads its counts from here, not node by node.
        std::vector<int32_t> failures;
    };

public:
    /// The verdicts of one key, looked up once per cycle rather than once per node. Valid until
    /// the cache forgets everything (its generation then moves on); a default one holds nothing.
    struct Slot
    {
        KeyState* state = nullptr;
        uint64_t generation = 0;
        explicit operator bool() const { return state != nullptr; }
    };

    /// Forgets every verdict; `rank` is each node's place in the node tree's order from now on.
    void reset(const std::vector<uint32_t>& rank);
    /// Forgets every verdict.
    void clear();
    /// The devices or the usage of node idx changed: its verdicts are stale.
    void touch(uint32_t idx);
    /// The slot of a key (made when missing).
    Slot slot(const std::string& key);
    /// The verdict kept in the slot for node idx (-1: fits; else an index into kDraReasons).
    /// Inline: a walk of a pod that fits nowhere reads it for every node.
    std::optional<int> find(const Slot& slot, uint32_t idx) const
    {
        if (!valid(slot) || idx >= m_stamp.size())
            return std::nullopt;
        const Entry& e = slot.state->entries[idx];
        if (!e.set || e.stamp != m_stamp[idx])
            return std::nullopt;
        return e.verdict;
    }
    void store(const Slot& slot, uint32_t idx, int verdict);
    /// 64 places of the node tree's order from word `w`: which have a valid verdict, which fit.
    uint64_t knownWord(const Slot& slot, uint32_t w) const { return valid(slot) ? slot.state->known[w] : 0; }
    uint64_t fitsWord(const Slot& slot, uint32_t w) const { return valid(slot) ? slot.state->fits[w] : 0; }

    /// For a walk that expects no node to fit (feasible_walk.cpp): the nodes 0..n-1 without a
    /// valid verdict, in index order, when no valid verdict is "fits" and at most `limit` are
    /// missing; nothing otherwise.
    std::optional<std::vector<uint32_t>> unknownWhereNoneFits(
        const Slot& slot, uint32_t n, size_t limit) const
    {
        if (!valid(slot) || n > m_stamp.size())
            return std::nullopt;
        std::vector<uint32_t> unknown;
        for (uint32_t i = 0; i < n; ++i) {
            const Entry& e = slot.state->entries[i];
            if (!e.set || e.stamp != m_stamp[i]) {
                if (unknown.size() == limit)
                    return std::nullopt;
                unknown.push_back(i);
            } else if (e.verdict < 0) {
                return std::nullopt;
            }
        }
        return unknown;
    }
    /// The verdict of node idx, known to be valid.
    int knownVerdict(const Slot& slot, uint32_t idx) const { return slot.state->entries[idx].verdict; }
    /// How many nodes hold each failure verdict (by verdict), counting every node's entry: right
    /// for "every node" when each node's verdict is valid and none fits (unknownWhereNoneFits
    /// found none missing, or the missing were stored since).
    const std::vector<int32_t>& failureCounts(const Slot& slot) const { return slot.state->failures; }
    /// How many nodes the verdicts are kept for.
    uint32_t nodeCount() const { return uint32_t(m_stamp.size()); }

    /// The clock of the nodes' changes: what is worked out from some nodes now stays right while
    /// changedSince(those nodes, clock()) is false.
    uint64_t clock() const { return m_clock; }
    bool changedSince(const std::vector<uint32_t>& nodes, uint64_t clock) const
    {
        for (uint32_t idx : nodes)
            if (idx >= m_stamp.size() || m_stamp[idx] > clock)
                return true;
        return false;
    }

    /// A count worked out from node idx's devices and their allocated state alone (how many free
    /// devices some selectors accept, group_capacity.cpp), kept in a slot of its own: valid, like
    /// a verdict, while the node is unchanged. Such a slot holds counts only, never verdicts.
    std::optional<int> findCount(const Slot& slot, uint32_t idx) const { return find(slot, idx); }
    void storeCount(const Slot& slot, uint32_t idx, int count);

    /// The devices the allocator found on node idx for the slot's key when its "fits" verdict was
    /// stored. A cycle chooses among remembered verdicts, and takes the chosen node's devices from
    /// here rather than run the allocator on it once more. One attempt is kept per node, valid
    /// while the verdict it came with is (the same slot, no change to the node since).
    void keepDevices(const Slot& slot, uint32_t idx, allocator::Attempt&& attempt);
    std::optional<allocator::Attempt> takeDevices(const Slot& slot, uint32_t idx);

    /// The verdict standing for a failure (a small number, kept for the cache's life); nothing
    /// once kMaxFailures distinct failures are known, and the verdict is then not kept.
    std::optional<int> failureVerdict(const FilterFailure& failure);
    const FilterFailure& failure(int verdict) const { return m_failures[size_t(verdict)]; }

private:
    bool valid(const Slot& slot) const { return slot && slot.generation == m_generation; }
    /// Each node's last change; a verdict is valid while it carries its node's current stamp.
    std::vector<uint64_t> m_stamp;
    std::vector<uint32_t> m_rank;
    uint64_t m_clock = 0;
    uint64_t m_generation = 1;
    std::unordered_map<std::string, KeyState> m_byKey;
    /// More distinct keys than this and the cache starts over: a bound on its memory.
    static constexpr size_t kMaxKeys = 256;
    /// Distinct failures are few (a profile's filters have a handful of reasons each); a bound
    /// all the same, as taint and affinity texts may vary from node to node.
    std::vector<FilterFailure> m_failures; ///< by verdict
    struct KeptDevices
    {
        const KeyState* state = nullptr;
        uint64_t generation = 0;
        uint64_t stamp = 0;
        allocator::Attempt attempt;
    };
    std::vector<KeptDevices> m_kept; ///< by node index
    std::map<FilterFailure, int> m_failureVerdicts;
    static constexpr size_t kMaxFailures = 4096;
};

} // namespace drasim::scheduler
