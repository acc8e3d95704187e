// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/topology/importers.h"
#include "core/topology/shape_reader.h"
#include "core/topology/shape_writer.h"
#include "core/topology/slice_generator.h"
#include "core/topology/topology.h"
#include "core/yamlio/yaml_tree.h"
#include "tests/unit/topology/test_helpers.h"

namespace drasim::topology {
namespace {

using testing::label;
using testing::read;

TEST(NvidiaSmiImport, RebuildsATreeThatGivesTheSameMatrix)
{
    const std::string text = read("nvidia-smi-4gpu-2nic.txt");
    EXPECT_EQ(detectFormat(text), InputFormat::NvidiaSmiTopo);
    Diagnostics d;
    NodeShape s;
    ImportOptions o;
    o.shapeName = "lab-box";
    o.memory = Quantity::parse("512Gi");
    ASSERT_TRUE(importNvidiaSmiTopo(text, "topo.txt", o, s, d)) << d.formatAll();
    EXPECT_TRUE(d.all().empty()) << d.formatAll();
    EXPECT_FALSE(s.observed.treeApproximate);
    EXPECT_EQ(s.totalMemory().toString(), "512Gi");
    EXPECT_EQ(s.numaNodes[0].memory.toString(), "256Gi");
    Topology t(s);
    EXPECT_EQ(label(t, "gpu0", "gpu1"), "NV4");
    EXPECT_EQ(label(t, "gpu0", "nic0"), "PIX");
    EXPECT_EQ(label(t, "gpu1", "nic0"), "PXB");
    EXPECT_EQ(label(t, "gpu2", "nic1"), "NODE");
    EXPECT_EQ(label(t, "gpu3", "nic1"), "PHB");
    EXPECT_EQ(label(t, "gpu0", "gpu2"), "SYS");
    EXPECT_EQ(label(t, "nic0", "nic1"), "SYS");
    EXPECT_EQ(t.numaNode(s.find("gpu3")), 1);
    EXPECT_EQ(t.numaNode(s.find("nic0")), 0);
    EXPECT_EQ(s.threadsPerCore, 2);
    ASSERT_EQ(s.numaNodes.size(), 2u);
    EXPECT_EQ(s.numaNodes[1].cores, 16);
    EXPECT_EQ(s.components[s.find("nic1")].rdmaDevice, "mlx5_1");
    EXPECT_EQ(t.fabricIslands().size(), 2u);
}

TEST(NvidiaSmiImport, DgxA100WithOldStyleNicColumns)
{
    Diagnostics d;
    NodeShape s;
    ImportOptions o;
    o.gpuModel = "A100-SXM4-40GB";
    o.nicModel = "ConnectX-6-Dx";
    ASSERT_TRUE(importNvidiaSmiTopo(read("nvidia-smi-dgx-a100.txt"), "dgx-a100.txt", o, s, d))
        << d.formatAll();
    Topology t(s);
    EXPECT_EQ(t.endpoints().size(), 12u);
    EXPECT_EQ(label(t, "gpu0", "gpu7"), "NV12");
    EXPECT_EQ(label(t, "gpu0", "nic0"), "PXB");
    EXPECT_EQ(label(t, "gpu0", "nic1"), "SYS");
    EXPECT_EQ(t.numaNode(s.find("gpu4")), 7);
    EXPECT_EQ(s.components[s.find("nic2")].rdmaDevice, "mlx5_2");
    ASSERT_EQ(t.fabricIslands().size(), 1u);
    // The import is usable for slices: the named models give real driver attributes.
    SliceGenerator gen(std::make_shared<Topology>(s), {});
    auto objs = gen.generate("a100-0");
    ASSERT_FALSE(objs.slices.empty());
    bool sawGpu = false;
    for (const auto& sl : objs.slices)
        for (const auto& dev : sl.devices)
            if (dev.name == "gpu-0") {
                sawGpu = true;
                EXPECT_EQ(dev.attributes.at("productName").stringValue, "NVIDIA A100-SXM4-40GB");
            }
    EXPECT_TRUE(sawGpu);
}

TEST(NvidiaSmiImport, UnknownLabelIsLocated)
{
    Diagnostics d;
    NodeShape s;
    EXPECT_FALSE(importNvidiaSmiTopo(read("invalid-nvidia-smi-label.txt"), "bad.txt", {}, s, d));
    ASSERT_EQ(d.errorCount(), 1u) << d.formatAll();
    EXPECT_EQ(d.all()[0].format(),
        "bad.txt:2:10: NodeShape imported: matrix.GPU0.GPU1: unknown topology label "
        "\"PIXX\" (expected X, NV#, PIX, PXB, PHB, NODE or SYS)");
}

TEST(NvidiaSmiImport, ShortAndMissingRowsAreErrors)
{
    Diagnostics d;
    NodeShape s;
    EXPECT_FALSE(importNvidiaSmiTopo(read("invalid-nvidia-smi-rows.txt"), "rows.txt", {}, s, d));
    ASSERT_EQ(d.errorCount(), 2u) << d.formatAll();
    EXPECT_EQ(d.all()[0].format(),
        "rows.txt:3:11: NodeShape imported: matrix.GPU1: row has 2 cells, the header lists 3 devices");
    EXPECT_EQ(d.all()[1].format(),
        "rows.txt:1:1: NodeShape imported: matrix.GPU2: the header lists GPU2 but it has no row");
}

TEST(NvidiaSmiImport, NoMatrixAtAll)
{
    Diagnostics d;
    NodeShape s;
    EXPECT_FALSE(importNvidiaSmiTopo("No devices were found\n", "empty.txt", {}, s, d));
    ASSERT_EQ(d.errorCount(), 1u);
    EXPECT_EQ(d.all()[0].format(),
        "empty.txt:1:1: NodeShape imported: no nvidia-smi topology matrix found "
        "(expected a header line \"GPU0 GPU1 ... CPU Affinity\")");
}

TEST(NvidiaSmiImport, AsymmetricMatrixWarns)
{
    std::string text = read("nvidia-smi-4gpu-2nic.txt");
    // NIC1's row says NODE to GPU3 while GPU3's row says PHB.
    text.replace(text.find("NIC1\tSYS\tSYS\tNODE\tPHB"), 21, "NIC1\tSYS\tSYS\tNODE\tNODE");
    Diagnostics d;
    NodeShape s;
    ImportOptions o;
    o.memory = Quantity::parse("1Ti");
    ASSERT_TRUE(importNvidiaSmiTopo(text, "asym.txt", o, s, d));
    EXPECT_FALSE(d.hasErrors());
    ASSERT_EQ(d.all().size(), 1u) << d.formatAll();
    EXPECT_EQ(d.all()[0].format(),
        "asym.txt:7:19: warning: NodeShape imported: matrix.NIC1.GPU3: matrix is not "
        "symmetric (PHB vs NODE); both cells are kept as observed, the PCIe tree follows the upper triangle");
    // Both halves print as given.
    Topology t(s);
    EXPECT_EQ(label(t, "nic1", "gpu3"), "NODE");
    EXPECT_EQ(label(t, "gpu3", "nic1"), "PHB");
}

TEST(HwlocImport, SwitchesCollapseToOneBridgeLikeNvidiaSmi)
{
    const std::string text = read("hwloc-2socket-h100.xml");
    EXPECT_EQ(detectFormat(text), InputFormat::HwlocXml);
    Diagnostics d;
    NodeShape s;
    ImportOptions o;
    o.shapeName = "sr675";
    ASSERT_TRUE(importHwlocXml(text, "sr675.xml", o, s, d)) << d.formatAll();
    EXPECT_TRUE(d.all().empty()) << d.formatAll();
    Topology t(s);
    EXPECT_EQ(label(t, "gpu0", "nic0"), "PIX");
    EXPECT_EQ(label(t, "gpu1", "nic1"), "PHB");
    EXPECT_EQ(label(t, "gpu0", "gpu1"), "SYS");
    EXPECT_EQ(label(t, "gpu0", "dev0"), "PHB");
    EXPECT_EQ(t.pcieRoot(s.find("gpu1")), "pci0000:40");
    EXPECT_EQ(t.numaNode(s.find("nic1")), 1);
    EXPECT_EQ(s.components[s.find("gpu0")].model, "H100-SXM5-80GB");
    EXPECT_EQ(s.components[s.find("nic0")].model, "ConnectX-7-IB");
    EXPECT_EQ(s.components[s.find("nic0")].ifName, "ibp4s0");
    EXPECT_EQ(s.components[s.find("nic0")].rdmaDevice, "mlx5_0");
    EXPECT_EQ(s.components[s.find("nic1")].model, "Thor2-400G");
    ASSERT_EQ(s.sockets.size(), 2u);
    EXPECT_EQ(s.sockets[0].model, "AMD EPYC 9334 32-Core Processor");
    EXPECT_EQ(s.threadsPerCore, 2);
    EXPECT_EQ(s.numaNodes[0].memory.toString(), "376Gi");
    EXPECT_NE(s.description.find("ThinkSystem SR675 V3"), std::string::npos);
}

// A server's VGA chip is not a GPU: the ProLiant's ATI ES1000 (VGA class 0300, AMD's vendor id,
// no OS device) beside three Tesla M2070 (3D class 0302, no OS device either) gives three GPUs.
TEST(HwlocImport, VgaChipOfAnAcceleratorVendorIsNoGpu)
{
    Diagnostics d;
    NodeShape s;
    ASSERT_TRUE(importHwlocXml(read("hwloc-2socket-proliant-es1000.xml"), "sl390s.xml", {}, s, d))
        << d.formatAll();
    const auto gpus = s.devicesOfKind(ComponentKind::Gpu);
    ASSERT_EQ(gpus.size(), 3u) << d.formatAll();
    std::vector<std::string> busIds;
    for (int g : gpus) {
        busIds.push_back(s.components[g].busId);
        EXPECT_EQ(s.components[g].model, "pci-10de-06d2");
    }
    EXPECT_EQ(busIds, (std::vector<std::string> { "0000:06:00.0", "0000:84:00.0", "0000:88:00.0" }));
    for (const auto& c : s.components)
        EXPECT_NE(c.busId, "0000:01:03.0") << c.name;
    for (const auto& m : s.models)
        EXPECT_NE(m.pciVendorId, "0x1002") << m.id;
}

// A VGA-class device is a GPU with a compute OS device (CUDA, NVML, OpenCL, RSMI, Level Zero) or
// as a built-in model; the vendor alone makes a GPU of the 3D (0302) and other-display (0380)
// classes, and of AMD's processing accelerators (1200), only.
TEST(HwlocImport, VgaClassNeedsAComputeDeviceOrAKnownModel)
{
    auto gpusOf = [](const std::string& pciType, const std::string& osdev) {
        const std::string xml
            = "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n"
              "<object type=\"Machine\" os_index=\"0\" cpuset=\"0x00000001\">\n"
              "<object type=\"NUMANode\" os_index=\"0\" cpuset=\"0x00000001\"/>\n"
              "<object type=\"PU\" os_index=\"0\" cpuset=\"0x00000001\"/>\n"
              "<object type=\"Bridge\" bridge_type=\"0-1\" depth=\"0\" bridge_pci=\"0000:[00-01]\">\n"
              "<object type=\"PCIDev\" pci_busid=\"0000:01:00.0\" pci_type=\""
            + pciType + "\">" + osdev + "</object>\n</object>\n</object>\n</topology>\n";
        Diagnostics d;
        NodeShape s;
        EXPECT_TRUE(importHwlocXml(xml, "x.xml", {}, s, d)) << d.formatAll();
        return s.devicesOfKind(ComponentKind::Gpu).size();
    };
    const std::string none;
    const std::string rsmi = "<object type=\"OSDev\" name=\"rsmi0\" osdev_type=\"5\"/>";
    const std::string opencl = "<object type=\"OSDev\" name=\"opencl0d0\" osdev_type=\"5\"/>";
    const std::string drm = "<object type=\"OSDev\" name=\"card0\" subtype=\"DRM\" osdev_type=\"1\"/>";
    EXPECT_EQ(gpusOf("0300 [1002:515e] [103c:31fb] 02", none), 0u); // ES1000
    EXPECT_EQ(gpusOf("0300 [1002:744c] [1002:0e3b] c8", drm), 0u); // a Radeon with only its display
    EXPECT_EQ(gpusOf("0300 [1002:744c] [1002:0e3b] c8", rsmi), 1u);
    EXPECT_EQ(gpusOf("0300 [10de:2684] [10de:16f3] a1", none), 0u); // a GeForce hwloc saw no driver of
    EXPECT_EQ(gpusOf("0300 [10de:2684] [10de:16f3] a1", opencl), 1u);
    EXPECT_EQ(gpusOf("0300 [10de:2330] [10de:16c1] a1", none), 1u); // a built-in model (H100)
    EXPECT_EQ(gpusOf("0302 [10de:06d2] [10de:0846] a3", none), 1u); // Tesla M2070
    EXPECT_EQ(gpusOf("0380 [1002:738c] [1002:0c34] 01", none), 1u); // Instinct MI100
    EXPECT_EQ(gpusOf("1200 [1002:74a1] [1002:74a1] 00", none), 1u); // Instinct MI300X
}

TEST(HwlocImport, MalformedXmlIsLocated)
{
    Diagnostics d;
    NodeShape s;
    EXPECT_FALSE(importHwlocXml(read("invalid-hwloc-mismatch.xml"), "m.xml", {}, s, d));
    ASSERT_EQ(d.errorCount(), 1u);
    EXPECT_EQ(d.all()[0].format(),
        "m.xml:5:13: NodeShape imported: malformed XML: closing tag </objekt> does not "
        "match <object> opened at line 4");
    Diagnostics d2;
    EXPECT_FALSE(importHwlocXml(read("invalid-hwloc-truncated.xml"), "t.xml", {}, s, d2));
    ASSERT_EQ(d2.errorCount(), 1u);
    EXPECT_NE(d2.all()[0].message.find("malformed XML: unterminated value of attribute pci_busid"),
        std::string::npos)
        << d2.formatAll();
    Diagnostics d3;
    EXPECT_FALSE(importHwlocXml("<?xml version=\"1.0\"?>\n<html></html>\n", "x.xml", {}, s, d3));
    EXPECT_EQ(d3.all()[0].format(),
        "x.xml:2:1: NodeShape imported: root element is <html>, expected <topology> "
        "(hwloc XML)");
}

TEST(ShapeWriter, ImportRoundTripsThroughYaml)
{
    Diagnostics d;
    NodeShape s;
    ImportOptions o;
    o.shapeName = "sr675";
    ASSERT_TRUE(importHwlocXml(read("hwloc-2socket-h100.xml"), "sr675.xml", o, s, d));
    const std::string yaml = shapeToYaml(s);
    auto back = readNodeShapes(yaml, "roundtrip.yaml", d);
    ASSERT_EQ(back.size(), 1u) << d.formatAll() << yaml;
    EXPECT_EQ(shapeToYaml(back[0]), yaml);
    Topology a(s), b(back[0]);
    EXPECT_EQ(label(a, "gpu0", "nic0"), label(b, "gpu0", "nic0"));
}

TEST(ShapeWriter, CatalogShapesRoundTrip)
{
    for (const auto& shape : testing::catalog().shapes()) {
        Diagnostics d;
        auto back = readNodeShapes(shapeToYaml(shape), shape.name + ".yaml", d);
        ASSERT_EQ(back.size(), 1u) << shape.name << ": " << d.formatAll();
        EXPECT_EQ(shapeToYaml(back[0]), shapeToYaml(shape)) << shape.name;
    }
}

TEST(ResolveShapeArgument, FileCatalogNameAndUnknownName)
{
    Diagnostics d;
    auto byName = resolveShapeArgument("dgx-h100", testing::hardwareDir(), {}, d);
    ASSERT_EQ(byName.size(), 1u);
    ImportOptions withMemory;
    withMemory.memory = Quantity::parse("256Gi");
    auto byFile = resolveShapeArgument(testing::dataDir() + "/nvidia-smi-4gpu-2nic.txt", "", withMemory, d);
    ASSERT_EQ(byFile.size(), 1u) << d.formatAll();
    EXPECT_EQ(byFile[0].name, "nvidia-smi-4gpu-2nic");
    EXPECT_FALSE(d.hasErrors());
    auto none = resolveShapeArgument("dgx-h900", testing::hardwareDir(), {}, d);
    EXPECT_TRUE(none.empty());
    ASSERT_EQ(d.errorCount(), 1u);
    EXPECT_NE(d.all()[0].message.find("no such file or catalog shape"), std::string::npos);
    EXPECT_NE(d.all()[0].message.find("dgx-h100"), std::string::npos);
}

} // namespace
} // namespace drasim::topology

namespace drasim::topology {
namespace {

// Every prefix of every sample (a truncated download, a cut-off paste) must give diagnostics or
// a shape, never a crash or a hang.
TEST(ImportRobustness, TruncatedInputsNeverCrash)
{
    for (const char* name : { "nvidia-smi-4gpu-2nic.txt", "nvidia-smi-dgx-a100.txt", "hwloc-2socket-h100.xml",
             "nvidia-smi-tesla-p4-numa-na.txt", "nvidia-smi-8gpu-mlx4-no-numa-column.txt",
             "nvidia-smi-hgx-h100-ib-isolated-nics.txt", "hwloc-power8-p100-nvlink.xml",
             "hwloc-4gpu-nvswitch.xml", "hwloc-2socket-ib-bmc-dualport.xml" }) {
        const std::string text = read(name);
        for (size_t len = 0; len <= text.size(); len += (len < 400 ? 1 : 37)) {
            Diagnostics d;
            NodeShape s;
            const std::string part = text.substr(0, len);
            const bool ok = detectFormat(part) == InputFormat::HwlocXml
                ? importHwlocXml(part, name, {}, s, d)
                : importNvidiaSmiTopo(part, name, {}, s, d);
            EXPECT_TRUE(ok || d.hasErrors()) << name << " prefix " << len;
        }
    }
}

TEST(ImportRobustness, TruncatedShapesNeverCrash)
{
    std::string text;
    ASSERT_TRUE(yamlio::readFile(testing::hardwareDir() + "/a100-pcie-8gpu.yaml", text));
    for (size_t len = 0; len <= text.size(); len += 13) {
        Diagnostics d;
        auto shapes = readNodeShapes(text.substr(0, len), "cut.yaml", d);
        EXPECT_TRUE(shapes.size() <= 1);
    }
}

} // namespace
} // namespace drasim::topology
