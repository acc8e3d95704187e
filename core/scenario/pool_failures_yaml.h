// SPDX-License-Identifier: Apache-2.0
#pragma once

// The `failures:` and `spot:` fields of a Scenario's node pool (sim/failure_spec.h):
//
//   failures:
//     mtbf: 2000h                 # mean time between failures of each node (> 0)
//     weibull: {shape: 0.8}       # optional: Weibull times between failures (0.1-10; 1 = exponential)
//     repair: {mean: 4h, distribution: exponential}   # or fixed, or lognormal (sigma: 1.0)
//   spot:
//     reclaimRate: 0.02/h         # reclaims per node-hour ("0.5/d", or a bare number per hour)
//     notice: 2m                  # the node is cordoned this long before it goes away (default 0s)
//     replacement: {mean: 10m, distribution: fixed}   # until it is back, as repair above

#include <string>

#include "core/common/data_value.h"
#include "core/sim/failure_spec.h"
#include "core/yamlio/doc_reader.h"

namespace drasim::scenario {

void parseFailureProcess(
    yamlio::DocReader& r, const yamlio::YamlNode& n, const std::string& path, sim::NodeFailureProcess& out);
void parseSpotReclaim(
    yamlio::DocReader& r, const yamlio::YamlNode& n, const std::string& path, sim::SpotReclaim& out);

/// The maps as the reader takes them (optional keys only when not their defaults).
DataValue failureProcessData(const sim::NodeFailureProcess& f);
DataValue spotReclaimData(const sim::SpotReclaim& s);

} // namespace drasim::scenario
