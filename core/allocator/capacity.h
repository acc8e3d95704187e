// SPDX-License-Identifier: Apache-2.0
#pragma once

// Consumable capacity (§3.11): how much of each device capacity a request consumes, after the
// device's request policy (defaults, valid values, ranges with steps) has been applied.

#include <string>
#include <utility>
#include <vector>

#include "core/api/resource_v1.h"

namespace drasim::allocator {

using Consumption = std::vector<std::pair<const std::string*, Quantity>>;

/// Fills out with one entry per capacity of the device (names point into the device). Returns
/// false when the device cannot serve the request: the request names a capacity the device does
/// not have, or the rounded amount violates the policy. fractionalRange is the feature gate
/// DRAFractionalCapacityRange: with it on, a validRange with a fractional min, max or step rounds
/// in thousandths; otherwise requests are rounded to whole units.
bool capacityConsumption(const api::Device& device, const api::CapacityRequirements* request,
    bool fractionalRange, Consumption& out);

} // namespace drasim::allocator
