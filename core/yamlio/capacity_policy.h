// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to yamlio: a device capacity's requestPolicy (consumable capacity), read and then
// validated like validateMultiAllocatableDeviceCapacity / validateSingleAllocatableDeviceCapacity
// of the API server, with its messages and field paths.
#include <vector>

#include "core/api/resource_v1.h"
#include "core/yamlio/manifest_reader.h"

namespace drasim::yamlio {

/// Where the parts of one requestPolicy were written (0 when absent), for the checks after the
/// device is read (they need allowMultipleAllocations and the capacity's value).
struct CapacityPolicyNodes
{
    uint32_t policy = 0, defaultValue = 0, validValues = 0, validRange = 0, min = 0, max = 0, step = 0;
    std::vector<uint32_t> validValueItems;
};

/// Reads the fields (types and unknown keys only); the rules are in validateCapacityPolicy.
void readCapacityPolicy(
    Reader& r, uint32_t n, const Path& p, api::CapacityRequestPolicy& out, CapacityPolicyNodes& at);

/// `policyPath` is ...capacity[name].requestPolicy; `capacity` the capacity's value.
void validateCapacityPolicy(Reader& r, const CapacityPolicyNodes& at, const Path& policyPath,
    const api::CapacityRequestPolicy& policy, const Quantity& capacity, bool allowMultipleAllocations);

} // namespace drasim::yamlio
