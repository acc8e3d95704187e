// SPDX-License-Identifier: Apache-2.0
// What published attributes say about topology: hand-checked cases from real drivers'
// vocabularies, then laws over random hardware and over every catalog server.
#include <random>

#include <gtest/gtest.h>

#include "core/topology/attribute_topology.h"
#include "core/topology/slice_generator.h"
#include "tests/unit/topology/test_helpers.h"

namespace drasim::topology {
namespace {

api::DeviceAttribute str(const std::string& v)
{
    api::DeviceAttribute a;
    a.type = api::DeviceAttribute::Type::String;
    a.stringValue = v;
    return a;
}

api::DeviceAttribute integer(int64_t v)
{
    api::DeviceAttribute a;
    a.type = api::DeviceAttribute::Type::Int;
    a.intValue = v;
    return a;
}

api::Device device(const std::string& name, std::map<std::string, api::DeviceAttribute> attributes)
{
    api::Device d;
    d.name = name;
    d.attributes = std::move(attributes);
    return d;
}

const std::string kRoot = "resource.kubernetes.io/pcieRoot";
const std::string kBus = "resource.kubernetes.io/pciBusID";

/// The AWS p4d.24xlarge layout: two GPUs and one EFA per root, roots 10/20 on NUMA 0 and 90/a0
/// on NUMA 1; only the EFAs (dranet) publish a NUMA node.
struct P4d
{
    std::vector<api::Device> devices;
    std::vector<PublishedDevice> published;
    P4d()
    {
        int gpu = 0;
        for (const std::string bus : { "10", "20", "90", "a0" }) {
            const int numa = bus == "10" || bus == "20" ? 0 : 1;
            for (const std::string slot : { "1c", "1d" })
                devices.push_back(device("gpu-" + std::to_string(gpu++),
                    { { "type", str("gpu") }, { kRoot, str("pci0000:" + bus) },
                        { kBus, str("0000:" + bus + ":" + slot + ".0") } }));
            devices.push_back(device("pci-0000-" + bus + "-1b-0",
                { { "dra.net/numaNode", integer(numa) }, { kRoot, str("pci0000:" + bus) },
                    { "dra.net/pciAddress", str("0000:" + bus + ":1b.0") } }));
        }
        for (const auto& d : devices)
            published.push_back({ d.name.rfind("gpu", 0) == 0 ? "gpu.nvidia.com" : "dra.net", "node-a", &d });
    }
};

TEST(AttributeTopology, RootsAndNumaNodesGiveNvidiaSmiClasses)
{
    P4d p4d;
    AttributeTopology t(p4d.published);
    ASSERT_EQ(t.units().size(), 12u);
    auto unit = [&](size_t device) { return t.unitOf(device); };
    // Devices 0,1 GPUs on root 10, 2 its EFA; 3,4,5 on root 20; 6.. on root 90.
    EXPECT_EQ(t.distance(unit(0), unit(2)).label(), "PHB or closer");
    EXPECT_EQ(t.distance(unit(0), unit(1)).label(), "PHB or closer");
    // The GPUs publish no NUMA node; their root's EFA does, so roots 10 and 20 are NODE apart.
    EXPECT_EQ(t.distance(unit(0), unit(3)).label(), "NODE");
    EXPECT_EQ(t.distance(unit(0), unit(6)).label(), "SYS");
    EXPECT_EQ(t.distance(unit(0), unit(0)).label(), "X");
    EXPECT_EQ(t.units()[unit(0)].position.numaNode, 0);
    EXPECT_EQ(t.units()[unit(0)].position.numaSource, "pcieRoot");
    EXPECT_EQ(t.units()[unit(2)].position.numaSource, "dra.net/numaNode");
    EXPECT_EQ(t.units()[unit(0)].kind, ComponentKind::Gpu);
    EXPECT_EQ(t.units()[unit(2)].kind, ComponentKind::Nic);
    EXPECT_TRUE(t.anyKnown());
}

TEST(AttributeTopology, WhatIsNotPublishedStaysARangeOrUnknown)
{
    // Azure ND GB300 v6: NICs are VFs with a NUMA node but no root; GPUs each in their own domain.
    std::vector<api::Device> d {
        device("gpu-0", { { kRoot, str("pci0008:00") } }),
        device("gpu-1", { { kRoot, str("pci0009:00") } }),
        device("nic-0", { { "numaNode", integer(0) } }),
        device("nic-1", { { "numaNode", integer(1) } }),
        device("nic-2", { { "numaNode", integer(0) } }),
        device("plain", {}),
    };
    AttributeTopology t(
        { { "gpu.nvidia.com", "n", &d[0] }, { "gpu.nvidia.com", "n", &d[1] }, { "dra.net", "n", &d[2] },
            { "dra.net", "n", &d[3] }, { "dra.net", "n", &d[4] }, { "example.com", "n", &d[5] } });
    EXPECT_EQ(t.distance(0, 1).label(), "NODE or SYS"); // two roots, NUMA unknown
    EXPECT_EQ(t.distance(0, 2).label(), "unknown");
    EXPECT_FALSE(t.distance(0, 2).known());
    EXPECT_EQ(t.distance(2, 3).label(), "SYS");
    EXPECT_EQ(t.distance(2, 4).label(), "NODE or closer");
    EXPECT_EQ(t.distance(5, 2).label(), "unknown");
    EXPECT_EQ(t.units()[5].kind, ComponentKind::Other);
}

TEST(AttributeTopology, DevicesSharingABusIdAreOnePhysicalDevice)
{
    // Static MIG: instances carry their GPU's bus ID; the NVIDIA 25.8 name pcieBusID counts too.
    std::vector<api::Device> d {
        device("gpu-0-mig-3g40gb-9-4", { { "type", str("mig") }, { kBus, str("0000:1B:00.0") } }),
        device("gpu-0-mig-1g10gb-19-0", { { "type", str("mig") }, { kBus, str("0000:1b:00.0") } }),
        device("gpu-1", { { "pcieBusID", str("0000:2a:00.0") }, { kRoot, str("pci0000:15") } }),
        device("gpu-1-vfio", { { kBus, str("0000:2a:00.0") } }),
    };
    AttributeTopology t({ { "gpu.nvidia.com", "n", &d[0] }, { "gpu.nvidia.com", "n", &d[1] },
        { "gpu.nvidia.com", "n", &d[2] }, { "gpu.nvidia.com", "n", &d[3] } });
    ASSERT_EQ(t.units().size(), 2u);
    EXPECT_EQ(t.unitOf(0), t.unitOf(1));
    EXPECT_EQ(t.unitOf(2), t.unitOf(3));
    EXPECT_EQ(t.units()[0].name, "gpu-0-mig-3g40gb-9-4"); // equal lengths: the first one
    EXPECT_EQ(t.units()[1].name, "gpu-1");
    EXPECT_EQ(t.units()[1].position.pcieRoot, "pci0000:15");
    EXPECT_EQ(distanceBetween(positionFromAttributes("gpu.nvidia.com", d[0]),
                  positionFromAttributes("gpu.nvidia.com", d[1]))
                  .label(),
        "X");
}

TEST(AttributeTopology, NumaNodesComeFromEveryDriversOwnName)
{
    const std::vector<std::pair<std::string, api::Device>> cases {
        { "gpu.example.com", device("a", { { "resource.kubernetes.io/numaNode", integer(3) } }) },
        { "gpu.amd.com", device("a", { { "numaNode", integer(3) } }) },
        { "dra.net", device("a", { { "dra.net/numaNode", integer(3) } }) },
        { "gpu.nvidia.com", device("a", { { "numa", integer(3) } }) },
        { "dra.cpu", device("a", { { "numaNodeID", integer(3) } }) },
    };
    for (const auto& [driver, d] : cases)
        EXPECT_EQ(positionFromAttributes(driver, d).numaNode, 3) << driver;
    // Another domain's numaNode is not this device's, a string is not a node, negatives are unknown.
    EXPECT_FALSE(
        positionFromAttributes("gpu.amd.com", device("a", { { "dra.net/numaNode", integer(1) } })).numaNode);
    EXPECT_FALSE(positionFromAttributes("dra.net", device("a", { { "numaNode", str("1") } })).numaNode);
    EXPECT_FALSE(positionFromAttributes("dra.net", device("a", { { "numaNode", integer(-1) } })).numaNode);
}

TEST(AttributeTopology, DisagreeingDevicesTeachTheirRootNothing)
{
    std::vector<api::Device> d {
        device("nic-0", { { kRoot, str("pci0000:10") }, { "numaNode", integer(0) } }),
        device("nic-1", { { kRoot, str("pci0000:10") }, { "numaNode", integer(1) } }),
        device("gpu-0", { { kRoot, str("pci0000:10") } }),
    };
    AttributeTopology t(
        { { "dra.net", "n", &d[0] }, { "dra.net", "n", &d[1] }, { "gpu.x.com", "n", &d[2] } });
    EXPECT_FALSE(t.units()[2].position.numaNode);
    // One root still means PHB or closer, whatever the NUMA attributes claim.
    EXPECT_EQ(t.distance(0, 1).label(), "PHB or closer");
    std::vector<int> components;
    const NodeShape sketch = t.sketch("n", &components);
    EXPECT_EQ(sketch.components[0].numaNode, -1);
}

TEST(AttributeTopology, SketchPutsUnitsUnderTheirRootsOnTheirNumaNodes)
{
    P4d p4d;
    AttributeTopology t(p4d.published);
    std::vector<int> components;
    const Topology sketch(t.sketch("node-a", &components));
    ASSERT_EQ(components.size(), t.units().size());
    EXPECT_EQ(sketch.shape().components.size(), 4u + 12u);
    for (size_t u = 0; u < t.units().size(); ++u) {
        const int c = components[u];
        EXPECT_EQ(sketch.pcieRoot(c), t.units()[u].position.pcieRoot);
        EXPECT_EQ(sketch.numaNode(c), t.units()[u].position.numaNode.value_or(-1));
        EXPECT_EQ(sketch.shape().components[size_t(c)].name, t.units()[u].name);
    }
    EXPECT_EQ(sketch.shape().components[0].name, "pci0000:10");
    EXPECT_EQ(sketch.shape().components[0].numaNode, 0);
    EXPECT_EQ(sketch.shape().components[3].numaNode, 1);
    EXPECT_EQ(sketch.shape().numaNodes.size(), 2u);
}

TEST(AttributeTopology, SketchNamesAreUnique)
{
    std::vector<api::Device> d { device("gpu-0", {}), device("gpu-0", {}), device("gpu-0", {}) };
    AttributeTopology t({ { "a.com", "n", &d[0] }, { "b.com", "n", &d[1] }, { "b.com", "n", &d[2] } });
    std::vector<int> components;
    const NodeShape s = t.sketch("n", &components);
    EXPECT_EQ(s.components[size_t(components[0])].name, "gpu-0");
    EXPECT_EQ(s.components[size_t(components[1])].name, "gpu-0 (b.com)");
    EXPECT_EQ(s.components[size_t(components[2])].name, "gpu-0 #2");
}

/// A random server: NUMA nodes, root complexes on them, switches and bridges, endpoints.
NodeShape randomShape(std::mt19937& rng)
{
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    NodeShape s;
    s.name = "random";
    const int numas = pick(1, 4);
    for (int n = 0; n < numas; ++n)
        s.numaNodes.push_back(NumaNode { n, n / 2, 8, {}, true, {} });
    auto add = [&](ComponentKind kind, int parent) {
        Component c;
        c.kind = kind;
        c.name = "c" + std::to_string(s.components.size());
        c.parent = parent;
        if (parent >= 0)
            s.components[size_t(parent)].children.push_back(int(s.components.size()));
        s.components.push_back(c);
        return int(s.components.size()) - 1;
    };
    int bus = 0;
    const int roots = pick(1, 6);
    for (int r = 0; r < roots; ++r) {
        const int root = add(ComponentKind::RootComplex, -1);
        char hex[8];
        std::snprintf(hex, sizeof hex, "%02x", 0x10 * (r + 1));
        s.components[size_t(root)].busId = std::string("0000:") + hex;
        s.components[size_t(root)].numaNode = pick(0, 3) == 0 ? -1 : pick(0, numas - 1);
        std::vector<int> parents { root };
        for (int k = pick(0, 3); k > 0; --k)
            parents.push_back(add(pick(0, 1) ? ComponentKind::Switch : ComponentKind::Bridge,
                parents[size_t(pick(0, int(parents.size()) - 1))]));
        for (int k = pick(1, 4); k > 0; --k) {
            const int e = add(pick(0, 1) ? ComponentKind::Gpu : ComponentKind::Nic,
                parents[size_t(pick(0, int(parents.size()) - 1))]);
            char bdf[16];
            std::snprintf(bdf, sizeof bdf, "0000:%02x:00.0", ++bus);
            s.components[size_t(e)].busId = bdf;
        }
    }
    return s;
}

/// Devices publishing what the topology knows, each attribute left out at random.
std::vector<api::Device> publishSome(const Topology& topo, std::mt19937& rng, std::vector<int>* componentOf)
{
    std::bernoulli_distribution keep(0.6);
    std::vector<api::Device> out;
    for (int e : topo.endpoints()) {
        const auto& c = topo.shape().components[size_t(e)];
        // Two devices on some physical devices (MIG instances).
        for (int copies = keep(rng) ? 1 : 2; copies > 0; --copies) {
            api::Device d;
            d.name = c.name + "-" + std::to_string(copies);
            if (keep(rng) && !topo.pcieRoot(e).empty())
                d.attributes[kRoot] = str(topo.pcieRoot(e));
            if (keep(rng))
                d.attributes[kBus] = str(c.busId);
            if (keep(rng) && topo.numaNode(e) >= 0)
                d.attributes["resource.kubernetes.io/numaNode"] = integer(topo.numaNode(e));
            out.push_back(std::move(d));
            componentOf->push_back(e);
        }
    }
    return out;
}

TEST(AttributeTopologyLaws, SymmetricSelfClosestAndTheTruthIsAlwaysInTheRange)
{
    std::mt19937 rng(20261202);
    int exactPairs = 0;
    for (int round = 0; round < 300; ++round) {
        const Topology topo(randomShape(rng));
        std::vector<int> componentOf;
        const auto devices = publishSome(topo, rng, &componentOf);
        std::vector<PublishedDevice> published;
        for (const auto& d : devices)
            published.push_back({ "gpu.example.com", "n", &d });
        const AttributeTopology t(published);
        for (size_t a = 0; a < devices.size(); ++a)
            for (size_t b = 0; b < devices.size(); ++b) {
                const auto ua = t.unitOf(a);
                const auto ub = t.unitOf(b);
                const DistanceRange d = t.distance(ua, ub);
                ASSERT_EQ(d, t.distance(ub, ua)) << "symmetric, round " << round;
                if (ua == ub) {
                    ASSERT_EQ(d.label(), "X");
                    ASSERT_EQ(componentOf[a], componentOf[b]) << "one unit is one physical device";
                } else {
                    ASSERT_FALSE(d.exact() && d.closest == DistanceClass::Self) << "units are distinct";
                    ASSERT_FALSE(fartherThan(t.distance(ua, ua), d)) << "nothing is closer than self";
                }
                const DistanceClass truth = topo.distance(componentOf[a], componentOf[b]).cls;
                ASSERT_TRUE(d.contains(truth))
                    << "round " << round << ": " << d.label() << " vs " << distanceClassName(truth);
                exactPairs += d.exact() && ua != ub ? 1 : 0;
            }
    }
    EXPECT_GT(exactPairs, 1000); // the laws hold on informative answers, not only on "unknown"
}

TEST(AttributeTopologyLaws, LessPublishedNeverNarrowsTheRange)
{
    std::mt19937 rng(7);
    for (int round = 0; round < 200; ++round) {
        const Topology topo(randomShape(rng));
        const auto& ends = topo.endpoints();
        for (int a : ends)
            for (int b : ends) {
                auto full = [&](int c) {
                    return AttributePosition { topo.pcieRoot(c), topo.shape().components[size_t(c)].busId,
                        topo.numaNode(c) >= 0 ? std::optional<int>(topo.numaNode(c)) : std::nullopt, {} };
                };
                const DistanceRange all = distanceBetween(full(a), full(b));
                for (int hide = 1; hide < 8; ++hide) {
                    AttributePosition pa = full(a);
                    if (hide & 1)
                        pa.pcieRoot.clear();
                    if (hide & 2)
                        pa.busId.clear();
                    if (hide & 4)
                        pa.numaNode.reset();
                    const DistanceRange less = distanceBetween(pa, full(b));
                    ASSERT_TRUE(less.contains(all.closest) && less.contains(all.farthest))
                        << less.label() << " does not contain " << all.label();
                }
            }
    }
}

/// Every catalog server, as the driver vocabularies publish it: the PCIe/NUMA class the shape
/// gives is always inside the range the attributes give. Fabrics are left out of the shape for the
/// comparison (attributes do not describe them), and so are imported observations.
TEST(AttributeTopologyLaws, ConsistentWithEveryCatalogShape)
{
    int checked = 0;
    int known = 0;
    for (const NodeShape& shape : testing::catalog().shapes()) {
        NodeShape pcieOnly = shape;
        pcieOnly.fabrics.clear();
        pcieOnly.observed.rows.clear();
        const Topology truth(pcieOnly);
        for (const char* variant : { "25.12", "25.3", "numa" }) {
            GenerateOptions options;
            options.nvidiaRelease = variant == std::string("numa") ? "25.12" : variant;
            options.standardNumaNode = variant == std::string("numa");
            SliceGenerator generator(std::make_shared<const Topology>(shape), options);
            const NodeObjects objects = generator.generate("node-0");
            std::vector<PublishedDevice> published;
            std::vector<int> componentOf;
            for (const auto& slice : objects.slices)
                for (const auto& d : slice.devices) {
                    auto at = generator.deviceIndex().find({ slice.driver, d.name });
                    if (at == generator.deviceIndex().end())
                        continue;
                    published.push_back({ slice.driver, slice.pool.name, &d });
                    componentOf.push_back(at->second.component);
                }
            const AttributeTopology t(published);
            for (size_t a = 0; a < published.size(); ++a)
                for (size_t b = 0; b < published.size(); ++b) {
                    const DistanceRange d = t.distance(t.unitOf(a), t.unitOf(b));
                    const DistanceClass c = truth.distance(componentOf[a], componentOf[b]).cls;
                    ASSERT_TRUE(d.contains(c))
                        << shape.name << " " << variant << ": " << published[a].device->name << " / "
                        << published[b].device->name << " " << d.label() << " vs " << distanceClassName(c);
                    ++checked;
                    known += d.known() ? 1 : 0;
                }
        }
    }
    EXPECT_GT(checked, 5000);
    EXPECT_GT(known, checked / 2);
}

} // namespace
} // namespace drasim::topology
