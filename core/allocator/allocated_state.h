// SPDX-License-Identifier: Apache-2.0
#pragma once

// Devices in use by allocated claims (§3.1): dedicated results mark a device busy, shares (results
// with a shareID) only add up consumed capacity, admin-access results are ignored.

#include <map>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/allocator/inventory.h"
#include "core/common/quantity.h"

namespace drasim::allocator {

class AllocatedState
{
public:
    explicit AllocatedState(DeviceRegistry& registry)
        : m_registry(registry)
    { }

    /// Adds (sign +1) or removes (sign -1) one claim's allocation. With `ids`, each result's
    /// device id is written there in result order (kNoDevice for an admin-access result, which
    /// it leaves alone), so that the caller need not look the devices up again. `known`, when it
    /// has one id per result, gives the devices already (a scheduling cycle has them from its
    /// picks): looking up a device by its three names is a string hash per result. An id whose
    /// names are not the result's is not used: the result's names are looked up instead.
    void apply(const api::AllocationResult& allocation, int sign, std::vector<DeviceId>* ids = nullptr,
        std::span<const DeviceId> known = {});

    bool dedicated(DeviceId id) const { return id < m_dedicated.size() && m_dedicated[id] > 0; }
    bool hasShares(DeviceId id) const { return id < m_shares.size() && m_shares[id] > 0; }
    /// Dedicated or holding at least one share: its counters are charged.
    bool inUse(DeviceId id) const { return dedicated(id) || hasShares(id); }
    /// Capacity consumed by shares, nullptr when nothing.
    const std::map<std::string, Quantity>* consumed(DeviceId id) const;

private:
    void grow(DeviceId id);
    /// Whether id names the result's device.
    bool named(DeviceId id, const api::DeviceRequestAllocationResult& r) const;
    DeviceRegistry& m_registry;
    std::vector<uint32_t> m_dedicated;
    std::vector<uint32_t> m_shares;
    std::unordered_map<DeviceId, std::map<std::string, Quantity>> m_consumed;
};

} // namespace drasim::allocator
