// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "core/sim/cluster_port.h"
#include "core/sim/sim_context.h"

namespace drasim::sim {

/// The metrics' mirror of device allocation: which devices each claim holds and how many bound
/// pods use the claim. Devices are free when the last user of their claim ended (a claim's
/// allocation outlives a pod while another pod still reserves it).
class DeviceLedger
{
public:
    explicit DeviceLedger(SimMetrics& metrics)
        : m_metrics(metrics)
    { }
    /// A binding: newly allocated claims get their devices, every claim of the pod gains a user.
    void bind(const BindOutcome& out);
    /// The pod ended: each of its claims loses a user, and a claim without users frees its devices.
    void unbind(SimPod& p);
    /// The devices (SimMetrics indices) the claims hold, shared claims included, in claim order.
    std::vector<uint32_t> devicesOf(const std::vector<std::string>& claims) const;

private:
    /// The device's SimMetrics index (kNoIndex when the metrics do not know it).
    uint32_t deviceOf(const HeldDevice& d);
    struct ClaimRecord
    {
        std::vector<uint32_t> devices;
        std::vector<uint32_t> classes;
        int32_t users = 0;
    };
    SimMetrics& m_metrics;
    std::unordered_map<std::string, ClaimRecord> m_claims;
    /// SimMetrics index by the cluster's device number, filled as devices are first bound.
    std::vector<uint32_t> m_byClusterId;
};

} // namespace drasim::sim
