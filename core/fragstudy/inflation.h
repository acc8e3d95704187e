// SPDX-License-Identifier: Apache-2.0
#pragma once

// The arrival order of the FGD experiment (pkg/simulator/core.go of the authors' simulator,
// "tune up"): the pods sorted by name, shuffled, then clones drawn uniformly with replacement
// from the name-sorted pods appended until the next clone would take the requested GPU past the
// target share of the cluster's GPU capacity. Its stop test adds the clone's per-GPU milli while
// the running total adds all of its GPUs; that quirk is kept, since it decides how many clones
// the published runs had. A target below the trace's own request drops random pods instead.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/gpushare/share_node.h"
#include "core/workload/rng.h"

namespace drasim::fragstudy {

struct InflationOptions
{
    /// Requested GPU to reach, in % of the cluster's GPU capacity; nullopt: the trace as it is.
    std::optional<double> targetPercent = 130.0;
    bool shuffle = true;
};

/// Indices into `pods` in arrival order (a clone repeats its original's index). `names` sorts
/// the pods; the stream `rng` is advanced as the protocol draws.
std::vector<uint32_t> arrivalOrder(const std::vector<gpushare::SharePod>& pods,
    const std::vector<std::string>& names, int64_t gpuCapacityMilli, const InflationOptions& options,
    workload::Rng& rng);

} // namespace drasim::fragstudy
