// SPDX-License-Identifier: Apache-2.0
#include "ui/models/allocated_state.h"

namespace drasim::ui {

ReplayState allocatedState(const std::vector<api::Pod>& pods, const std::vector<api::ResourceClaim>& claims)
{
    ReplayState s;
    for (const auto& pod : pods) {
        const std::string key = pod.meta.namespace_ + "/" + pod.meta.name;
        if (pod.spec.nodeName.empty()) {
            s.pending.emplace(key, std::string());
        } else {
            s.running.emplace(key, pod.spec.nodeName);
            ++s.podsOnNode[pod.spec.nodeName];
        }
    }
    for (const auto& claim : claims) {
        if (!claim.allocation)
            continue;
        const std::string key = claim.meta.namespace_ + "/" + claim.meta.name;
        const std::string pod = claim.reservedFor.empty()
            ? std::string()
            : claim.meta.namespace_ + "/" + claim.reservedFor.front().name;
        s.claimPods[key] = pod;
        auto& devices = s.claimDevices[key];
        for (const auto& r : claim.allocation->results) {
            DeviceKey device { r.driver, r.pool, r.device };
            devices.push_back(device);
            if (!r.adminAccess.value_or(false))
                s.holders.emplace(device, HeldBy { pod, key });
        }
    }
    return s;
}

} // namespace drasim::ui
