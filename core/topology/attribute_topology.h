// SPDX-License-Identifier: Apache-2.0
#pragma once

// The topology a node's published devices reveal by their attributes alone, for clusters read
// from ResourceSlice manifests rather than built from a hardware shape. Drivers publish the
// standard resource.kubernetes.io/pcieRoot (the root complex) and pciBusID (the physical
// device), and NUMA nodes under the standard numaNode or a name of their own (dranet and AMD
// `numaNode`, NVIDIA VFIO `numa`, the CPU driver `numaNodeID`). From those, two devices are:
//   - X            when they share a PCI bus ID (MIG instances of one GPU);
//   - PHB or closer when they share a PCIe root (the tree below the root is not published);
//   - NODE / SYS   on different roots, by their NUMA nodes when both are known;
//   - SYS          on different NUMA nodes whatever else is known;
//   - otherwise a range ("NODE or SYS", "NODE or closer") or "unknown".
// Accelerator fabrics (NVLink, xGMI) are not in the attributes, so every answer is about the
// PCIe/NUMA path; a shape-built topology that also knows the fabric may say NV# instead.

#include <optional>
#include <string>
#include <vector>

#include "core/api/resource_v1.h"
#include "core/topology/node_shape.h"
#include "core/topology/topology.h"

namespace drasim::topology {

/// Where one device sits, as far as its attributes say.
struct AttributePosition
{
    std::string pcieRoot; ///< "pci0000:15"; empty = not published
    std::string busId; ///< "0000:1b:00.0" (lower case); empty = not published
    std::optional<int> numaNode;
    /// The attribute the NUMA node came from ("dra.net/numaNode"); "pcieRoot" when it was
    /// learned from another device on the same root.
    std::string numaSource;
};

/// Reads the position from a device's attributes (driver-domain names may be bare).
AttributePosition positionFromAttributes(const std::string& driver, const api::Device& device);

/// The distance classes the attributes leave possible, closest to farthest. Self is possible for
/// two devices unless both publish (different) bus IDs: partitions of one device may not say
/// so. Fabric classes are never meant: attributes do not describe fabrics.
struct DistanceRange
{
    DistanceClass closest = DistanceClass::Self;
    DistanceClass farthest = DistanceClass::Sys;

    bool exact() const { return closest == farthest; }
    /// False when the attributes say nothing (anything up to SYS).
    bool known() const { return closest > DistanceClass::Pix || farthest != DistanceClass::Sys; }
    bool contains(DistanceClass c) const { return c >= closest && c <= farthest; }
    /// "X", "PHB or closer", "NODE", "NODE or SYS", "SYS", "unknown".
    std::string label() const;
    bool operator==(const DistanceRange&) const = default;
};

/// The range for two devices at these positions.
DistanceRange distanceBetween(const AttributePosition& a, const AttributePosition& b);

/// Orders ranges from closest to farthest: by farthest class, then closest.
bool fartherThan(const DistanceRange& a, const DistanceRange& b);

/// One published device of a node, as the topology is asked about it.
struct PublishedDevice
{
    std::string driver;
    std::string pool;
    const api::Device* device = nullptr;
};

/// A node's devices grouped into physical units (devices sharing a bus ID), PCIe roots and NUMA
/// nodes. A root's NUMA node is learned from its devices when those that publish one agree.
class AttributeTopology
{
public:
    struct Unit
    {
        std::vector<size_t> devices; ///< indices into the input, in input order
        AttributePosition position; ///< after learning NUMA nodes from the root
        ComponentKind kind = ComponentKind::Other; ///< guessed from driver and type attributes
        std::string name; ///< the shortest device name (a full GPU before its MIG instances)
        std::string driver; ///< of the first device
        std::string product; ///< productName, model or pciDevice when published
    };

    explicit AttributeTopology(const std::vector<PublishedDevice>& devices);

    const std::vector<Unit>& units() const { return m_units; }
    /// The unit holding an input device.
    size_t unitOf(size_t device) const { return m_unitOf[device]; }
    DistanceRange distance(size_t unitA, size_t unitB) const;
    /// True when any device published a PCIe root or a NUMA node.
    bool anyKnown() const;

    /// A hardware sketch to draw the units with: a root complex per PCIe root (bus taken from the
    /// root's name) on its NUMA node, units under their root (or without a parent when the root
    /// is unknown), one component per unit in unit order after the roots. Not for distances:
    /// use distance(), which knows what the sketch cannot (the tree below a root is unknown).
    NodeShape sketch(const std::string& name, std::vector<int>* componentOfUnit) const;

private:
    std::vector<Unit> m_units;
    std::vector<size_t> m_unitOf;
};

} // namespace drasim::topology
