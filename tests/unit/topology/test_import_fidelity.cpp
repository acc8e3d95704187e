// SPDX-License-Identifier: Apache-2.0
// The import keeps what the capture says: a round-trip law over every fixture in
// tests/data/topology, then one test per kind of fact the import must not change.
#include <filesystem>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "core/topology/importers.h"
#include "core/topology/shape_reader.h"
#include "core/topology/shape_writer.h"
#include "core/topology/slice_generator.h"
#include "core/topology/topo_render.h"
#include "core/topology/topology.h"
#include "core/yamlio/yaml_tree.h"
#include "tests/unit/topology/test_helpers.h"

namespace drasim::topology {
namespace {

using testing::label;
using testing::read;

std::vector<std::string> fixtures(const std::string& prefix, const std::string& suffix)
{
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(testing::dataDir())) {
        const std::string name = e.path().filename().string();
        if (name.rfind(prefix, 0) == 0 && name.size() > suffix.size()
            && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            out.push_back(name);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// A matrix read the simple way, independent of the importer: whitespace-separated words,
// ANSI colour codes dropped; the header is the line holding "GPU0" and "Affinity".
struct TextMatrix
{
    std::vector<std::string> devices;
    std::vector<std::vector<std::string>> cells;
    std::vector<std::string> cpu, numa; // per row; empty when the row has none
    std::vector<int> line; // 1-based line of each row
    bool hasNuma = false;
};

std::vector<std::string> words(std::string line)
{
    std::string clean;
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b') {
            while (i < line.size() && line[i] != 'm')
                ++i;
            continue;
        }
        clean += line[i] == '\t' ? ' ' : line[i];
    }
    std::istringstream in(clean);
    std::vector<std::string> out;
    std::string w;
    while (in >> w)
        out.push_back(w);
    return out;
}

TextMatrix readMatrixText(const std::string& text)
{
    TextMatrix m;
    std::istringstream in(text);
    std::string line;
    int lineNo = 0;
    bool inMatrix = false;
    while (std::getline(in, line)) {
        ++lineNo;
        auto w = words(line);
        if (!inMatrix) {
            const bool deviceFirst = !w.empty() && (w[0].rfind("GPU", 0) == 0 || w[0].rfind("gpu", 0) == 0);
            if (line.find("Affinity") == std::string::npos || !deviceFirst)
                continue;
            for (const auto& x : w) {
                if (x == "CPU")
                    break;
                m.devices.push_back(x);
            }
            m.hasNuma = line.find("NUMA Affinity") != std::string::npos;
            inMatrix = true;
            continue;
        }
        if (w.empty() || std::find(m.devices.begin(), m.devices.end(), w[0]) == m.devices.end())
            continue;
        if (w.size() < m.devices.size() + 1)
            continue;
        m.cells.emplace_back(w.begin() + 1, w.begin() + 1 + std::ptrdiff_t(m.devices.size()));
        const size_t k = m.devices.size() + 1;
        m.cpu.push_back(k < w.size() ? w[k] : "");
        m.numa.push_back(m.hasNuma && k + 1 < w.size() ? w[k + 1] : "");
        m.line.push_back(lineNo);
    }
    return m;
}

NodeShape import(const std::string& name, Diagnostics& d, ImportOptions o = {})
{
    auto shapes = loadShapeInput(testing::dataDir() + "/" + name, o, d);
    if (shapes.size() != 1)
        throw std::runtime_error(name + ": " + d.formatAll());
    return shapes[0];
}

// A warning at the cell's line that names the cell (either half of the pair) and says the
// printed value differs; "kept as observed" warnings are about the tree, not the cell.
bool warnedAboutCell(const Diagnostics& d, int line, const std::string& row, const std::string& col)
{
    for (const auto& x : d.all())
        if (x.severity == Severity::Warning && x.pos.line == line
            && (x.fieldPath == "matrix." + row + "." + col || x.fieldPath == "matrix." + col + "." + row)
            && x.message.find("kept as observed") == std::string::npos)
            return true;
    return false;
}

// The law: `drasim topo FILE --matrix` prints every cell and every CPU and NUMA affinity the
// capture prints (devices in the same order); a cell it cannot keep is a warning at its line.
TEST(ImportFidelity, EveryNvidiaSmiCellAndAffinityIsKept)
{
    const auto files = fixtures("nvidia-smi-", ".txt");
    ASSERT_GE(files.size(), 12u);
    for (const auto& file : files) {
        SCOPED_TRACE(file);
        Diagnostics d;
        const NodeShape shape = import(file, d);
        EXPECT_FALSE(d.hasErrors()) << d.formatAll();
        const TextMatrix in = readMatrixText(read(file));
        const TextMatrix out = readMatrixText(renderMatrix(Topology(shape)));
        ASSERT_FALSE(in.devices.empty());
        ASSERT_EQ(in.cells.size(), in.devices.size());
        ASSERT_EQ(out.devices.size(), in.devices.size());
        ASSERT_EQ(out.cells.size(), in.cells.size());
        for (size_t r = 0; r < in.cells.size(); ++r) {
            for (size_t c = 0; c < in.devices.size(); ++c) {
                if (out.cells[r][c] != in.cells[r][c]) {
                    EXPECT_TRUE(warnedAboutCell(d, in.line[r], in.devices[r], in.devices[c]))
                        << in.devices[r] << "/" << in.devices[c] << ": " << in.cells[r][c] << " became "
                        << out.cells[r][c] << " without a warning";
                }
            }
            if (!in.cpu[r].empty()) {
                EXPECT_EQ(out.cpu[r], in.cpu[r]) << in.devices[r];
            }
            if (!in.numa[r].empty()) {
                EXPECT_EQ(out.numa[r], in.numa[r]) << in.devices[r];
            }
        }
    }
}

// hwloc bitmap, read here without the importer: comma-separated 32-bit words, most
// significant first, empty words zero.
std::string bitmapAsCpuList(const std::string& text)
{
    std::vector<std::string> words;
    std::stringstream in(text);
    std::string w;
    while (std::getline(in, w, ','))
        words.push_back(w);
    std::vector<int> cpus;
    for (size_t k = 0; k < words.size(); ++k) {
        const unsigned long bits = words[k].size() > 2 ? std::stoul(words[k].substr(2), nullptr, 16) : 0;
        for (int b = 0; b < 32; ++b)
            if (bits >> b & 1)
                cpus.push_back(int(words.size() - 1 - k) * 32 + b);
    }
    std::sort(cpus.begin(), cpus.end());
    std::string out;
    for (int c : cpus) {
        if (!out.empty())
            out += ',';
        out += std::to_string(c);
    }
    return out;
}

std::string expand(const std::string& list)
{
    std::string out;
    std::stringstream in(list);
    std::string part;
    while (std::getline(in, part, ',')) {
        const size_t dash = part.find('-');
        const int a = std::stoi(part.substr(0, dash));
        const int b = dash == std::string::npos ? a : std::stoi(part.substr(dash + 1));
        for (int k = a; k <= b; ++k) {
            if (!out.empty())
                out += ',';
            out += std::to_string(k);
        }
    }
    return out;
}

// The law for hwloc: every NUMA node of the export keeps its id and exactly its CPUs.
TEST(ImportFidelity, EveryHwlocNumaNodeKeepsItsCpus)
{
    const auto files = fixtures("hwloc-", ".xml");
    ASSERT_GE(files.size(), 5u);
    for (const auto& file : files) {
        SCOPED_TRACE(file);
        Diagnostics d;
        const NodeShape shape = import(file, d);
        const std::string text = read(file);
        const std::string marker = "type=\"NUMANode\" os_index=\"";
        size_t seen = 0;
        for (size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, at + 1)) {
            const size_t idStart = at + marker.size();
            const int id = std::stoi(text.substr(idStart, text.find('"', idStart) - idStart));
            const size_t cs = text.find("cpuset=\"", idStart) + 8;
            const std::string bitmap = text.substr(cs, text.find('"', cs) - cs);
            EXPECT_EQ(expand(cpuAffinity(shape, id)), bitmapAsCpuList(bitmap)) << "NUMA " << id;
            ++seen;
        }
        EXPECT_EQ(shape.numaNodes.size(), seen);
    }
}

// --yaml output imported again gives the same matrix and the same tree, for both formats.
TEST(ImportFidelity, YamlOfEveryImportReadsBackToTheSameTopology)
{
    auto files = fixtures("nvidia-smi-", ".txt");
    for (const auto& f : fixtures("hwloc-", ".xml"))
        files.push_back(f);
    ASSERT_GE(files.size(), 15u);
    for (const auto& file : files) {
        SCOPED_TRACE(file);
        Diagnostics d;
        const NodeShape shape = import(file, d);
        const std::string yaml = shapeToYaml(shape);
        Diagnostics d2;
        auto back = readNodeShapes(yaml, "again.yaml", d2);
        ASSERT_EQ(back.size(), 1u) << d2.formatAll() << yaml;
        EXPECT_TRUE(d2.all().empty()) << d2.formatAll();
        Topology a(shape), b(back[0]);
        EXPECT_EQ(renderMatrix(b), renderMatrix(a));
        EXPECT_EQ(renderTree(b), renderTree(a));
        EXPECT_EQ(shapeToYaml(back[0]), yaml);
    }
}

const api::Node& nodeOf(const NodeObjects& o)
{
    return o.node;
}

NodeObjects generate(const NodeShape& s, bool numaAttribute = false)
{
    GenerateOptions opts;
    opts.standardNumaNode = numaAttribute;
    return SliceGenerator(std::make_shared<Topology>(s), opts).generate("n-0");
}

// 1: SYS between devices on one NUMA node stays SYS; the tree is marked approximate.
TEST(ImportFidelity, SysOnOneNumaNodeStaysSysAndMarksTheTree)
{
    Diagnostics d;
    const NodeShape s = import("nvidia-smi-cloud-vm-4gpu-all-sys.txt", d);
    Topology t(s);
    EXPECT_EQ(label(t, "gpu0", "gpu3"), "SYS");
    EXPECT_EQ(t.numaNode(s.find("gpu3")), 0);
    EXPECT_TRUE(s.observed.treeApproximate);
    EXPECT_NE(renderTree(t).find("the tree below is an approximation"), std::string::npos);
    bool located = false;
    for (const auto& x : d.all())
        located = located
            || x.format().find("nvidia-smi-cloud-vm-4gpu-all-sys.txt:2:14: warning: NodeShape "
                               "nvidia-smi-cloud-vm-4gpu-all-sys: matrix.GPU0.GPU2: no PCIe tree gives "
                               "exactly this matrix: kept as observed (SYS); the reconstructed tree gives "
                               "NODE and is marked approximate")
                != std::string::npos;
    EXPECT_TRUE(located) << d.formatAll();
    // A capture a tree explains is not marked.
    Diagnostics d2;
    EXPECT_FALSE(import("nvidia-smi-dgx1-v100-cube-mesh.txt", d2).observed.treeApproximate);
}

// 2: CPU lists are kept as listed, and the Node's cpu counts the listed CPUs.
TEST(ImportFidelity, CpuListsAreKeptVerbatimAndCounted)
{
    Diagnostics d;
    const NodeShape sparse = import("nvidia-smi-dgx-a100.txt", d);
    std::vector<int> ids;
    for (const auto& n : sparse.numaNodes)
        ids.push_back(n.id);
    EXPECT_EQ(ids, (std::vector<int> { 1, 3, 5, 7 }));
    EXPECT_EQ(cpuAffinity(sparse, 3), "48-63,176-191");
    EXPECT_EQ(generate(sparse).node.capacity.at("cpu").toString(), "128");

    const NodeShape one = import("nvidia-smi-one-numa-node-in-use.txt", d);
    ASSERT_EQ(one.numaNodes.size(), 1u);
    EXPECT_EQ(one.numaNodes[0].id, 1);
    EXPECT_EQ(cpuAffinity(one, 1), "64-71");
    EXPECT_EQ(generate(one).node.capacity.at("cpu").toString(), "8");

    const NodeShape holes = import("nvidia-smi-noncontiguous-cpus.txt", d);
    EXPECT_EQ(cpuAffinity(holes, 0), "0,2-47,96-143");
    EXPECT_EQ(generate(holes).node.capacity.at("cpu").toString(), "95");
}

// 3: without a NUMA Affinity column, each distinct CPU list is one NUMA node.
TEST(ImportFidelity, OldDriversGetNumaNodesFromDistinctCpuLists)
{
    Diagnostics d;
    const NodeShape s = import("nvidia-smi-8gpu-mlx4-no-numa-column.txt", d);
    ASSERT_EQ(s.numaNodes.size(), 2u);
    EXPECT_EQ(cpuAffinity(s, 0), "0-9,20-29");
    EXPECT_EQ(cpuAffinity(s, 1), "10-19,30-39");
    Topology t(s);
    EXPECT_EQ(t.numaNode(s.find("gpu7")), 1);
    EXPECT_EQ(t.numaNode(s.find("nic0")), 0); // PHB to GPU0..3
    EXPECT_EQ(nodeOf(generate(s)).capacity.at("cpu").toString(), "40");
}

// 4 and 5: N/A and SYS-only NICs have no NUMA node, and none is published.
TEST(ImportFidelity, UnknownNumaStaysUnknownAndIsNotPublished)
{
    Diagnostics d;
    const NodeShape p4 = import("nvidia-smi-tesla-p4-numa-na.txt", d);
    Topology t(p4);
    EXPECT_EQ(t.numaNode(p4.find("gpu0")), -1);
    for (const auto& sl : generate(p4, true).slices)
        for (const auto& dev : sl.devices)
            EXPECT_EQ(dev.attributes.count("resource.kubernetes.io/numaNode"), 0u) << dev.name;
    EXPECT_EQ(generate(p4).node.capacity.at("cpu").toString(), "8");

    const NodeShape hgx = import("nvidia-smi-hgx-h100-ib-isolated-nics.txt", d);
    Topology h(hgx);
    EXPECT_EQ(h.numaNode(hgx.find("nic8")), -1);
    EXPECT_EQ(h.numaNode(hgx.find("nic4")), 1);
    EXPECT_EQ(hgx.components[hgx.find("nic8")].rdmaDevice, "mlx5_bond_0");
    int published = 0, isolated = 0;
    for (const auto& sl : generate(hgx).slices)
        for (const auto& dev : sl.devices) {
            if (sl.driver != "dra.net")
                continue;
            const bool numa = dev.attributes.count("dra.net/numaNode") > 0;
            published += numa;
            isolated += !numa;
        }
    EXPECT_EQ(published, 8);
    EXPECT_EQ(isolated, 2);
}

// 6: hwloc CPU ids are the PU OS indexes, interleaving included.
TEST(ImportFidelity, HwlocCpuIdsAreTheOsIndexes)
{
    Diagnostics d;
    const NodeShape s = import("hwloc-2socket-ib-bmc-dualport.xml", d);
    EXPECT_TRUE(d.all().empty()) << d.formatAll();
    EXPECT_EQ(cpuAffinity(s, 0), "0,2,4,6");
    EXPECT_EQ(cpuAffinity(s, 1), "1,3,5,7");
    const NodeShape p8 = import("hwloc-power8-p100-nvlink.xml", d);
    EXPECT_EQ(cpuAffinity(p8, 1), "80-81,88-89,96-97,104-105");
    EXPECT_EQ(generate(p8).node.capacity.at("cpu").toString(), "16");
}

// 7: NVLinkBandwidth becomes NV# as nvidia-smi prints it, for pairs and through NVSwitches.
TEST(ImportFidelity, HwlocNvlinkBandwidthBecomesNvLinks)
{
    Diagnostics d;
    const NodeShape p8 = import("hwloc-power8-p100-nvlink.xml", d);
    Topology t(p8);
    EXPECT_EQ(label(t, "gpu0", "gpu1"), "NV2");
    EXPECT_EQ(label(t, "gpu2", "gpu3"), "NV2");
    EXPECT_EQ(label(t, "gpu1", "gpu2"), "SYS");
    const NodeShape sw = import("hwloc-4gpu-nvswitch.xml", d);
    Topology u(sw);
    EXPECT_EQ(label(u, "gpu0", "gpu3"), "NV12");
    EXPECT_EQ(u.fabricIslands().size(), 1u);
    EXPECT_EQ(sw.devicesOfKind(ComponentKind::Gpu).size(), 4u); // NVSwitches are not devices
    // DGX-2: index lists split over several elements, and one NVSwitch whose config space reads
    // as zeros (known by its subtype); every GPU has six links, one to each switch on its board.
    const NodeShape dgx2 = import("hwloc-dgx2-nvswitch.xml", d);
    Topology v(dgx2);
    EXPECT_EQ(dgx2.devicesOfKind(ComponentKind::Gpu).size(), 16u);
    EXPECT_EQ(label(v, "gpu0", "gpu15"), "NV6");
    EXPECT_EQ(label(v, "gpu7", "gpu8"), "NV6");
    ASSERT_EQ(v.fabricIslands().size(), 1u);
    EXPECT_EQ(v.fabricIslands()[0].size(), 16u);
}

// 8, 9, 10: InfiniBand 0c06 is an RDMA NIC, the BMC's VGA is not a GPU, two functions are PIX.
TEST(ImportFidelity, HwlocDeviceClassesAndFunctions)
{
    Diagnostics d;
    const NodeShape s = import("hwloc-2socket-ib-bmc-dualport.xml", d);
    const auto& ib = s.components[s.find("nic2")];
    EXPECT_EQ(ib.rdmaDevice, "mlx4_0");
    EXPECT_EQ(ib.ifName, "ib0");
    ASSERT_NE(s.modelOf(ib), nullptr);
    EXPECT_TRUE(s.modelOf(ib)->rdma);
    EXPECT_EQ(s.modelOf(ib)->encapsulation, "infiniband");
    ASSERT_EQ(s.devicesOfKind(ComponentKind::Gpu).size(), 1u);
    EXPECT_EQ(s.components[s.devicesOfKind(ComponentKind::Gpu)[0]].busId, "0000:18:00.0");
    Topology t(s);
    EXPECT_EQ(label(t, "nic0", "nic1"), "PIX");
    EXPECT_EQ(label(t, "nic0", "gpu0"), "NODE");
}

// 11: architecture, reported GPU names and memory.
TEST(ImportFidelity, HwlocArchitectureModelNamesAndMemory)
{
    Diagnostics d;
    const NodeShape p8 = import("hwloc-power8-p100-nvlink.xml", d);
    EXPECT_EQ(p8.arch, "ppc64le");
    const auto objs = generate(p8);
    EXPECT_EQ(objs.node.meta.labels.at("kubernetes.io/arch"), "ppc64le");
    EXPECT_EQ(objs.node.capacity.at("memory").toString(), "133796416Ki");
    ASSERT_NE(p8.modelOf(p8.components[p8.find("gpu0")]), nullptr);
    EXPECT_EQ(p8.modelOf(p8.components[p8.find("gpu0")])->productName, "Tesla P100-SXM2-16GB");
    const NodeShape s = import("hwloc-2socket-ib-bmc-dualport.xml", d);
    EXPECT_EQ(s.components[s.find("gpu0")].model, "L40S"); // by the name the driver reports
    // Nested PLX switches: two GPUs under one leaf switch are PIX, across leaves PXB (DGX-2).
    const NodeShape dgx2 = import("hwloc-dgx2-nvswitch.xml", d);
    EXPECT_NE(dgx2.description.find("NVIDIA DGX-2H"), std::string::npos);
    EXPECT_EQ(generate(dgx2).node.capacity.at("memory").toString(), "1583957300Ki");
    EXPECT_EQ(s.arch, "amd64");
}

// 12: nvidia-smi has no memory: none is published unless --memory gives it.
TEST(ImportFidelity, NvidiaSmiMemoryIsUnsetUnlessGiven)
{
    Diagnostics d;
    const NodeShape bare = import("nvidia-smi-2x5090-phb.txt", d);
    EXPECT_EQ(generate(bare).node.capacity.count("memory"), 0u);
    EXPECT_EQ(generate(bare).node.allocatable.count("memory"), 0u);
    ASSERT_EQ(d.all().size(), 1u);
    EXPECT_NE(
        d.all()[0].format().find("nvidia-smi-2x5090-phb.txt:1:1: warning: NodeShape nvidia-smi-2x5090-phb: "
                                 "memory: nvidia-smi does not report memory; the Node publishes none "
                                 "(give the size with --memory)"),
        std::string::npos);
    ImportOptions o;
    o.memory = Quantity::parse("192Gi");
    Diagnostics d2;
    const NodeShape sized = import("nvidia-smi-2x5090-phb.txt", d2, o);
    EXPECT_TRUE(d2.all().empty()) << d2.formatAll();
    EXPECT_EQ(generate(sized).node.capacity.at("memory").toString(), "192Gi");
}

TEST(ImportFidelity, ObservedMatrixErrorsAreLocated)
{
    Diagnostics d;
    NodeShape s = import("nvidia-smi-2x5090-phb.txt", d);
    std::string yaml = shapeToYaml(s);
    const std::string good = "- \"X\"\n      - PHB\n";
    ASSERT_NE(yaml.find(good), std::string::npos) << yaml;
    yaml.replace(yaml.find(good), good.size(), "- \"X\"\n      - PHX\n");
    Diagnostics e;
    EXPECT_TRUE(readNodeShapes(yaml, "o.yaml", e).empty());
    ASSERT_EQ(e.errorCount(), 1u) << e.formatAll();
    EXPECT_NE(e.all()[0].format().find("spec.observed.rows[0].cells[1]: Unsupported value: \"PHX\""),
        std::string::npos)
        << e.formatAll();
}

} // namespace
} // namespace drasim::topology
