// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where the nodes of a pool stand: consecutive nodes fill a rack, consecutive racks a block, and
// each node carries its rack, block and multi-node NVLink domain as Node labels, so a PodGroup's
// topology key (or a nodeSelector) can name them.
//
// Label keys, as real clusters write them:
// - topology.kubernetes.io/rack: the key the scheduling.k8s.io TopologyConstraint documentation
//   gives as its example (KEP-5732); kube-scheduler gives it no meaning of its own.
// - topology.kubernetes.io/block: the level above a rack (the racks under one leaf or spine
//   switch group, Kueue's and KAI's "block" level) in the same prefix.
// - nvidia.com/gpu.clique: the multi-node NVLink domain, "<cluster UUID>.<clique id>", as GPU
//   feature discovery and the NVIDIA DRA driver's compute-domain kubelet plugin label nodes
//   (kubernetes-sigs/dra-driver-nvidia-gpu #1244 / #1247: the plugin reads ClusterUuid and
//   CliqueId from NVML's GPU fabric info). Only shapes with a multi-node NVLink fabric get it.
// Neither rack nor block is a registered well-known label; clusters that name their levels
// otherwise (GKE's cloud.google.com/gce-topology-block, AWS's topology.k8s.aws/network-node-layer-N)
// mean the same thing.

#include <string>

#include "core/api/core_v1.h"
#include "core/topology/node_shape.h"

namespace drasim::topology {

constexpr const char* kRackLabel = "topology.kubernetes.io/rack";
constexpr const char* kBlockLabel = "topology.kubernetes.io/block";
constexpr const char* kCliqueLabel = "nvidia.com/gpu.clique";

struct RackLayout
{
    /// Nodes per rack; 0 = the shape's multi-node NVLink domain size (18 for a GB200 NVL72
    /// tray), or no rack labels for a shape without one.
    int nodesPerRack = 0;
    /// Racks per block; 0 = no block labels.
    int racksPerBlock = 0;

    bool operator==(const RackLayout&) const = default;
};

/// Nodes per multi-node NVLink domain of the shape (Fabric::domainNodes), 0 when it has none.
int nvlinkDomainNodes(const NodeShape& shape);
/// Nodes per rack of a pool: the layout's, else the NVLink domain's, else 0 (no racks).
int nodesPerRack(const NodeShape& shape, const RackLayout& layout);

/// Why a pool of `count` nodes named "<prefix>-<i>" cannot be laid out so; empty when it can.
/// The rack of a multi-node NVLink shape is its domain, and label values must stay valid
/// (at most 63 characters).
std::string rackLayoutError(
    const NodeShape& shape, const RackLayout& layout, const std::string& prefix, int count);

/// Gives node `index` of the pool its rack, block and NVLink-domain labels. Rack and block names
/// are "<prefix>-rack-<r>" and "<prefix>-block-<b>", counted over the whole pool.
void labelRackPosition(
    api::Node& node, const NodeShape& shape, const RackLayout& layout, const std::string& prefix, int index);

} // namespace drasim::topology
