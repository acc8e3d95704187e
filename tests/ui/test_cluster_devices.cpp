// SPDX-License-Identifier: Apache-2.0
// The cluster device by device when no hardware shape built it: a dump of ResourceSlices alone,
// whose nodes have no Node objects, still gets each node's attribute topology and claim distances.
#include <gtest/gtest.h>

#include "core/yamlio/loader.h"
#include "ui/models/cluster_devices.h"

using drasim::ui::ClusterDevices;
using drasim::ui::DeviceKey;

namespace {

// Two MIG instances of one GPU (one bus ID) and a NIC on the GPU's root with a NUMA node; a
// second GPU on another root; and a Node object of its own with no slices.
const char* kSlicesOnly = R"(apiVersion: v1
kind: Node
metadata: {name: empty-node}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-x-gpu}
spec:
  driver: gpu.nvidia.com
  pool: {name: node-x, generation: 1, resourceSliceCount: 1}
  nodeName: node-x
  devices:
  - name: gpu-0-mig-3g40gb-9-0
    attributes:
      type: {string: mig}
      resource.kubernetes.io/pcieRoot: {string: "pci0000:15"}
      resource.kubernetes.io/pciBusID: {string: "0000:1b:00.0"}
  - name: gpu-0-mig-3g40gb-9-4
    attributes:
      type: {string: mig}
      resource.kubernetes.io/pcieRoot: {string: "pci0000:15"}
      resource.kubernetes.io/pciBusID: {string: "0000:1b:00.0"}
  - name: gpu-1
    attributes:
      type: {string: gpu}
      resource.kubernetes.io/pcieRoot: {string: "pci0000:97"}
      resource.kubernetes.io/pciBusID: {string: "0000:9d:00.0"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-x-net}
spec:
  driver: dra.net
  pool: {name: node-x, generation: 1, resourceSliceCount: 1}
  nodeName: node-x
  devices:
  - name: pci-0000-18-00-0
    attributes:
      dra.net/numaNode: {int: 0}
      dra.net/pciAddress: {string: "0000:18:00.0"}
      resource.kubernetes.io/pcieRoot: {string: "pci0000:15"}
)";

ClusterDevices load()
{
    auto r = drasim::yamlio::loadText(kSlicesOnly, "slices.yaml");
    EXPECT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    return ClusterDevices(std::make_shared<drasim::api::ObjectSet>(std::move(r.objects)), nullptr);
}

} // namespace

TEST(ClusterDevices, NodesOnlySlicesNameAreDrawnFromTheirAttributes)
{
    const ClusterDevices cluster = load();
    ASSERT_EQ(cluster.nodes().size(), 2u);
    EXPECT_EQ(cluster.nodes()[0].name, "empty-node");
    EXPECT_FALSE(cluster.nodes()[0].topology); // nothing to draw
    EXPECT_FALSE(cluster.nodes()[0].derived);
    const auto* x = cluster.node("node-x");
    ASSERT_NE(x, nullptr);
    ASSERT_TRUE(x->derived);
    ASSERT_EQ(x->devices.size(), 4u);
    // The MIG instances share their GPU's box; the NIC has one of its own.
    EXPECT_EQ(x->devices[0].component, x->devices[1].component);
    EXPECT_NE(x->devices[0].component, x->devices[3].component);
    EXPECT_EQ(cluster.devicesOn("node-x", x->devices[0].component).size(), 2u);
    EXPECT_EQ(x->topology->shape().components[size_t(x->devices[0].component)].name, "gpu-0-mig-3g40gb-9-0");
}

TEST(ClusterDevices, ClaimsOnAttributeNodesGetRangesAndSelf)
{
    const ClusterDevices cluster = load();
    const DeviceKey mig0 { "gpu.nvidia.com", "node-x", "gpu-0-mig-3g40gb-9-0" };
    const DeviceKey mig4 { "gpu.nvidia.com", "node-x", "gpu-0-mig-3g40gb-9-4" };
    const DeviceKey gpu1 { "gpu.nvidia.com", "node-x", "gpu-1" };
    const DeviceKey nic { "dra.net", "node-x", "pci-0000-18-00-0" };

    const auto sameGpu = cluster.placeClaim({ mig0, mig4 });
    EXPECT_TRUE(sameGpu.fromAttributes);
    EXPECT_EQ(sameGpu.worst, "X");
    EXPECT_TRUE(sameGpu.pairs.empty()); // one box, no pair to draw

    const auto aligned = cluster.placeClaim({ mig0, nic });
    EXPECT_EQ(aligned.worst, "PHB or closer");
    EXPECT_EQ(aligned.quality.numaNodes, (std::vector<int> { 0 })); // learned from the NIC

    // gpu-1's root names no NUMA node: another root, so NODE or SYS.
    const auto apart = cluster.placeClaim({ nic, gpu1, mig0 });
    EXPECT_EQ(apart.worst, "NODE or SYS");
    EXPECT_EQ(apart.quality.worstPair, "pci-0000-18-00-0 <-> gpu-1");
    EXPECT_EQ(apart.quality.devices, 3);
    EXPECT_EQ(apart.pairs.size(), 3u);
}
