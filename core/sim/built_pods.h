// SPDX-License-Identifier: Apache-2.0
#pragma once

// The api::Pods of the latest scheduling cycles, kept for the pods' next cycles. A pending pod is
// tried again after most changes of the cluster, and building its Pod from its job's template
// each time (the spec copied, the labels merged) was a tenth of a run with a long queue. What a
// pod's Pod holds (its job's spec and template, its name and serial) does not change while it
// waits, so a kept Pod is exactly the one building it again would give. Bounded: once full, each
// new Pod takes the place of the oldest.
//
// A pod that is bound or gone gives its Pod back (release): the next pod's Pod is built over it,
// reusing its strings, containers and map nodes instead of allocating them all again (most pods
// of a run are built from a few templates, so the shapes match). A Pod built over one from the
// same template keeps its spec as it is (a template never changes), so a free entry built from
// the new pod's template is taken first; while there is room, a new entry is made rather than
// one of another template taken (consecutive pods of a trace mostly come from different
// templates: the free entries kept so cover more of them).

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/api/core_v1.h"

namespace drasim::sim {

class BuiltPods
{
public:
    static constexpr size_t kCapacity = 1024;

    /// The kept Pod of the pod with this serial, or the one `build` makes (then kept). `slot` is
    /// the pod's own note of where its Pod was kept (-1: nowhere yet); it is updated. `build`
    /// fills the api::Pod it is given, which is a default Pod or one `build` filled before, and
    /// is given the template that Pod was built from too (null for a default Pod), to update.
    /// `tmpl` is the template the pod's Pod is built from (which entry is taken).
    template <class Build>
    const api::Pod& get(uint64_t serial, int32_t& slot, const api::PodTemplateSpec* tmpl, Build&& build)
    {
        if (slot >= 0 && size_t(slot) < m_entries.size() && m_entries[size_t(slot)].serial == serial)
            return m_entries[size_t(slot)].pod;
        size_t at = 0;
        if (!takeFree(tmpl, at)) {
            if (m_entries.size() < kCapacity) {
                m_entries.emplace_back();
                at = m_entries.size() - 1;
            } else {
                // Every entry is held by a pending pod: the oldest build gives way (its pod builds
                // again at its next cycle).
                at = m_next;
                m_next = (m_next + 1) % kCapacity;
            }
        }
        Entry& e = m_entries[at];
        e.serial = serial;
        build(e.pod, e.from);
        slot = int32_t(at);
        return e.pod;
    }

    /// The pod with this serial no longer needs its Pod (bound, or gone): its entry is reused.
    void release(uint64_t serial, int32_t& slot)
    {
        if (slot >= 0 && size_t(slot) < m_entries.size() && m_entries[size_t(slot)].serial == serial) {
            m_entries[size_t(slot)].serial = 0; // no pod has serial 0
            m_free.push_back(uint32_t(slot));
        }
        slot = -1;
    }

private:
    /// How many of the latest free entries are looked at for one built from the same template.
    static constexpr size_t kFreeScan = 64;

    /// Takes a free entry into `at`: one built from `tmpl` among the latest released, else (no
    /// room for a new entry) the latest released. False: none taken.
    bool takeFree(const api::PodTemplateSpec* tmpl, size_t& at)
    {
        const size_t n = m_free.size();
        if (n == 0)
            return false;
        const size_t scan = std::min(n, kFreeScan);
        size_t i = 1;
        while (i <= scan && m_entries[m_free[n - i]].from.get() != tmpl)
            ++i;
        if (i > scan) {
            if (m_entries.size() < kCapacity)
                return false;
            i = 1;
        }
        std::swap(m_free[n - i], m_free[n - 1]);
        at = m_free.back();
        m_free.pop_back();
        return true;
    }

    struct Entry
    {
        uint64_t serial = 0;
        api::Pod pod;
        /// The template `pod` was built from. Held, so that no other template can be at its
        /// address: the same pointer is the same template.
        std::shared_ptr<const api::PodTemplateSpec> from;
    };
    std::vector<Entry> m_entries;
    std::vector<uint32_t> m_free; ///< entries no pod holds
    size_t m_next = 0;
};

} // namespace drasim::sim
