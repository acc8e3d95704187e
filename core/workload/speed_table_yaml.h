// SPDX-License-Identifier: Apache-2.0
#pragma once

// A workload's `speed:` (speed_table.h):
//   reference: NVIDIA A100-SXM4-80GB   # required: the model the durations were measured on
//   attribute: productName             # optional: the device attribute that names the model
//   models: {NVIDIA H200: 1150}        # optional: relative throughput, above 0, over the catalog's

#include <memory>
#include <string>

#include "core/workload/speed_table.h"
#include "core/yamlio/doc_reader.h"

namespace drasim::workload {

/// The table with the catalog's defaults under the workload's models; nullptr (reported) when
/// the entry is wrong: not a map, no reference, a speed not above 0, a reference no one lists.
std::shared_ptr<const SpeedTable> speedTableFrom(
    const yamlio::YamlNode& node, const std::string& field, yamlio::DocReader& c);

} // namespace drasim::workload
