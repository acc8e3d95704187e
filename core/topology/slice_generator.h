// SPDX-License-Identifier: Apache-2.0
#pragma once

// ResourceSlices and the Node object that the real DRA drivers and kubelet would publish for one
// node of a shape, attribute for attribute and name for name (real-world.md §2-§7).

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/api/core_v1.h"
#include "core/api/object_set.h"
#include "core/api/resource_v1.h"
#include "core/topology/topology.h"

namespace drasim::topology {

struct GenerateOptions
{
    /// Overrides the shape's NVIDIA MIG mode when set.
    std::optional<MigMode> mig;
    /// Static MIG layout (profile names) for every GPU the shape gives no layout of its own.
    std::vector<std::string> migLayout;
    /// NVIDIA driver attribute vocabulary: "25.3" (index/minor + pcieBusID), "25.8" (pcieBusID),
    /// "25.12" (standard pciBusID + addressingMode; also every later release).
    std::string nvidiaRelease = "25.12";
    /// Also publish resource.kubernetes.io/numaNode on every device (KEP-6072 drivers). Off by
    /// default because the drivers listed in real-world.md do not publish it yet.
    bool standardNumaNode = false;
    int64_t generation = 1;
};

/// Node + slices of one node.
struct NodeObjects
{
    api::Node node;
    std::vector<api::ResourceSlice> slices;
};

/// Where a published device sits in the topology.
struct DeviceLocation
{
    int component = -1; ///< index into the shape's components (the physical device)
    std::string profile; ///< MIG profile for MIG devices, else empty
};

/// Prepares everything that does not depend on the node name once per shape, so producing
/// thousands of nodes only copies devices and fills in uuids, MACs and names.
class SliceGenerator
{
public:
    /// Problems (unknown model, impossible MIG layout) are reported to diag; such devices are
    /// left out.
    SliceGenerator(
        std::shared_ptr<const Topology> topology, GenerateOptions options, Diagnostics* diag = nullptr);
    ~SliceGenerator();

    const Topology& topology() const { return *m_topology; }
    std::shared_ptr<const Topology> topologyPtr() const { return m_topology; }

    /// One node's objects. Its place in a rack (rack, block and NVLink-domain labels) is the
    /// pool's to give (rack_layout.h).
    NodeObjects generate(const std::string& nodeName) const;
    void generateInto(const std::string& nodeName, api::ObjectSet& out) const;

    /// (driver, device name) → topology location; device names do not depend on the node.
    const std::map<std::pair<std::string, std::string>, DeviceLocation>& deviceIndex() const;
    /// Drivers this shape publishes for, sorted.
    std::vector<std::string> drivers() const;

private:
    struct Impl;
    std::shared_ptr<const Topology> m_topology;
    std::unique_ptr<Impl> m_impl;
};

/// Deterministic identifiers derived from the node name, so a regenerated cluster is identical.
std::string deterministicUuid(const std::string& nodeName, const std::string& seed);
std::string deterministicMac(const std::string& nodeName, const std::string& seed);

} // namespace drasim::topology
