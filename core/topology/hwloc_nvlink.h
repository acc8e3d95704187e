// SPDX-License-Identifier: Apache-2.0
#pragma once

// Internal to the hwloc import: NVLink from hwloc's "NVLinkBandwidth" distance matrix (written
// by its NVML backend as distances2 / distances2hetero), turned into NodeShape fabrics.

#include <functional>
#include <map>
#include <set>
#include <string>

#include "core/topology/node_shape.h"
#include "core/topology/xml_reader.h"

namespace drasim::topology::hwloc {

struct NvlinkObjects
{
    std::map<std::string, std::string> gpuByGpIndex; ///< gp_index of a GPU or its OS devices → component name
    std::map<std::string, std::string> gpuModelName; ///< component name → GPUModel as hwloc reports it
    std::set<std::string> nvswitchGpIndex; ///< gp_index of NVSwitch PCI devices
};

using WarnAt = std::function<void(const xml::Element&, const std::string& field, const std::string& msg)>;

/// Adds one fabric of direct GPU pairs and one switched fabric (GPUs linked to NVSwitches) from
/// every NVLinkBandwidth matrix under the topology root. Links = bandwidth / per-link bandwidth
/// of the GPU generation (hwloc's NVML backend counts 20 GB/s for NVLink 1, 25 for NVLink 2,
/// 50 for NVLink 3 and 4).
void addNvlinkFabrics(
    const xml::Element& root, const NvlinkObjects& objects, NodeShape& shape, const WarnAt& warn);

} // namespace drasim::topology::hwloc
