// SPDX-License-Identifier: Apache-2.0
#pragma once

// Nodes and pods written as the FGD authors' tests write them: free cpu and each GPU's free milli,
// a pod's cpu, milli per GPU and GPU count.

#include <cstdint>
#include <vector>

#include "core/gpushare/share_node.h"

namespace drasim::gpushare::fixtures {

inline ShareNode node(int64_t cpuFree, std::vector<int32_t> gpus, int model = 0)
{
    ShareNode n;
    n.cpuFreeMilli = cpuFree;
    n.memoryFreeMiB = 1 << 20;
    n.model = model;
    n.gpuFreeMilli = std::move(gpus);
    return n;
}

inline SharePod pod(int64_t cpu, int32_t milli, int32_t count)
{
    SharePod p;
    p.cpuMilli = cpu;
    p.gpuMilli = milli;
    p.gpuCount = count;
    return p;
}

} // namespace drasim::gpushare::fixtures
