// SPDX-License-Identifier: Apache-2.0
#pragma once

// Topology queries over one NodeShape, in the vocabulary of `nvidia-smi topo -m`. Built once
// per shape (all-pairs distances are precomputed), then read-only and safe to share.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/topology/node_shape.h"

namespace drasim::topology {

/// Ordered from closest to farthest, so "worst" is the maximum.
enum class DistanceClass {
    Self, ///< X: the same device
    Fabric, ///< NV#: a direct accelerator-fabric connection (NVLink, xGMI, ...)
    Pix, ///< at most one PCIe bridge/switch in between
    Pxb, ///< several PCIe bridges, without the host bridge
    Phb, ///< through a PCIe host bridge (same root complex)
    Node, ///< across root complexes inside one NUMA node
    Sys, ///< across the SMP interconnect between NUMA nodes / sockets
};

/// "X", "NV", "PIX", "PXB", "PHB", "NODE", "SYS".
const char* distanceClassName(DistanceClass c);

struct Distance
{
    DistanceClass cls = DistanceClass::Sys;
    int links = 0; ///< number of fabric links (Fabric only)
    std::string fabricType; ///< "nvlink", "xgmi", ... (Fabric only)

    /// nvidia-smi label: "NV18" for NVLink; other fabrics print their type upper-cased with the
    /// link count ("XGMI1") since nvidia-smi has no word for them.
    std::string label() const;
    bool operator==(const Distance&) const = default;
};

/// Parses an nvidia-smi matrix cell ("NV12", "PIX", "X", ...). nullopt when unknown.
std::optional<Distance> parseDistanceLabel(std::string_view text);

class Topology
{
public:
    explicit Topology(NodeShape shape);
    ~Topology();
    Topology(const Topology&) = delete;
    Topology& operator=(const Topology&) = delete;

    const NodeShape& shape() const;

    /// Endpoint devices (GPUs, NICs, FPGAs, accelerators, others) in component order.
    const std::vector<int>& endpoints() const;

    /// Distance between two components (indices into shape().components).
    Distance distance(int a, int b) const;
    /// Components along the PCIe path from a to b (both included). Across root complexes the
    /// path is a's branch up to its root, then b's root down to b.
    std::vector<int> pciePath(int a, int b) const;
    /// Human text such as "gpu0 -> sw-0 -> nic0" or "gpu0 -> rc-15 -> NUMA 0 => NUMA 1 -> ...".
    std::string describePath(int a, int b) const;

    int numaNode(int component) const;
    int socket(int component) const;
    /// The standard attribute value "pci<domain>:<bus>" of the device's root complex, empty if
    /// the device is not under a root complex with a bus id.
    std::string pcieRoot(int component) const;

    /// NVLink/fabric islands: each list of endpoints mutually reachable over fabric links,
    /// sorted by first member. Devices outside every fabric are not listed.
    const std::vector<std::vector<int>>& fabricIslands() const;
    /// Index into fabricIslands(), or -1.
    int islandOf(int component) const;
    /// Endpoints grouped by root complex name (shape component name), in component order.
    std::map<std::string, std::vector<int>> devicesByRoot() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace drasim::topology
