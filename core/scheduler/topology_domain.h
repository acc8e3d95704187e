// SPDX-License-Identifier: Apache-2.0
#pragma once

// One domain of a topology key (the nodes sharing one value of it), as the group cycle's
// placements read it. Private to the scheduler module.

#include <cstdint>
#include <string>
#include <vector>

#include "core/scheduler/node_filters.h"

namespace drasim::scheduler {

struct TopologyDomain
{
    std::string name; ///< "key=value": the placement's name
    std::vector<uint32_t> nodes; ///< node indices, ascending
    /// The sums the placement bin packing reads (GroupCycle::binPacking) over the nodes, as they
    /// were at `summedAt` on the verdict cache's clock, which every change of a node's usage moves
    /// on: valid while no node of the domain changed since. A cycle scores every domain of its key
    /// and most of them have not changed since the last one.
    mutable NodeUsage sum;
    mutable uint64_t summedAt = 0;
    mutable bool summed = false;
};

} // namespace drasim::scheduler
