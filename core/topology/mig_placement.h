// SPDX-License-Identifier: Apache-2.0
#pragma once

// Places a static MIG layout (a list of profile names) on one GPU the way mig-parted ends up
// with it: every instance at a valid placement start, no memory slice used twice, compute
// slices within the GPU's seven.

#include <optional>
#include <string>
#include <vector>

#include "core/topology/node_shape.h"

namespace drasim::topology {

struct MigInstance
{
    const MigProfile* profile = nullptr;
    int start = 0;
};

/// Instances in placement order (by start). nullopt with *error set when a profile is unknown
/// or the layout does not fit.
std::optional<std::vector<MigInstance>> placeMigLayout(
    const DeviceModel& model, const std::vector<std::string>& layout, std::string* error);

} // namespace drasim::topology
