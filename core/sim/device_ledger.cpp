// SPDX-License-Identifier: Apache-2.0
#include "core/sim/device_ledger.h"

namespace drasim::sim {

void DeviceLedger::bind(const BindOutcome& out)
{
    // A claim's devices come one after another, and most bindings name one class: each claim and
    // class is looked up once per run of them (records stay where they are as the map grows).
    ClaimRecord* last = nullptr;
    const std::string* lastKey = nullptr;
    const auto recordOf = [&](const std::string& key) -> ClaimRecord& {
        if (!lastKey || *lastKey != key) {
            last = &m_claims[key];
            lastKey = &key;
        }
        return *last;
    };
    const std::string* lastClass = nullptr;
    uint32_t cls = 0;
    for (const auto& d : out.allocated) {
        ClaimRecord& c = recordOf(d.claim);
        const uint32_t dev = deviceOf(d);
        if (dev == SimMetrics::kNoIndex)
            continue;
        if (!lastClass || *lastClass != d.deviceClass) {
            cls = m_metrics.classIndex(d.deviceClass);
            lastClass = &d.deviceClass;
        }
        c.devices.push_back(dev);
        c.classes.push_back(cls);
        m_metrics.deviceAllocated(dev, cls, +1);
    }
    for (const auto& key : out.claims)
        ++recordOf(key).users;
}

uint32_t DeviceLedger::deviceOf(const HeldDevice& d)
{
    // Every binding names its devices: by the cluster's number once it was seen, rather than by
    // hashing the three names into the metrics' map each time. The metrics never renumber a
    // device; one they do not know (yet) is asked for again.
    if (d.clusterId < m_byClusterId.size() && m_byClusterId[d.clusterId] != SimMetrics::kNoIndex)
        return m_byClusterId[d.clusterId];
    const uint32_t index = m_metrics.deviceIndex(d.driver, d.pool, d.device);
    if (d.clusterId != UINT32_MAX && index != SimMetrics::kNoIndex) {
        if (d.clusterId >= m_byClusterId.size())
            m_byClusterId.resize(size_t(d.clusterId) + 1, SimMetrics::kNoIndex);
        m_byClusterId[d.clusterId] = index;
    }
    return index;
}

void DeviceLedger::unbind(SimPod& p)
{
    for (const auto& key : p.claims) {
        auto it = m_claims.find(key);
        if (it == m_claims.end())
            continue;
        if (--it->second.users > 0)
            continue;
        for (size_t i = 0; i < it->second.devices.size(); ++i)
            m_metrics.deviceAllocated(it->second.devices[i], it->second.classes[i], -1);
        m_claims.erase(it);
    }
    p.claims.clear();
}

std::vector<uint32_t> DeviceLedger::devicesOf(const std::vector<std::string>& claims) const
{
    std::vector<uint32_t> out;
    for (const auto& key : claims)
        if (auto it = m_claims.find(key); it != m_claims.end())
            out.insert(out.end(), it->second.devices.begin(), it->second.devices.end());
    return out;
}

} // namespace drasim::sim
