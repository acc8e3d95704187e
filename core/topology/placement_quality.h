// SPDX-License-Identifier: Apache-2.0
#pragma once

// Placement quality of an allocation: how close together the devices of one claim are, in
// nvidia-smi distance classes, NUMA spread and NVLink island use.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/topology/slice_generator.h"

namespace drasim::topology {

/// One allocated device as a ResourceClaim's status lists it.
struct DeviceRef
{
    std::string driver;
    std::string pool;
    std::string device;
};

struct PlacementQuality
{
    int devices = 0; ///< devices located in the topology
    std::vector<std::string> unknown; ///< "driver/pool/device" not found (e.g. a foreign driver)
    /// Worst pairwise distance among located devices; Self for a single device.
    Distance worst { DistanceClass::Self, 0, {} };
    std::string worstPair; ///< "gpu0 <-> nic3" (shape component names)
    std::vector<int> numaNodes; ///< distinct NUMA nodes used, sorted
    int sockets = 0; ///< distinct sockets used
    int fabricIslands = 0; ///< distinct NVLink/fabric islands used by the devices
    int offFabric = 0; ///< GPUs/accelerators used that are in no fabric island
};

/// Index from generated device names back to topology devices, node by node.
class PlacementIndex
{
public:
    void addNode(const std::string& nodeName, std::shared_ptr<const SliceGenerator> generator);
    bool hasNode(const std::string& nodeName) const;
    size_t nodeCount() const { return m_nodes.size(); }

    struct Located
    {
        const SliceGenerator* generator = nullptr;
        DeviceLocation location;
    };
    /// Finds a device of a node-local pool. The pool names the node for node-local drivers;
    /// when it is not a known node, nodeName is used.
    std::optional<Located> locate(const std::string& nodeName, const DeviceRef& ref) const;

    PlacementQuality assess(const std::string& nodeName, const std::vector<DeviceRef>& devices) const;
    /// The devices of one allocated claim (status.allocation.devices.results).
    PlacementQuality assess(const std::string& nodeName, const api::AllocationResult& allocation) const;

private:
    std::map<std::string, std::shared_ptr<const SliceGenerator>> m_nodes;
};

} // namespace drasim::topology
