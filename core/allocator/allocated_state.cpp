// SPDX-License-Identifier: Apache-2.0
#include "core/allocator/allocated_state.h"

namespace drasim::allocator {

void AllocatedState::grow(DeviceId id)
{
    if (id >= m_dedicated.size()) {
        m_dedicated.resize(id + 1, 0);
        m_shares.resize(id + 1, 0);
    }
}

bool AllocatedState::named(DeviceId id, const api::DeviceRequestAllocationResult& r) const
{
    if (id == kNoDevice || id >= m_registry.size())
        return false;
    const DeviceKey& k = m_registry.key(id);
    return k.device == r.device && k.pool == r.pool && k.driver == r.driver;
}

void AllocatedState::apply(const api::AllocationResult& allocation, int sign, std::vector<DeviceId>* ids,
    std::span<const DeviceId> known)
{
    const bool given = known.size() == allocation.results.size();
    for (size_t i = 0; i < allocation.results.size(); ++i) {
        const auto& r = allocation.results[i];
        if (r.adminAccess.value_or(false)) {
            if (ids)
                ids->push_back(kNoDevice);
            continue;
        }
        const DeviceId id
            = given && named(known[i], r) ? known[i] : m_registry.intern(r.driver, r.pool, r.device);
        if (ids)
            ids->push_back(id);
        grow(id);
        if (!r.shareID) {
            m_dedicated[id] += sign;
            continue;
        }
        m_shares[id] += sign;
        auto& sums = m_consumed[id];
        for (const auto& [name, q] : r.consumedCapacity) {
            auto it = sums.find(name);
            if (it == sums.end())
                it = sums.emplace(name, Quantity()).first;
            it->second = sign > 0 ? it->second.add(q) : it->second.sub(q);
        }
        if (m_shares[id] == 0)
            m_consumed.erase(id);
    }
}

const std::map<std::string, Quantity>* AllocatedState::consumed(DeviceId id) const
{
    auto it = m_consumed.find(id);
    return it == m_consumed.end() ? nullptr : &it->second;
}

} // namespace drasim::allocator
