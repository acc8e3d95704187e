// SPDX-License-Identifier: Apache-2.0
#pragma once

// The catalog's default speed of each built-in accelerator model, for a workload's speed table
// (core/workload/speed_table.h): the vendor's dense BF16 tensor throughput in TFLOPS, the figure
// a mixed-precision training step is bound by. Only the ratios matter. Sources in the .cpp.

#include <map>
#include <string>

namespace drasim::topology {

/// Dense BF16 TFLOPS by the product name the model's driver publishes (`productName`, or `model`
/// for Intel Gaudi): "NVIDIA H100 80GB HBM3" -> 989. Models without a public figure are absent.
const std::map<std::string, double>& catalogModelSpeeds();

} // namespace drasim::topology
