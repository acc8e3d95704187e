// SPDX-License-Identifier: Apache-2.0
#pragma once

// The `layout: {nodesPerRack: M, racksPerBlock: K}` field of a node pool (Scenario) and of a
// candidate (Study): how the pool's servers stand in racks and blocks (topology/rack_layout.h).

#include <string>

#include "core/common/data_value.h"
#include "core/topology/rack_layout.h"
#include "core/yamlio/doc_reader.h"

namespace drasim::scenario {

/// Reads the map strictly (unknown keys, non-integers and values below 1 are errors at `path`).
void parseRackLayout(
    yamlio::DocReader& r, const yamlio::YamlNode& n, const std::string& path, topology::RackLayout& out);

/// The map as the reader takes it; only the keys that are set.
DataValue rackLayoutData(const topology::RackLayout& layout);

} // namespace drasim::scenario
