// SPDX-License-Identifier: Apache-2.0
#pragma once

// NodeShape → YAML document that shape_reader.h reads back to the same shape (used to turn an
// nvidia-smi or hwloc import into a catalog entry).

#include <string>

#include "core/common/data_value.h"
#include "core/topology/node_shape.h"

namespace drasim::topology {

DataValue shapeToData(const NodeShape& shape);
std::string shapeToYaml(const NodeShape& shape);

} // namespace drasim::topology
