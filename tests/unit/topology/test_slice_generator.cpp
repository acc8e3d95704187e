// SPDX-License-Identifier: Apache-2.0
#include <set>

#include <gtest/gtest.h>

#include "core/topology/cluster_builder.h"
#include "core/topology/shape_reader.h"
#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"
#include "tests/unit/topology/test_helpers.h"

namespace drasim::topology {
namespace {

using testing::shape;

std::vector<std::string> keys(const api::Device& d)
{
    std::vector<std::string> out;
    for (const auto& [k, v] : d.attributes)
        out.push_back(k);
    return out;
}

const api::ResourceSlice* sliceOf(const api::ObjectSet& set, const std::string& driver, size_t nth = 0)
{
    for (const auto& s : set.resourceSlices)
        if (s.driver == driver && nth-- == 0)
            return &s;
    return nullptr;
}

NodeShape parseOne(const std::string& yaml)
{
    Diagnostics d;
    auto shapes = readNodeShapes(yaml, "test.yaml", d);
    if (shapes.size() != 1)
        throw std::runtime_error("test shape does not parse: " + d.formatAll());
    return shapes[0];
}

TEST(SliceGenerator, NvidiaFullGpuHasTheCurrentDriverVocabulary)
{
    auto set = generateNodePool(shape("dgx-h100"), 1, "n");
    const auto* s = sliceOf(set, "gpu.nvidia.com");
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->meta.name, "n-0-gpu.nvidia.com-0");
    EXPECT_EQ(s->pool.name, "n-0");
    EXPECT_EQ(s->pool.resourceSliceCount, 1);
    EXPECT_EQ(*s->nodeName, "n-0");
    ASSERT_EQ(s->devices.size(), 8u);
    const auto& gpu = s->devices[0];
    EXPECT_EQ(gpu.name, "gpu-0");
    EXPECT_EQ(keys(gpu),
        (std::vector<std::string> { "addressingMode", "architecture", "brand", "cudaComputeCapability",
            "cudaDriverVersion", "driverVersion", "productName", "resource.kubernetes.io/pciBusID",
            "resource.kubernetes.io/pcieRoot", "type", "uuid" }));
    EXPECT_EQ(gpu.attributes.at("type").stringValue, "gpu");
    EXPECT_EQ(gpu.attributes.at("productName").stringValue, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(gpu.attributes.at("cudaComputeCapability").type, api::DeviceAttribute::Type::Version);
    EXPECT_EQ(gpu.attributes.at("cudaComputeCapability").stringValue, "9.0.0");
    EXPECT_EQ(gpu.attributes.at("resource.kubernetes.io/pciBusID").stringValue, "0000:1b:00.0");
    EXPECT_EQ(gpu.attributes.at("resource.kubernetes.io/pcieRoot").stringValue, "pci0000:15");
    EXPECT_EQ(gpu.attributes.at("addressingMode").stringValue, "HMM");
    EXPECT_EQ(gpu.attributes.at("uuid").stringValue.rfind("GPU-", 0), 0u);
    EXPECT_EQ(gpu.capacity.at("memory").value.toString(), "81559Mi");
}

TEST(SliceGenerator, OlderNvidiaReleasesUseTheirOwnAttributeNames)
{
    GenerateOptions o;
    o.nvidiaRelease = "25.3";
    auto set = generateNodePool(shape("dgx-h100"), 1, "n", o);
    const auto& gpu = sliceOf(set, "gpu.nvidia.com")->devices[3];
    EXPECT_EQ(gpu.attributes.at("pcieBusID").stringValue, "0000:61:00.0");
    EXPECT_EQ(gpu.attributes.at("index").intValue, 3);
    EXPECT_EQ(gpu.attributes.at("minor").intValue, 3);
    EXPECT_FALSE(gpu.attributes.count("addressingMode"));
    EXPECT_FALSE(gpu.attributes.count("resource.kubernetes.io/pciBusID"));
}

TEST(SliceGenerator, GraceSystemsReportAtsAddressing)
{
    auto set = generateNodePool(shape("gb200-nvl72-tray"), 1, "n");
    const auto& gpu = sliceOf(set, "gpu.nvidia.com")->devices[0];
    EXPECT_EQ(gpu.attributes.at("addressingMode").stringValue, "ATS");
    EXPECT_EQ(gpu.attributes.at("resource.kubernetes.io/pcieRoot").stringValue, "pci0008:00");
    EXPECT_EQ(set.nodes[0].meta.labels.at("kubernetes.io/arch"), "arm64");
}

TEST(SliceGenerator, Nvl72TraysShareACliquePerRack)
{
    auto set = generateNodePool(shape("gb200-nvl72-tray"), 37, "gb");
    const auto clique = [&](int i) { return set.nodes[i].meta.labels.at("nvidia.com/gpu.clique"); };
    EXPECT_EQ(clique(0), clique(17));
    EXPECT_NE(clique(17), clique(18));
    EXPECT_EQ(clique(18), clique(35));
    EXPECT_NE(clique(35), clique(36));
    EXPECT_EQ(clique(0).substr(clique(0).size() - 2), ".0");
    auto dgx = generateNodePool(shape("dgx-h100"), 1, "d");
    EXPECT_FALSE(dgx.nodes[0].meta.labels.count("nvidia.com/gpu.clique"));
}

TEST(SliceGenerator, NodeObjectCarriesHostnameAndAllocatable)
{
    auto set = generateNodePool(shape("dgx-h100"), 3, "gpu");
    ASSERT_EQ(set.nodes.size(), 3u);
    const auto& n = set.nodes[2];
    EXPECT_EQ(n.meta.name, "gpu-2");
    EXPECT_EQ(n.meta.labels.at("kubernetes.io/hostname"), "gpu-2");
    EXPECT_EQ(n.meta.labels.at("node.kubernetes.io/instance-type"), "dgx-h100");
    EXPECT_EQ(n.capacity.at("cpu").toString(), "224");
    EXPECT_EQ(n.allocatable.at("cpu").toString(), "222");
    EXPECT_EQ(n.capacity.at("memory").toString(), "2Ti");
    EXPECT_EQ(n.allocatable.at("memory").toString(), "2032Gi");
    EXPECT_EQ(n.allocatable.at("pods").toString(), "110");
}

TEST(SliceGenerator, DranetPublishesEveryNonPrimaryNicWithPciNames)
{
    auto set = generateNodePool(shape("a100-pcie-8gpu"), 1, "n");
    const auto* s = sliceOf(set, "dra.net");
    ASSERT_NE(s, nullptr);
    std::vector<std::string> names;
    for (const auto& d : s->devices)
        names.push_back(d.name);
    // eth0 carries the default route and is not published.
    EXPECT_EQ(names, (std::vector<std::string> { "pci-0000-1d-00-0", "pci-0000-9e-00-0" }));
    const auto& nic = s->devices[0];
    EXPECT_EQ(nic.attributes.at("dra.net/pciAddress").stringValue, "0000:1d:00.0");
    EXPECT_EQ(nic.attributes.at("dra.net/numaNode").intValue, 0);
    EXPECT_EQ(nic.attributes.at("dra.net/rdma").boolValue, true);
    EXPECT_EQ(nic.attributes.at("dra.net/ifName").stringValue, "enp29s0np0");
    EXPECT_EQ(nic.attributes.at("dra.net/pciDevice").stringValue, "MT2892 Family [ConnectX-6 Dx]");
    EXPECT_EQ(nic.attributes.at("resource.kubernetes.io/pcieRoot").stringValue, "pci0000:16");
    EXPECT_TRUE(nic.capacity.empty());
}

TEST(SliceGenerator, AmdGaudiFpgaAndExampleDriversNameDevicesTheirWay)
{
    auto amd = generateNodePool(shape("mi300x-8gpu"), 1, "n");
    const auto& mi = sliceOf(amd, "gpu.amd.com")->devices[1];
    EXPECT_EQ(mi.name, "gpu-1-129");
    EXPECT_EQ(mi.attributes.at("productName").stringValue, "AMD_Instinct_MI300X_OAM");
    EXPECT_EQ(mi.attributes.at("numaNode").intValue, 0);
    EXPECT_EQ(mi.capacity.at("memory").value.toString(), "196592Mi");
    EXPECT_EQ(mi.capacity.at("computeUnits").value.toString(), "304");

    auto gaudi = generateNodePool(shape("gaudi3-8"), 1, "n");
    const auto& hl = sliceOf(gaudi, "gaudi.intel.com")->devices[0];
    EXPECT_EQ(hl.name, "0000-1b-00-0-0x1060");
    EXPECT_EQ(hl.attributes.at("model").stringValue, "Gaudi3");
    EXPECT_EQ(hl.attributes.at("pciRoot").stringValue, "19");
    EXPECT_EQ(hl.attributes.at("resource.kubernetes.io/pcieRoot").stringValue, "pci0000:19");

    auto fpga = generateNodePool(shape("alveo-u55c-4fpga"), 1, "n");
    const auto& f = sliceOf(fpga, "fpga.example.com")->devices[3];
    EXPECT_EQ(f.name, "fpga-3");
    EXPECT_EQ(f.attributes.at("shell").stringValue, "xilinx_u55c_gen3x16_xdma_base_3");
    EXPECT_EQ(f.capacity.at("memory").value.toString(), "16Gi");

    auto ex = generateNodePool(shape("example-8gpu"), 1, "n");
    const auto& g = sliceOf(ex, "gpu.example.com")->devices[7];
    EXPECT_EQ(g.name, "gpu-7");
    EXPECT_EQ(g.attributes.at("index").intValue, 7);
    EXPECT_EQ(g.attributes.at("model").stringValue, "LATEST-GPU-MODEL");
    EXPECT_EQ(g.capacity.at("compute").value.toString(), "100");
}

TEST(SliceGenerator, IntelGpuUsesPciNamesAndMillicores)
{
    auto s = parseOne(R"(apiVersion: drasim.dev/v1alpha1
kind: NodeShape
metadata: {name: max-box}
spec:
  cpu:
    sockets: [{numaNodes: [{id: 0, cores: 56, memory: 512Gi}]}]
  pcie:
    - {name: rc-0, bus: "0000:03", numaNode: 0, children: [
        {kind: gpu, name: gpu0, model: Max-1550, busID: "0000:04:00.0"}]}
)");
    auto set = generateNodePool(s, 1, "n");
    const auto* sl = sliceOf(set, "gpu.intel.com");
    ASSERT_NE(sl, nullptr);
    const auto& g = sl->devices[0];
    EXPECT_EQ(g.name, "0000-04-00-0-0x0bd5");
    EXPECT_EQ(g.attributes.at("model").stringValue, "Max 1550");
    EXPECT_EQ(g.attributes.at("family").stringValue, "Data Center Max");
    EXPECT_EQ(g.attributes.at("pciRoot").stringValue, "03");
    EXPECT_EQ(g.attributes.at("type").stringValue, "gpu");
    EXPECT_EQ(g.capacity.at("millicores").value.toString(), "1k");
    EXPECT_EQ(g.capacity.at("memory").value.toString(), "128Gi");
}

TEST(SliceGenerator, CpuOnlyNodeHasNoSlices)
{
    auto set = generateNodePool(shape("cpu-epyc-9654"), 2, "cpu");
    EXPECT_EQ(set.nodes.size(), 2u);
    EXPECT_TRUE(set.resourceSlices.empty());
    EXPECT_EQ(set.nodes[0].allocatable.at("pods").toString(), "250");
}

const char* kA100Sxm = R"(apiVersion: drasim.dev/v1alpha1
kind: NodeShape
metadata: {name: a100-mig}
spec:
  nvidia: {mig: static}
  cpu:
    sockets: [{numaNodes: [{id: 0, cores: 64, memory: 1Ti}]}]
  pcie:
    - {name: rc-0, bus: "0000:07", numaNode: 0, children: [
        {kind: gpu, name: gpu0, model: A100-SXM4-40GB, busID: "0000:07:00.0",
         migLayout: [1g.5gb, 1g.5gb, 2g.10gb, 3g.20gb]},
        {kind: gpu, name: gpu1, model: A100-SXM4-40GB, busID: "0000:0f:00.0"}]}
)";

TEST(SliceGenerator, StaticMigPublishesEachInstanceAndHidesTheParent)
{
    auto set = generateNodePool(parseOne(kA100Sxm), 1, "n");
    const auto* s = sliceOf(set, "gpu.nvidia.com");
    ASSERT_NE(s, nullptr);
    std::vector<std::string> names;
    for (const auto& d : s->devices)
        names.push_back(d.name);
    EXPECT_EQ(names,
        (std::vector<std::string> { "gpu-0-mig-1g5gb-19-0", "gpu-0-mig-1g5gb-19-1", "gpu-0-mig-2g10gb-14-2",
            "gpu-0-mig-3g20gb-9-4", "gpu-1" }));
    const auto& mig = s->devices[3];
    EXPECT_EQ(mig.attributes.at("type").stringValue, "mig");
    EXPECT_EQ(mig.attributes.at("profile").stringValue, "3g.20gb");
    EXPECT_EQ(mig.attributes.at("uuid").stringValue.rfind("MIG-", 0), 0u);
    EXPECT_EQ(
        mig.attributes.at("parentUUID").stringValue, s->devices[0].attributes.at("parentUUID").stringValue);
    EXPECT_EQ(mig.capacity.at("multiprocessors").value.toString(), "42");
    EXPECT_EQ(mig.capacity.at("memory").value.toString(), "19968Mi");
    for (int i = 4; i < 8; ++i)
        EXPECT_EQ(mig.capacity.at("memorySlice" + std::to_string(i)).value.toString(), "1");
    EXPECT_FALSE(mig.capacity.count("memorySlice3"));
}

TEST(SliceGenerator, DgxA100HalfBalancedMatchesTheNvidiaMigDemo)
{
    auto set = generateNodePool(shape("dgx-a100-mig"), 1, "n");
    const auto* s = sliceOf(set, "gpu.nvidia.com");
    ASSERT_NE(s, nullptr);
    int mig = 0, whole = 0;
    for (const auto& d : s->devices)
        (d.attributes.at("type").stringValue == "mig" ? mig : whole)++;
    EXPECT_EQ(mig, 16);
    EXPECT_EQ(whole, 4);
    EXPECT_EQ(s->devices[0].name, "gpu-0-mig-1g5gb-19-0");
    EXPECT_EQ(s->devices.back().name, "gpu-7");
}

TEST(SliceGenerator, ImpossibleMigLayoutIsRejectedAtTheField)
{
    std::string yaml = kA100Sxm;
    yaml.replace(yaml.find("2g.10gb, 3g.20gb"), 16, "4g.20gb, 4g.20gb");
    Diagnostics d;
    auto shapes = readNodeShapes(yaml, "mig.yaml", d);
    EXPECT_TRUE(shapes.empty());
    ASSERT_EQ(d.errorCount(), 1u) << d.formatAll();
    EXPECT_EQ(d.all()[0].format(),
        "mig.yaml:11:21: NodeShape a100-mig: spec.pcie[0].children[0].migLayout: MIG layout needs 10 compute "
        "slices, the GPU has 7");
}

TEST(SliceGenerator, BadLayoutFromOptionsIsReportedOnce)
{
    GenerateOptions o;
    o.mig = MigMode::Static;
    o.migLayout = { "9g.1tb" };
    Diagnostics d;
    auto topo = std::make_shared<Topology>(shape("dgx-h100"));
    SliceGenerator gen(topo, o, &d);
    ASSERT_EQ(d.errorCount(), 1u) << d.formatAll();
    EXPECT_EQ(d.all()[0].format(),
        "NodeShape dgx-h100: --mig-layout: unknown MIG profile \"9g.1tb\" for "
        "H100-SXM5-80GB (known: 1g.10gb 1g.10gb+me 1g.20gb 2g.20gb 3g.40gb 4g.40gb 7g.80gb)");
}

TEST(SliceGenerator, DynamicMigSplitsCountersFromDevices)
{
    GenerateOptions o;
    o.mig = MigMode::Dynamic;
    auto set = generateNodePool(shape("dgx-h100"), 1, "n", o);
    std::vector<const api::ResourceSlice*> slices;
    for (const auto& s : set.resourceSlices)
        if (s.driver == "gpu.nvidia.com")
            slices.push_back(&s);
    ASSERT_EQ(slices.size(), 9u);
    EXPECT_TRUE(slices[0]->devices.empty());
    ASSERT_EQ(slices[0]->sharedCounters.size(), 8u);
    const auto& cs = slices[0]->sharedCounters[0];
    EXPECT_EQ(cs.name, "gpu-0-counter-set");
    EXPECT_EQ(cs.counters.at("multiprocessors").toString(), "132");
    EXPECT_EQ(cs.counters.at("memory-slice-7").toString(), "1");
    for (const auto* s : slices)
        EXPECT_EQ(s->pool.resourceSliceCount, 9);
    const auto& devs = slices[1]->devices;
    ASSERT_FALSE(devs.empty());
    // Hopper keeps the full GPU; it consumes every counter of its set.
    EXPECT_EQ(devs[0].name, "gpu-0");
    EXPECT_EQ(devs[0].consumesCounters[0].counters.size(), cs.counters.size());
    EXPECT_TRUE(std::is_sorted(devs.begin(), devs.end(),
        [](const api::Device& a, const api::Device& b) { return a.name < b.name; }));
    EXPECT_EQ(devs[1].name, "gpu-0-mig-1g10gb-19-0");
    EXPECT_EQ(devs[1].consumesCounters[0].counters.at("memory-slice-0").toString(), "1");
    EXPECT_FALSE(devs[1].consumesCounters[0].counters.count("memory-slice-1"));
    EXPECT_FALSE(devs[1].attributes.count("uuid"));
    bool sawMe = false;
    for (const auto& d : devs)
        sawMe = sawMe || d.name == "gpu-0-mig-1g10gb-me-20-6";
    EXPECT_TRUE(sawMe);
    // 1 full + 7 + 7 + 4 + 3 + 2 + 1 + 1 partitions, under the 64-device limit for counter users.
    EXPECT_EQ(devs.size(), 26u);
}

TEST(SliceGenerator, AmpereDynamicMigHasNoFullDevice)
{
    GenerateOptions o;
    o.mig = MigMode::Dynamic;
    auto set = generateNodePool(shape("a100-pcie-8gpu"), 1, "n", o);
    for (const auto& s : set.resourceSlices)
        for (const auto& d : s.devices)
            EXPECT_NE(d.name, "gpu-0");
}

TEST(SliceGenerator, OutputIsDeterministicAndPerNode)
{
    auto a = yamlio::toYamlList(generateNodePool(shape("hgx-b200"), 2, "n"));
    auto b = yamlio::toYamlList(generateNodePool(shape("hgx-b200"), 2, "n"));
    EXPECT_EQ(a, b);
    auto set = generateNodePool(shape("hgx-b200"), 2, "n");
    std::set<std::string> uuids;
    for (const auto& s : set.resourceSlices)
        for (const auto& d : s.devices) {
            if (d.attributes.count("uuid")) {
                EXPECT_TRUE(uuids.insert(d.attributes.at("uuid").stringValue).second) << d.name;
            }
        }
    EXPECT_EQ(uuids.size(), 16u);
}

TEST(SliceGenerator, OptionalStandardNumaAttribute)
{
    GenerateOptions o;
    o.standardNumaNode = true;
    auto set = generateNodePool(shape("dgx-h100"), 1, "n", o);
    const auto& gpu = sliceOf(set, "gpu.nvidia.com")->devices[6];
    EXPECT_EQ(gpu.attributes.at("resource.kubernetes.io/numaNode").intValue, 1);
}

// Whatever we generate must pass the same validation as objects read from a cluster dump.
TEST(SliceGenerator, GeneratedObjectsPassTheManifestLoader)
{
    for (const auto& shape : testing::catalog().shapes()) {
        for (auto mode : { MigMode::None, MigMode::Dynamic }) {
            GenerateOptions o;
            o.mig = mode;
            auto set = generateNodePool(shape, 2, "n", o);
            auto loaded = yamlio::loadText(yamlio::toYamlList(set), shape.name + ".yaml");
            EXPECT_FALSE(loaded.diagnostics.hasErrors())
                << shape.name << ": " << loaded.diagnostics.formatAll();
            EXPECT_EQ(loaded.objects.resourceSlices.size(), set.resourceSlices.size()) << shape.name;
            EXPECT_EQ(loaded.objects.nodes.size(), 2u) << shape.name;
        }
    }
}

TEST(ClusterBuilder, PoolsMustNotShareNodeNames)
{
    ClusterBuilder b;
    Diagnostics d;
    EXPECT_TRUE(b.addPool(shape("dgx-h100"), 2, "gpu", {}, &d));
    EXPECT_FALSE(b.addPool(shape("l40s-pcie-4gpu"), 2, "gpu", {}, &d));
    ASSERT_EQ(d.errorCount(), 1u);
    EXPECT_NE(d.all()[0].message.find("gpu-0 which an earlier pool already has"), std::string::npos);
    EXPECT_TRUE(b.addPool(shape("l40s-pcie-4gpu"), 2, "", {}, &d));
    auto set = b.build();
    EXPECT_EQ(set.nodes.size(), 4u);
    EXPECT_EQ(set.nodes[3].meta.name, "l40s-pcie-4gpu-1");
    EXPECT_EQ(b.nodeCount(), 4);
}

} // namespace
} // namespace drasim::topology
