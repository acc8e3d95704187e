// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/dra_verdicts.h"

namespace drasim::scheduler {

void DraVerdictCache::reset(const std::vector<uint32_t>& rank)
{
    clear();
    m_stamp.assign(rank.size(), 0);
    m_rank = rank;
    m_kept.clear();
    m_kept.resize(rank.size());
}

void DraVerdictCache::clear()
{
    m_byKey.clear();
    ++m_generation;
}

void DraVerdictCache::touch(uint32_t idx)
{
    if (idx >= m_stamp.size())
        return;
    m_stamp[idx] = ++m_clock;
    const uint32_t r = m_rank[idx];
    for (auto& [key, st] : m_byKey) {
        st.known[r / 64] &= ~(uint64_t(1) << (r % 64));
        st.fits[r / 64] &= ~(uint64_t(1) << (r % 64));
    }
}

DraVerdictCache::Slot DraVerdictCache::slot(const std::string& key)
{
    auto it = m_byKey.find(key);
    if (it == m_byKey.end()) {
        if (m_byKey.size() >= kMaxKeys)
            clear();
        KeyState st;
        st.entries.resize(m_stamp.size());
        st.known.assign((m_stamp.size() + 63) / 64, 0);
        st.fits.assign(st.known.size(), 0);
        it = m_byKey.emplace(key, std::move(st)).first;
    }
    // Elements of an unordered_map stay where they are when it grows; only clear() drops them,
    // and it moves the generation on.
    return Slot { &it->second, m_generation };
}

void DraVerdictCache::store(const Slot& slot, uint32_t idx, int verdict)
{
    if (!valid(slot) || idx >= m_stamp.size())
        return;
    Entry& e = slot.state->entries[idx];
    auto& failures = slot.state->failures;
    if (e.set && e.verdict >= 0)
        --failures[size_t(e.verdict)];
    if (verdict >= 0) {
        if (size_t(verdict) >= failures.size())
            failures.resize(size_t(verdict) + 1, 0);
        ++failures[size_t(verdict)];
    }
    e = Entry { m_stamp[idx], verdict, true };
    const uint32_t r = m_rank[idx];
    const uint64_t bit = uint64_t(1) << (r % 64);
    slot.state->known[r / 64] |= bit;
    if (verdict < 0)
        slot.state->fits[r / 64] |= bit;
    else
        slot.state->fits[r / 64] &= ~bit;
}

void DraVerdictCache::storeCount(const Slot& slot, uint32_t idx, int count)
{
    // Not marked known: the walks that read those bits read verdicts, never counts.
    if (valid(slot) && idx < m_stamp.size())
        slot.state->entries[idx] = Entry { m_stamp[idx], count, true };
}

std::optional<int> DraVerdictCache::failureVerdict(const FilterFailure& failure)
{
    if (auto it = m_failureVerdicts.find(failure); it != m_failureVerdicts.end())
        return it->second;
    if (m_failures.size() >= kMaxFailures)
        return std::nullopt;
    m_failures.push_back(failure);
    m_failureVerdicts.emplace(failure, int(m_failures.size() - 1));
    return int(m_failures.size() - 1);
}

void DraVerdictCache::keepDevices(const Slot& slot, uint32_t idx, allocator::Attempt&& attempt)
{
    if (!valid(slot) || idx >= m_kept.size())
        return;
    KeptDevices& k = m_kept[idx];
    k.state = slot.state;
    k.generation = m_generation;
    k.stamp = m_stamp[idx];
    k.attempt = std::move(attempt);
}

std::optional<allocator::Attempt> DraVerdictCache::takeDevices(const Slot& slot, uint32_t idx)
{
    if (!valid(slot) || idx >= m_kept.size())
        return std::nullopt;
    KeptDevices& k = m_kept[idx];
    if (k.state != slot.state || k.generation != m_generation || k.stamp != m_stamp[idx])
        return std::nullopt;
    k.state = nullptr;
    return std::move(k.attempt);
}

} // namespace drasim::scheduler
