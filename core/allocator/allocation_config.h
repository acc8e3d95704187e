// SPDX-License-Identifier: Apache-2.0
#pragma once

// The `devices.config` list of an allocation result (§3.12 of the DRA semantics note): what the
// allocator copies from the DeviceClasses and the claim, and how each Kubernetes version writes it.

#include <string>
#include <vector>

#include "core/api/resource_v1.h"

namespace drasim::allocator {

/// One top-level request of a claim as the allocation settled it.
struct SettledRequest
{
    std::string name; ///< the request's name
    std::string resultName; ///< "req", or "req/sub" for the alternative chosen from firstAvailable
    bool firstAvailable = false;
    const api::DeviceClass* cls = nullptr; ///< the class of the request or chosen alternative
};

/// How the config list is written: up to 1.36 a claim config naming several requests is copied
/// once per request it names and every entry lists its requests; from 1.37 each claim config is
/// copied once and an entry that covers every request of the claim lists none ("all"), upstream's
/// kubernetes#139731, #139732 and #139814.
enum class ConfigStyle { PerRequest, Compact };

/// Class configs first (one entry per config of each class, listing the requests that used the
/// class), then the claim's configs that apply to a settled request, in the claim's order.
std::vector<api::DeviceAllocationConfiguration> allocationConfig(const std::vector<SettledRequest>& requests,
    const std::vector<api::DeviceClaimConfiguration>& claimConfig, ConfigStyle style);

} // namespace drasim::allocator
