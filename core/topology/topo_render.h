// SPDX-License-Identifier: Apache-2.0
#pragma once

// Text views of a topology for terminals: a socket → NUMA → PCIe tree and an nvidia-smi-style
// distance matrix (with CPU and NUMA affinity columns).

#include <string>

#include "core/topology/topology.h"

namespace drasim::topology {

/// Summary lines (CPU, memory, price, power) followed by the tree and the fabrics.
std::string renderTree(const Topology& topo);
/// The `nvidia-smi topo -m`-like matrix over all devices, then the legend.
std::string renderMatrix(const Topology& topo);
/// Logical CPU list of a NUMA node ("0-55,112-167"), numbering cores NUMA node by NUMA node
/// and hyperthread siblings after all cores, as Linux does on Intel and AMD servers.
std::string cpuAffinity(const NodeShape& shape, int numaNode);

} // namespace drasim::topology
