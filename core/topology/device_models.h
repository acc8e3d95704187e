// SPDX-License-Identifier: Apache-2.0
#pragma once

// Built-in table of device products: GPUs (with MIG profiles), NICs, FPGAs, accelerators.
// Figures come from vendor data sheets and `nvidia-smi mig -lgip` listings (see the .cpp).

#include <string>
#include <vector>

#include "core/topology/node_shape.h"

namespace drasim::topology {

/// Null when the id is unknown. Ids are case-sensitive ("H100-SXM5-80GB").
const DeviceModel* findBuiltinModel(const std::string& id);
const std::vector<DeviceModel>& builtinModels();

/// The DRA driver name for a vendorDriver key ("nvidia" → "gpu.nvidia.com"); empty for "none".
std::string draDriverName(const std::string& vendorDriver);

} // namespace drasim::topology
