// SPDX-License-Identifier: Apache-2.0
#pragma once

// The hardware model of one server ("node shape"): CPU sockets and NUMA nodes, the PCIe tree
// (root complexes, switches, bridges, endpoint devices) and accelerator fabrics (NVLink/NVSwitch,
// AMD xGMI, ...). Plain values: the graph algorithms live in topology.h/.cpp.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/common/quantity.h"

namespace drasim::topology {

enum class ComponentKind {
    RootComplex, ///< a PCIe host bridge / root complex; its bus names the pcieRoot attribute
    Switch, ///< a PCIe switch (e.g. Broadcom PEX/Atlas, Microchip Switchtec)
    Bridge, ///< any other PCI-PCI bridge (root port, retimer card, riser)
    Gpu,
    Nic,
    Fpga,
    Accelerator, ///< AI accelerators that are not GPUs (Intel Gaudi, ...)
    Other, ///< NVMe drives and anything else worth drawing but not published
};

const char* componentKindName(ComponentKind kind);
std::optional<ComponentKind> componentKindFromName(const std::string& name);
/// True for kinds that end a PCIe path (devices rather than fabric).
bool isEndpoint(ComponentKind kind);

/// One MIG GPU-instance profile as `nvidia-smi mig -lgip` lists it.
struct MigProfile
{
    std::string name; ///< "1g.10gb", "1g.10gb+me", "7g.80gb"
    int giProfileId = 0; ///< 19, 20, 15, 14, 9, 5, 0
    int computeSlices = 1;
    int memorySlices = 1; ///< placement size
    std::vector<int> starts; ///< valid placement starts (memory-slice index)
    int multiprocessors = 0;
    int copyEngines = 0;
    int decoders = 0;
    int encoders = 0;
    int jpegEngines = 0;
    int ofaEngines = 0;
    int64_t memoryMiB = 0;
};

/// Facts shared by every unit of one product (the catalog says `model: H100-SXM5-80GB`).
/// Built-in models live in device_models.cpp; a shape may define more under spec.models.
struct DeviceModel
{
    std::string id; ///< key used by shapes, e.g. "H100-SXM5-80GB"
    ComponentKind kind = ComponentKind::Gpu;
    /// Which DRA driver publishes it: nvidia, amd, intel-gpu, gaudi, dranet, example, fpga, none.
    std::string vendorDriver;
    std::string productName; ///< as the driver reports it ("NVIDIA H100 80GB HBM3")
    std::string brand; ///< NVIDIA brand ("Nvidia"); Intel family ("Data Center Max")
    std::string architecture;
    std::string computeCapability; ///< semver form "9.0.0"
    std::string pciVendorId; ///< "0x10de"
    std::string pciDeviceId; ///< "0x2330"
    std::optional<Quantity> memory;
    int powerWatts = 0;
    // MIG (NVIDIA)
    int migMemorySlices = 0; ///< 8 on A100/H100/H200/B200, 0 = no MIG
    std::vector<MigProfile> migProfiles;
    // AMD
    int computeUnits = 0;
    int simdUnits = 0;
    // NIC
    int speedGbps = 0;
    bool rdma = false;
    std::string pciDeviceName; ///< pci.ids name dranet publishes as pciDevice
    std::string encapsulation; ///< "ether" or "infiniband"
    // FPGA
    std::string board;
    std::string shell;
};

struct PcieLink
{
    int generation = 0; ///< 0 = unknown
    int width = 0; ///< lanes; 0 = unknown
};

/// One node of the PCIe tree (or a fabric-less device such as an NVMe drive).
struct Component
{
    ComponentKind kind = ComponentKind::Other;
    std::string name; ///< unique in the shape: "gpu0", "sw-0", "rc-15"
    int parent = -1; ///< index in NodeShape::components; -1 only for root complexes
    std::vector<int> children;
    int numaNode = -1; ///< set on root complexes; devices inherit it (resolved by the reader)
    /// Root complex: "dddd:bb" (pcieRoot becomes "pcidddd:bb"). Other: full BDF "dddd:bb:dd.f".
    std::string busId;
    PcieLink link; ///< link to the parent
    std::string model; ///< DeviceModel id for endpoints
    int index = -1; ///< minor / card number within its driver (endpoints)
    // NIC facts that differ per port
    std::string ifName;
    std::string rdmaDevice;
    std::string mac; ///< empty = derived from the node name (deterministic)
    bool primary = false; ///< the node's primary interface: dranet does not publish it
    // NVIDIA static MIG layout for this GPU (profile names); empty = whole GPU.
    std::vector<std::string> migLayout;
    SourcePos pos;
    SourcePos migLayoutPos; ///< where migLayout was written, for precise errors
};

/// A set of devices joined by an accelerator fabric. With a switch (NVSwitch) every member
/// reaches every other with `linksPerDevice` links; without, `pairs` lists direct links.
struct Fabric
{
    std::string name;
    std::string type = "nvlink"; ///< nvlink, xgmi, roce (Gaudi scale-up ports)
    int generation = 0;
    bool switched = true;
    int linksPerDevice = 0;
    std::vector<int> members; ///< component indices
    struct Pair
    {
        int a = -1;
        int b = -1;
        int links = 1;
    };
    std::vector<Pair> pairs;
    /// Multi-node domain this tray belongs to (GB200 NVL72 rack): members span nodes.
    std::string domain;
    /// Nodes per multi-node domain (18 trays per NVL72 rack); 0 = unknown. Consecutive nodes of
    /// a pool fill one domain after the other.
    int domainNodes = 0;
    SourcePos pos;
};

struct NumaNode
{
    int id = 0;
    int socket = 0;
    int cores = 0;
    Quantity memory;
    /// False when the source does not say (nvidia-smi captures): the Node then has no memory.
    bool memoryKnown = true;
    /// Logical CPU ids as the machine numbers them (hwloc PU os_index, nvidia-smi CPU Affinity).
    /// Empty = the usual Linux numbering derived from cores and threadsPerCore.
    std::vector<int> cpus;
};

struct Socket
{
    int id = 0;
    std::string model;
    int cores = 0; ///< physical cores (sum of its NUMA nodes when those are given)
};

struct Price
{
    double purchaseUsd = 0;
    double perHourUsd = 0;
};

/// What an import observed between devices, cell for cell (`nvidia-smi topo -m`). Distances
/// between listed devices are read from here; the PCIe tree answers only where it is silent.
struct ObservedMatrix
{
    struct Row
    {
        int component = -1; ///< index in NodeShape::components
        std::vector<std::string> cells; ///< labels as printed: "X", "NV12", "PIX", "SYS", ...
        std::string cpuAffinity; ///< as printed ("0-15,32-47", "N/A"); empty = not given
        std::string numaAffinity; ///< as printed ("3", "N/A"); empty = not given
    };
    std::vector<Row> rows; ///< cells[k] is the distance to rows[k].component
    /// True when the reconstructed PCIe tree does not give every observed cell (the tree is then
    /// an approximation a view should mark).
    bool treeApproximate = false;
    SourcePos pos;

    bool empty() const { return rows.empty(); }
};

/// How the NVIDIA driver is configured on nodes of this shape.
enum class MigMode { None, Static, Dynamic };

struct NvidiaDriverSettings
{
    std::string driverVersion = "580.105.8";
    std::string cudaDriverVersion = "13.0.0";
    MigMode mig = MigMode::None;
};

struct NodeShape
{
    std::string name;
    std::string description;
    std::vector<std::string> sources; ///< where the facts come from (vendor docs)
    std::string arch = "amd64"; ///< kubernetes.io/arch: amd64, arm64, ppc64le, s390x
    std::map<std::string, std::string> labels; ///< extra node labels
    Price price;
    int powerWatts = 0;
    int threadsPerCore = 2;
    std::string interSocketLink; ///< "UPI x4", "xGMI x4", "NVLink-C2C"
    std::vector<Socket> sockets;
    std::vector<NumaNode> numaNodes;
    int maxPods = 110;
    Quantity reservedCpu = Quantity::fromInt(0);
    Quantity reservedMemory = Quantity::fromInt(0);
    std::vector<Component> components;
    std::vector<Fabric> fabrics;
    std::vector<DeviceModel> models; ///< models defined by the shape itself
    NvidiaDriverSettings nvidia;
    ObservedMatrix observed;
    SourcePos pos;

    int find(const std::string& componentName) const;
    /// Model of an endpoint: the shape's own first, then the built-in table. Null if unknown.
    const DeviceModel* modelOf(const Component& c) const;
    int totalCores() const;
    Quantity totalMemory() const;
    /// False when some NUMA node's memory is unknown (the Node then publishes no memory).
    bool memoryKnown() const;
    /// Logical CPUs the Node offers: the listed CPU ids when every NUMA node lists them, else
    /// cores x threadsPerCore.
    int64_t logicalCpus() const;
    /// Endpoint component indices of one kind, in index order.
    std::vector<int> devicesOfKind(ComponentKind kind) const;
    /// Root complex above a component (itself for a root complex), -1 if none.
    int rootOf(int component) const;
    int socketOfNuma(int numa) const;
};

} // namespace drasim::topology
