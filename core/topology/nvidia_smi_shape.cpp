// SPDX-License-Identifier: Apache-2.0
// Capture → NodeShape for `nvidia-smi topo -m`. The matrix is the observation and is kept as
// is; the PCIe tree, NUMA nodes and fabrics are rebuilt around it for what the matrix does not
// say (bus addresses, which devices share a root complex for the pcieRoot attribute).
#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "core/topology/cpu_list.h"
#include "core/topology/nvidia_smi_capture.h"
#include "core/topology/shape_reader.h"

namespace drasim::topology::smi {

namespace {

struct UnionFind
{
    std::vector<int> p;
    explicit UnionFind(size_t n)
        : p(n)
    {
        std::iota(p.begin(), p.end(), 0);
    }
    int find(int x) { return p[x] == x ? x : p[x] = find(p[x]); }
    void join(int a, int b) { p[find(a)] = find(b); }
};

struct ShapeBuilder
{
    const Capture& cap;
    const ImportOptions& options;
    Diagnostics& diags;
    NodeShape s;
    size_t n = 0;
    std::vector<int> numa; // per device, -1 = unknown
    std::vector<std::vector<int>> cpus; // per device, as listed (empty = none)
    std::vector<int> compOf; // device → component index
    std::string gpuModel, nicModel;

    void warn(int line, int col, const std::string& field, const std::string& msg)
    {
        diags.warning(SourcePos { cap.fileName, line, col }, "NodeShape", s.name, field, msg);
    }

    void readCpuLists()
    {
        cpus.assign(n, {});
        for (size_t i = 0; i < n; ++i) {
            const DeviceRow& d = cap.devices[i];
            if (d.cpuAffinity.empty() || d.cpuAffinity == "N/A")
                continue;
            if (auto ids = parseCpuList(d.cpuAffinity))
                cpus[i] = *ids;
            else
                warn(d.line, d.cpuColumn, "matrix." + d.label + ".cpuAffinity",
                    "cannot read CPU list \"" + d.cpuAffinity + "\"; kept as text, its CPUs are not counted");
        }
    }

    // NUMA per device: the NUMA Affinity column; without one (older drivers) each distinct CPU
    // Affinity list is one NUMA node, numbered by its first CPU. Devices still unknown (NIC rows
    // carry no affinity) take the NUMA node of their nearest neighbour at NODE or closer, which is
    // what the matrix says; with only SYS neighbours they stay unknown.
    void assignNuma()
    {
        numa.assign(n, -1);
        if (cap.hasNumaAffinity) {
            for (size_t i = 0; i < n; ++i) {
                const std::string& v = cap.devices[i].numaAffinity;
                if (!v.empty() && v != "N/A")
                    numa[i] = std::stoi(v);
            }
        } else {
            std::map<std::vector<int>, int> groups;
            for (size_t i = 0; i < n; ++i)
                if (!cpus[i].empty())
                    groups.emplace(cpus[i], 0);
            std::vector<std::vector<int>> ordered;
            for (const auto& [list, id] : groups)
                ordered.push_back(list);
            std::sort(ordered.begin(), ordered.end(),
                [](const auto& a, const auto& b) { return a.front() < b.front(); });
            for (size_t g = 0; g < ordered.size(); ++g)
                groups[ordered[g]] = int(g);
            for (size_t i = 0; i < n; ++i)
                if (!cpus[i].empty())
                    numa[i] = groups[cpus[i]];
        }
        for (size_t i = 0; i < n; ++i) {
            if (numa[i] >= 0 || !cap.devices[i].numaAffinity.empty())
                continue; // known, or the capture says N/A
            int best = -1;
            for (size_t j = 0; j < n; ++j) {
                const Distance& d = cap.pcie(i, j);
                if (j == i || numa[j] < 0 || d.cls == DistanceClass::Fabric || d.cls > DistanceClass::Node)
                    continue;
                if (best < 0 || d.cls < cap.pcie(i, size_t(best)).cls)
                    best = int(j);
            }
            if (best >= 0)
                numa[i] = numa[size_t(best)];
        }
    }

    // NUMA nodes hold the CPUs their devices list (verbatim ids); each becomes one socket, as
    // nvidia-smi says nothing of sockets. Without any known NUMA node the listed CPUs still need
    // a home: one node 0, while the devices themselves keep an unknown NUMA node.
    void buildCpus()
    {
        std::map<int, std::set<int>> nodeCpus;
        for (size_t i = 0; i < n; ++i)
            if (numa[i] >= 0)
                nodeCpus[numa[i]].insert(cpus[i].begin(), cpus[i].end());
        if (nodeCpus.empty()) {
            nodeCpus[0];
            for (size_t i = 0; i < n; ++i)
                nodeCpus[0].insert(cpus[i].begin(), cpus[i].end());
        }
        // Two disjoint ranges of equal size per node = hyperthread siblings (Linux numbering).
        int threads = 1;
        for (const auto& [id, set] : nodeCpus) {
            std::vector<int> v(set.begin(), set.end());
            int runs = v.empty() ? 0 : 1;
            for (size_t k = 1; k < v.size(); ++k)
                runs += v[k] != v[k - 1] + 1;
            if (runs == 2)
                threads = 2;
        }
        s.threadsPerCore = threads;
        for (const auto& [id, set] : nodeCpus) {
            NumaNode nn;
            nn.id = id;
            nn.socket = int(s.sockets.size());
            nn.cpus.assign(set.begin(), set.end());
            nn.cores = int(nn.cpus.size()) / threads;
            nn.memory = Quantity::fromInt(0, Quantity::Format::BinarySI);
            nn.memoryKnown = false;
            s.numaNodes.push_back(nn);
            Socket sock;
            sock.id = nn.socket;
            sock.model = "unknown (not in nvidia-smi output)";
            sock.cores = nn.cores;
            s.sockets.push_back(sock);
        }
        assignMemory();
    }

    void assignMemory()
    {
        if (!options.memory) {
            warn(cap.headerLine, 1, "memory",
                "nvidia-smi does not report memory; the Node publishes none (give the size with --memory)");
            return;
        }
        const int64_t total = options.memory->value();
        const int64_t parts = int64_t(s.numaNodes.size());
        for (size_t k = 0; k < s.numaNodes.size(); ++k) {
            const int64_t share = total / parts + (k == 0 ? total % parts : 0);
            s.numaNodes[k].memory = Quantity::fromInt(share, Quantity::Format::BinarySI);
            s.numaNodes[k].memoryKnown = true;
        }
    }

    // Generic models unless the caller names real ones.
    void addModels()
    {
        gpuModel = options.gpuModel;
        if (gpuModel.empty()) {
            DeviceModel m;
            m.id = "imported-nvidia-gpu";
            m.kind = ComponentKind::Gpu;
            m.vendorDriver = "nvidia";
            m.productName = "NVIDIA GPU";
            m.brand = "Nvidia";
            m.architecture = "Unknown";
            m.computeCapability = "0.0.0";
            s.models.push_back(m);
            gpuModel = m.id;
        }
        nicModel = options.nicModel;
        if (nicModel.empty()) {
            DeviceModel m;
            m.id = "imported-rdma-nic";
            m.kind = ComponentKind::Nic;
            m.vendorDriver = "dranet";
            m.productName = m.pciDeviceName = "RDMA NIC";
            m.pciVendorId = "0x15b3";
            m.rdma = true;
            m.encapsulation = "ether";
            s.models.push_back(m);
            nicModel = m.id;
        }
    }

    int addComponent(Component c)
    {
        s.components.push_back(std::move(c));
        const int idx = int(s.components.size()) - 1;
        if (s.components[idx].parent >= 0)
            s.components[s.components[idx].parent].children.push_back(idx);
        return idx;
    }

    int addRootComplex(size_t firstDevice, int rootNuma)
    {
        Component rc;
        rc.kind = ComponentKind::RootComplex;
        char bus[16];
        const int counter = int(std::count_if(s.components.begin(), s.components.end(),
                                [](const Component& c) { return c.kind == ComponentKind::RootComplex; }))
            + 1;
        // Sixteen roots per PCI domain keep every synthesised address unique.
        std::snprintf(bus, sizeof bus, "%04x:%02x", counter >> 4, (counter & 0xf) * 0x10);
        rc.busId = bus;
        rc.name = "rc-" + std::to_string(counter - 1);
        rc.numaNode = rootNuma;
        rc.pos = SourcePos { cap.fileName, cap.devices[firstDevice].line, 1 };
        return addComponent(rc);
    }

    void addDevice(size_t i, int parent, int root, int& gpuOrdinal, int& nicOrdinal)
    {
        const DeviceRow& row = cap.devices[i];
        Component d;
        d.kind = row.gpu ? ComponentKind::Gpu : ComponentKind::Nic;
        d.name = row.gpu ? "gpu" + std::to_string(gpuOrdinal++) : "nic" + std::to_string(nicOrdinal++);
        d.model = row.gpu ? gpuModel : nicModel;
        d.parent = parent;
        d.numaNode = numa[i];
        d.pos = SourcePos { cap.fileName, row.line, 1 };
        if (!row.gpu) {
            auto lg = cap.nicLegend.find(row.label);
            d.rdmaDevice = lg != cap.nicLegend.end() ? lg->second : row.label;
        }
        // Synthesised address: the root's bus plus one, device number = matrix position.
        int rootDomain = 0, rootBus = 0;
        std::sscanf(s.components[root].busId.c_str(), "%x:%x", &rootDomain, &rootBus);
        char bdf[24];
        std::snprintf(
            bdf, sizeof bdf, "%04x:%02x:%02x.0", rootDomain, (rootBus + 1 + int(i / 32)) & 0xff, int(i % 32));
        d.busId = bdf;
        compOf[i] = addComponent(d);
    }

    // Root complex per group of devices at PHB or closer, a top switch per PXB group with more
    // than one device, a leaf switch per PIX group inside a PXB group with several PIX groups.
    void buildTree()
    {
        UnionFind rootUf(n), pxbUf(n), pixUf(n);
        for (size_t a = 0; a < n; ++a)
            for (size_t b = a + 1; b < n; ++b) {
                const auto c = cap.pcie(a, b).cls;
                if (c == DistanceClass::Fabric)
                    continue; // NV# hides the PCIe class: the pair constrains nothing
                if (c <= DistanceClass::Phb)
                    rootUf.join(int(a), int(b));
                if (c <= DistanceClass::Pxb)
                    pxbUf.join(int(a), int(b));
                if (c <= DistanceClass::Pix)
                    pixUf.join(int(a), int(b));
            }
        std::map<int, std::set<int>> pixGroupsOfPxb;
        std::map<int, int> pxbSize, rootNuma;
        for (size_t i = 0; i < n; ++i) {
            pixGroupsOfPxb[pxbUf.find(int(i))].insert(pixUf.find(int(i)));
            ++pxbSize[pxbUf.find(int(i))];
            auto [it, added] = rootNuma.emplace(rootUf.find(int(i)), numa[i]);
            if (!added && it->second < 0)
                it->second = numa[i];
        }
        std::map<int, int> rootComp, topSwitch, leafSwitch;
        auto addSwitch = [&](std::map<int, int>& table, int key, int parent) {
            if (!table.count(key)) {
                Component sw;
                sw.kind = ComponentKind::Switch;
                sw.name = "sw-" + std::to_string(topSwitch.size() + leafSwitch.size());
                sw.parent = parent;
                table[key] = addComponent(sw);
            }
            return table[key];
        };
        compOf.assign(n, -1);
        int gpuOrdinal = 0, nicOrdinal = 0;
        for (size_t i = 0; i < n; ++i) {
            const int rg = rootUf.find(int(i));
            if (!rootComp.count(rg))
                rootComp[rg] = addRootComplex(i, rootNuma[rg]);
            int parent = rootComp[rg];
            const int xg = pxbUf.find(int(i));
            if (pxbSize[xg] > 1) {
                parent = addSwitch(topSwitch, xg, parent);
                if (pixGroupsOfPxb[xg].size() > 1)
                    parent = addSwitch(leafSwitch, pixUf.find(int(i)), parent);
            }
            addDevice(i, parent, rootComp[rg], gpuOrdinal, nicOrdinal);
        }
    }

    // NVLink: one switched fabric when every linked pair has the same NV count, else pairs.
    void addFabric()
    {
        std::vector<std::pair<size_t, size_t>> nvPairs;
        std::set<int> linkCounts;
        for (size_t a = 0; a < n; ++a)
            for (size_t b = a + 1; b < n; ++b)
                if (cap.pcie(a, b).cls == DistanceClass::Fabric) {
                    nvPairs.emplace_back(a, b);
                    linkCounts.insert(cap.pcie(a, b).links);
                }
        if (nvPairs.empty())
            return;
        Fabric f;
        f.name = "nvlink";
        f.type = "nvlink";
        std::set<size_t> members;
        for (auto [a, b] : nvPairs) {
            members.insert(a);
            members.insert(b);
        }
        const bool complete
            = nvPairs.size() == members.size() * (members.size() - 1) / 2 && linkCounts.size() == 1;
        if (complete && members.size() > 2) {
            f.switched = true;
            f.linksPerDevice = *linkCounts.begin();
            for (size_t m : members)
                f.members.push_back(compOf[m]);
        } else {
            f.switched = false;
            for (auto [a, b] : nvPairs) {
                f.pairs.push_back({ compOf[a], compOf[b], cap.pcie(a, b).links });
                for (int m : { compOf[a], compOf[b] })
                    if (std::find(f.members.begin(), f.members.end(), m) == f.members.end())
                        f.members.push_back(m);
            }
        }
        s.fabrics.push_back(f);
    }

    // Compares the rebuilt tree with every pair and keeps the capture's cells and affinity
    // columns: the shape then reports the matrix as observed, and the tree is marked
    // approximate where it disagrees.
    void keepObserved()
    {
        Topology tree(s);
        for (size_t a = 0; a < n; ++a)
            for (size_t b = a + 1; b < n; ++b) {
                const Cell& cell = cap.devices[a].cells[b];
                const Distance got = tree.distance(compOf[a], compOf[b]);
                if (got.label() == cell.distance.label())
                    continue;
                s.observed.treeApproximate = true;
                warn(cell.line, cell.column, "matrix." + cap.devices[a].label + "." + cap.devices[b].label,
                    "no PCIe tree gives exactly this matrix: kept as observed (" + cell.distance.label()
                        + "); the reconstructed tree gives " + got.label() + " and is marked approximate");
            }
        s.observed.pos = SourcePos { cap.fileName, cap.headerLine, 1 };
        for (size_t a = 0; a < n; ++a) {
            ObservedMatrix::Row row;
            row.component = compOf[a];
            for (const Cell& c : cap.devices[a].cells)
                row.cells.push_back(c.distance.label());
            row.cpuAffinity = cap.devices[a].cpuAffinity;
            row.numaAffinity = cap.devices[a].numaAffinity;
            s.observed.rows.push_back(std::move(row));
        }
    }
};

// Components in depth-first tree order, as a NodeShape file lists them, so the shape written
// with --yaml reads back with the same component order (and so the same views).
void orderDepthFirst(NodeShape& s)
{
    const size_t n = s.components.size();
    std::vector<int> order;
    std::function<void(int)> visit = [&](int c) {
        order.push_back(c);
        for (int k : s.components[c].children)
            visit(k);
    };
    for (size_t i = 0; i < n; ++i)
        if (s.components[i].parent < 0)
            visit(int(i));
    std::vector<int> newOf(n, -1);
    for (size_t k = 0; k < order.size(); ++k)
        newOf[order[k]] = int(k);
    auto map = [&](int c) { return c >= 0 ? newOf[c] : -1; };
    std::vector<Component> out;
    for (int old : order) {
        Component c = s.components[old];
        c.parent = map(c.parent);
        for (int& k : c.children)
            k = map(k);
        out.push_back(std::move(c));
    }
    s.components = std::move(out);
    for (auto& f : s.fabrics) {
        for (int& m : f.members)
            m = map(m);
        for (auto& p : f.pairs) {
            p.a = map(p.a);
            p.b = map(p.b);
        }
    }
    for (auto& r : s.observed.rows)
        r.component = map(r.component);
}

} // namespace

bool buildShapeFromCapture(
    const Capture& capture, const ImportOptions& options, NodeShape& out, Diagnostics& diags)
{
    ShapeBuilder b { capture, options, diags, {}, capture.devices.size(), {}, {}, {}, {}, {} };
    b.s.name = options.shapeName;
    b.s.description = "imported from nvidia-smi topo -m (" + capture.fileName + ")";
    b.s.pos = SourcePos { capture.fileName, capture.headerLine, 1 };
    b.s.sources.push_back(capture.fileName);
    b.readCpuLists();
    b.assignNuma();
    b.buildCpus();
    b.addModels();
    b.buildTree();
    b.addFabric();
    if (!finalizeShape(b.s, diags))
        return false;
    b.keepObserved();
    orderDepthFirst(b.s);
    out = std::move(b.s);
    return true;
}

} // namespace drasim::topology::smi
