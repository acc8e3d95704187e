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

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace drasim::scheduler {

class DraVerdictCache
{
    struct Entry
    {
        uint64_t stamp = 0;
        int verdict = 0;
        bool set = false;
    };

public:
    /// The verdicts of one key, looked up once per cycle rather than once per node. Valid until
    /// the cache forgets everything (its generation then moves on); a default one holds nothing.
    struct Slot
    {
        std::vector<Entry>* entries = nullptr;
        uint64_t generation = 0;
        explicit operator bool() const { return entries != nullptr; }
    };

    /// Forgets every verdict; `nodes` is the number of nodes from now on.
    void reset(size_t nodes);
    /// Forgets every verdict.
    void clear();
    /// The devices node idx sees changed state: its verdicts are stale.
    void touch(uint32_t idx);
    /// The slot of a template list (made when missing).
    Slot slot(const std::string& key);
    /// The verdict kept in the slot for node idx (-1: fits; else an index into kDraReasons).
    std::optional<int> find(const Slot& slot, uint32_t idx) const;
    void store(const Slot& slot, uint32_t idx, int verdict);

private:
    /// Each node's last change; a verdict is valid while it carries its node's current stamp.
    std::vector<uint64_t> m_stamp;
    uint64_t m_clock = 0;
    uint64_t m_generation = 1;
    std::unordered_map<std::string, std::vector<Entry>> m_byKey;
    /// More distinct template lists than this and the cache starts over: a bound on its memory.
    static constexpr size_t kMaxKeys = 256;
};

} // namespace drasim::scheduler
