// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "core/compare/comparison.h"

namespace drasim::compare {

/// Every metric of any run on the union of the runs' sample times, by metric name.
std::vector<AlignedSeries> alignSeries(const std::vector<RunData>& runs);

} // namespace drasim::compare
