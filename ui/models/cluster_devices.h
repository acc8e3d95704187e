// SPDX-License-Identifier: Apache-2.0
#pragma once

// The cluster a scenario builds, seen device by device: each node's topology (from the catalog
// shape that built it, else as far as the devices' published attributes tell) and the published
// devices sitting on each topology component. Plain C++, read-only once built; distances come
// from core/topology's queries.

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/api/object_set.h"
#include "core/sim/simulator.h"
#include "core/topology/attribute_topology.h"
#include "core/topology/placement_quality.h"
#include "ui/models/pod_replay.h"

namespace drasim::ui {

/// One published device and where it sits.
struct PlacedDevice
{
    DeviceKey key;
    int component = -1; ///< shape component, -1 when the topology does not know it
    std::string profile; ///< MIG profile, else empty
    const api::Device* device = nullptr; ///< attributes and capacity as published
    int unit = -1; ///< unit of NodeDevices::derived (nodes without a shape), else -1
    /// The DeviceClasses whose selectors select it (indexes into ClusterDevices::classNames()).
    std::vector<int> classes;
};

struct NodeDevices
{
    std::string name;
    /// The shape that built the node, or for other nodes with devices a sketch of what their
    /// attributes tell (PCIe roots, NUMA nodes) to draw; null for a node without devices.
    std::shared_ptr<const topology::Topology> topology;
    /// Set when the topology is only a sketch: distances must come from here, not from it.
    std::shared_ptr<const topology::AttributeTopology> derived;
    std::vector<PlacedDevice> devices; ///< in slice order
    std::string pool; ///< the scenario's node pool that made the node ("" for manifests)
    std::string rack; ///< its topology.kubernetes.io/rack label ("" when it has none)
    /// The models its devices report (sim::deviceModelName), most devices a DeviceClass selects
    /// first: "NVIDIA H100 80GB HBM3" before the NICs beside it.
    std::vector<std::string> models;
};

/// A claim's devices and how close they are, in nvidia-smi words.
struct ClaimPlacement
{
    std::string node;
    std::vector<int> components; ///< located devices, in claim order
    topology::PlacementQuality quality;
    /// Distance label for each pair (i < j) of located devices: "NV18", "PIX", "SYS", ... or, on
    /// a node known only by its attributes, a range such as "PHB or closer" or "NODE or SYS".
    std::vector<std::tuple<int, int, std::string>> pairs;
    /// The farthest pair's label, and whether it comes from attributes rather than a shape.
    std::string worst;
    bool fromAttributes = false;
};

class ClusterDevices
{
public:
    ClusterDevices() = default;
    /// `pools`: the scenario's node pools, naming each node's pool (none for manifests). When
    /// `stop` turns true the indexing stops early, leaving an incomplete index to throw away (a
    /// window closing does not wait for 5,000 nodes to be indexed).
    ClusterDevices(std::shared_ptr<const api::ObjectSet> objects,
        std::shared_ptr<const topology::PlacementIndex> placement,
        const std::vector<std::shared_ptr<const sim::NodePool>>& pools = {},
        const std::atomic<bool>* stop = nullptr);

    /// The cluster's DeviceClasses, in the order it lists them (PlacedDevice::classes index it).
    const std::vector<std::string>& classNames() const { return m_classNames; }
    /// Nodes in the order the cluster lists them, then nodes only slices name (a dump of slices).
    const std::vector<NodeDevices>& nodes() const { return m_nodes; }
    const NodeDevices* node(const std::string& name) const;
    /// The nodes of a topology domain ("key=value": the nodes labelled so), in the cluster's
    /// order; none for "" or a string without "=".
    std::vector<std::string> nodesInDomain(const std::string& domain) const;
    /// Devices on a topology component of a node (a MIG-partitioned GPU publishes several).
    std::vector<const PlacedDevice*> devicesOn(const std::string& node, int component) const;
    /// What a topology component is called: the name its ResourceSlice publishes for the device
    /// on it ("gpu-0", not the shape's "gpu0"), "first +N" for several (MIG instances), else the
    /// shape's name (switches, root complexes, devices nothing publishes).
    std::string componentName(const std::string& node, int component) const;
    /// Where the devices of one claim sit (the first device's node), with pairwise distances.
    ClaimPlacement placeClaim(const std::vector<DeviceKey>& devices) const;

private:
    void deriveTopology(NodeDevices& node);
    void classify(const std::atomic<bool>* stop);
    /// Each node's pool, rack and device models.
    void describeNodes(const std::vector<std::shared_ptr<const sim::NodePool>>& pools);
    ClaimPlacement placeByAttributes(const std::vector<DeviceKey>& devices) const;

    std::shared_ptr<const api::ObjectSet> m_objects;
    std::shared_ptr<const topology::PlacementIndex> m_placement;
    std::vector<NodeDevices> m_nodes;
    std::vector<std::string> m_classNames;
    std::map<std::string, size_t> m_byName;
    /// Devices of nodes known by attributes: key → (node, device) positions.
    std::map<DeviceKey, std::pair<size_t, size_t>> m_derivedDevices;
};

} // namespace drasim::ui
