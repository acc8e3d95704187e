// SPDX-License-Identifier: Apache-2.0
#pragma once

// The api::Pods of the latest scheduling cycles, kept for the pods' next cycles. A pending pod is
// tried again after most changes of the cluster, and building its Pod from its job's template
// each time (the spec copied, the labels merged) was a tenth of a run with a long queue. What a
// pod's Pod holds (its job's spec and template, its name and serial) does not change while it
// waits, so a kept Pod is exactly the one building it again would give. Bounded: once full, each
// new Pod takes the place of the oldest.

#include <cstdint>
#include <utility>
#include <vector>

#include "core/api/core_v1.h"

namespace drasim::sim {

class BuiltPods
{
public:
    static constexpr size_t kCapacity = 1024;

    /// The kept Pod of the pod with this serial, or the one `build` makes (then kept). `slot` is
    /// the pod's own note of where its Pod was kept (-1: nowhere yet); it is updated.
    template <class Build> const api::Pod& get(uint64_t serial, int32_t& slot, Build&& build)
    {
        if (slot >= 0 && size_t(slot) < m_entries.size() && m_entries[size_t(slot)].serial == serial)
            return m_entries[size_t(slot)].pod;
        if (m_entries.size() < kCapacity) {
            m_entries.push_back(Entry { serial, build() });
            slot = int32_t(m_entries.size() - 1);
            return m_entries.back().pod;
        }
        Entry& e = m_entries[m_next];
        e.serial = serial;
        e.pod = build();
        slot = int32_t(m_next);
        m_next = (m_next + 1) % kCapacity;
        return e.pod;
    }

private:
    struct Entry
    {
        uint64_t serial = 0;
        api::Pod pod;
    };
    std::vector<Entry> m_entries;
    size_t m_next = 0;
};

} // namespace drasim::sim
