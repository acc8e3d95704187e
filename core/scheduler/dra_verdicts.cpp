// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/dra_verdicts.h"

namespace drasim::scheduler {

void DraVerdictCache::reset(size_t nodes)
{
    clear();
    m_stamp.assign(nodes, 0);
}

void DraVerdictCache::clear()
{
    m_byKey.clear();
    ++m_generation;
}

void DraVerdictCache::touch(uint32_t idx)
{
    if (idx < m_stamp.size())
        m_stamp[idx] = ++m_clock;
}

DraVerdictCache::Slot DraVerdictCache::slot(const std::string& key)
{
    auto it = m_byKey.find(key);
    if (it == m_byKey.end()) {
        if (m_byKey.size() >= kMaxKeys)
            clear();
        it = m_byKey.emplace(key, std::vector<Entry>(m_stamp.size())).first;
    }
    // Elements of an unordered_map stay where they are when it grows; only clear() drops them,
    // and it moves the generation on.
    return Slot { &it->second, m_generation };
}

std::optional<int> DraVerdictCache::find(const Slot& slot, uint32_t idx) const
{
    if (!slot || slot.generation != m_generation || idx >= m_stamp.size())
        return std::nullopt;
    const Entry& e = (*slot.entries)[idx];
    if (!e.set || e.stamp != m_stamp[idx])
        return std::nullopt;
    return e.verdict;
}

void DraVerdictCache::store(const Slot& slot, uint32_t idx, int verdict)
{
    if (slot && slot.generation == m_generation && idx < m_stamp.size())
        (*slot.entries)[idx] = Entry { m_stamp[idx], verdict, true };
}

} // namespace drasim::scheduler
