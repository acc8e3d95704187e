// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reading a device's model from the attributes its driver publishes, for the metrics (utilisation
// by model) and for speed tables (work_pace.h).

#include <optional>
#include <string>
#include <string_view>

#include "core/api/resource_v1.h"

namespace drasim::sim {

/// The text of the device's string or version attribute `name`: a qualified name
/// ("gpu.nvidia.com/productName") matches that key only, an id ("productName") the id in any
/// domain. Nullopt when the device has no such attribute.
std::optional<std::string> deviceAttributeText(const api::Device& d, std::string_view name);

/// The model a device reports, under the names drivers use for it (real-world.md §1-§8):
/// `model` (Intel, Gaudi, example driver, trace nodes), `productName` (NVIDIA, AMD), `pciDevice`
/// (dranet NICs), the first of them it has; nullopt when it has none.
std::optional<std::string> deviceModelName(const api::Device& d);

} // namespace drasim::sim
