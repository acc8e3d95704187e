// SPDX-License-Identifier: Apache-2.0
#pragma once

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

    bool operator==(const HeldDevice&) const = default;
};

} // namespace drasim::sim
