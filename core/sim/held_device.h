// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>

namespace drasim::sim {

/// One device newly allocated to one of the pod's claims (what a binding reports, and what pod
/// events carry so a run can be replayed device by device).
struct HeldDevice
{
    std::string claim; ///< namespace/name of the ResourceClaim
    std::string driver;
    std::string pool;
    std::string device;
    std::string deviceClass; ///< class of the request that picked it ("" when unknown)
    /// The scheduler cluster's number for the device (AllocatedDevice::deviceId), UINT32_MAX when
    /// unknown: valid within one run only, so it takes no part in comparing devices.
    uint32_t clusterId = UINT32_MAX;

    bool operator==(const HeldDevice& o) const
    {
        return claim == o.claim && driver == o.driver && pool == o.pool && device == o.device
            && deviceClass == o.deviceClass;
    }
};

} // namespace drasim::sim
