// SPDX-License-Identifier: Apache-2.0
#include "core/topology/topo_render.h"

#include <algorithm>
#include <cstdio>

#include "core/topology/cpu_list.h"

namespace drasim::topology {

namespace {

std::string money(double v)
{
    char buf[48];
    if (v >= 1000)
        std::snprintf(buf, sizeof buf, "$%.0f", v);
    else
        std::snprintf(buf, sizeof buf, "$%.2f", v);
    return buf;
}

std::string describeComponent(const Topology& topo, int i)
{
    const auto& shape = topo.shape();
    const auto& c = shape.components[i];
    std::string s = c.name;
    if (c.kind == ComponentKind::RootComplex) {
        s += " [root complex] " + topo.pcieRoot(i);
        return s;
    }
    if (!isEndpoint(c.kind)) {
        s += std::string(" [") + componentKindName(c.kind) + "]";
        if (!c.busId.empty())
            s += " " + c.busId;
    } else {
        s += std::string(" [") + componentKindName(c.kind) + "] " + c.model;
        if (!c.busId.empty())
            s += " " + c.busId;
        if (c.kind == ComponentKind::Nic) {
            std::string extra;
            if (!c.ifName.empty())
                extra += c.ifName;
            if (!c.rdmaDevice.empty())
                extra += (extra.empty() ? "" : ", ") + c.rdmaDevice;
            if (c.primary)
                extra += std::string(extra.empty() ? "" : ", ") + "primary";
            if (!extra.empty())
                s += " (" + extra + ")";
        }
        if (!c.migLayout.empty()) {
            s += " MIG:";
            for (const auto& p : c.migLayout)
                s += " " + p;
        }
    }
    if (c.link.generation > 0 || c.link.width > 0) {
        s += " PCIe";
        if (c.link.generation > 0)
            s += " gen" + std::to_string(c.link.generation);
        if (c.link.width > 0)
            s += " x" + std::to_string(c.link.width);
    }
    return s;
}

void tree(const Topology& topo, int i, const std::string& prefix, bool last, std::string& out)
{
    out += prefix + (last ? "└─ " : "├─ ") + describeComponent(topo, i) + "\n";
    const auto& kids = topo.shape().components[i].children;
    for (size_t k = 0; k < kids.size(); ++k)
        tree(topo, kids[k], prefix + (last ? "   " : "│  "), k + 1 == kids.size(), out);
}

} // namespace

std::string cpuAffinity(const NodeShape& shape, int numaNode)
{
    for (const auto& n : shape.numaNodes)
        if (n.id == numaNode && !n.cpus.empty())
            return formatCpuList(n.cpus);
    std::vector<NumaNode> nodes = shape.numaNodes;
    std::sort(nodes.begin(), nodes.end(), [](const NumaNode& a, const NumaNode& b) { return a.id < b.id; });
    const int total = shape.totalCores();
    int first = 0;
    std::vector<int> cpus;
    for (const auto& n : nodes) {
        if (n.id == numaNode) {
            for (int t = 0; t < std::max(1, shape.threadsPerCore); ++t)
                for (int k = 0; k < n.cores; ++k)
                    cpus.push_back(t * total + first + k);
        }
        first += n.cores;
    }
    std::sort(cpus.begin(), cpus.end());
    return formatCpuList(cpus);
}

std::string renderTree(const Topology& topo)
{
    const auto& shape = topo.shape();
    std::string out = shape.name;
    if (!shape.description.empty())
        out += ": " + shape.description;
    out += "\n";
    out += "CPU: " + std::to_string(shape.sockets.size()) + " socket(s), "
        + std::to_string(shape.totalCores()) + " cores (" + std::to_string(shape.logicalCpus())
        + " threads), memory "
        + (shape.memoryKnown() ? shape.totalMemory().toString() : std::string("unknown"));
    if (!shape.interSocketLink.empty())
        out += ", inter-socket " + shape.interSocketLink;
    out += ", arch " + shape.arch + "\n";
    if (shape.price.purchaseUsd > 0 || shape.price.perHourUsd > 0 || shape.powerWatts > 0) {
        out += "Price: " + money(shape.price.purchaseUsd) + " purchase, " + money(shape.price.perHourUsd)
            + "/hour; power " + std::to_string(shape.powerWatts) + " W\n";
    }
    if (shape.observed.treeApproximate)
        out += "Note: no PCIe tree gives every cell of the imported matrix; the tree below is an "
               "approximation and the distance matrix is kept as observed.\n";
    out += "\n";
    for (const auto& sock : shape.sockets) {
        out += "Socket " + std::to_string(sock.id);
        if (!sock.model.empty())
            out += " (" + sock.model + ")";
        out += "\n";
        for (const auto& n : shape.numaNodes) {
            if (n.socket != sock.id)
                continue;
            out += "  NUMA " + std::to_string(n.id) + ": " + std::to_string(n.cores) + " cores, "
                + (n.memoryKnown ? n.memory.toString() : std::string("memory unknown")) + ", CPUs "
                + cpuAffinity(shape, n.id) + "\n";
            std::vector<int> roots;
            for (size_t i = 0; i < shape.components.size(); ++i)
                if (shape.components[i].kind == ComponentKind::RootComplex
                    && shape.components[i].numaNode == n.id)
                    roots.push_back(int(i));
            for (size_t r = 0; r < roots.size(); ++r)
                tree(topo, roots[r], "    ", r + 1 == roots.size(), out);
        }
    }
    // Root complexes whose NUMA node the input does not say (nvidia-smi N/A).
    std::string unplaced;
    for (size_t i = 0; i < shape.components.size(); ++i)
        if (shape.components[i].kind == ComponentKind::RootComplex
            && shape.socketOfNuma(shape.components[i].numaNode) < 0)
            tree(topo, int(i), "  ", true, unplaced);
    if (!unplaced.empty())
        out += "PCIe roots on an unknown NUMA node:\n" + unplaced;
    // Devices outside the PCIe tree (imports without bus information).
    std::string loose;
    for (size_t i = 0; i < shape.components.size(); ++i) {
        const auto& c = shape.components[i];
        if (c.parent < 0 && c.kind != ComponentKind::RootComplex)
            loose += "  " + describeComponent(topo, int(i))
                + (c.numaNode >= 0 ? " NUMA " + std::to_string(c.numaNode) : "") + "\n";
    }
    if (!loose.empty())
        out += "Devices without PCIe location:\n" + loose;
    if (!shape.fabrics.empty()) {
        out += "\nFabrics:\n";
        for (const auto& f : shape.fabrics) {
            out += "  " + f.name + ": " + f.type;
            if (f.generation > 0)
                out += " gen" + std::to_string(f.generation);
            if (f.switched)
                out += ", switched, " + std::to_string(f.linksPerDevice) + " links per device";
            else
                out += ", " + std::to_string(f.pairs.size()) + " direct link(s)";
            if (!f.domain.empty())
                out += ", multi-node domain " + f.domain;
            out += ":";
            for (int m : f.members)
                out += " " + shape.components[m].name;
            out += "\n";
        }
    }
    // Devices that share a root complex: what matchAttribute on resource.kubernetes.io/pcieRoot
    // can pair up.
    std::string shared;
    for (const auto& [root, devs] : topo.devicesByRoot()) {
        if (devs.size() < 2)
            continue;
        shared += "  " + topo.pcieRoot(devs.front()) + ":";
        for (int d : devs)
            shared += " " + shape.components[d].name;
        shared += "\n";
    }
    if (!shared.empty())
        out += "\nDevices sharing a PCIe root:\n" + shared;
    const auto& islands = topo.fabricIslands();
    if (!islands.empty()) {
        out += "Fabric islands:";
        for (size_t i = 0; i < islands.size(); ++i) {
            out += (i ? " | " : " ");
            for (size_t k = 0; k < islands[i].size(); ++k)
                out += (k ? " " : "") + shape.components[islands[i][k]].name;
        }
        out += "\n";
    }
    return out;
}

std::string renderMatrix(const Topology& topo)
{
    const auto& shape = topo.shape();
    // nvidia-smi order: GPUs, then NICs, then everything else we know about.
    std::vector<int> devs;
    for (auto kind :
        { ComponentKind::Gpu, ComponentKind::Accelerator, ComponentKind::Fpga, ComponentKind::Nic })
        for (int i : shape.devicesOfKind(kind))
            devs.push_back(i);
    if (devs.empty())
        return "No devices.\n";
    size_t w = 5;
    for (int i : devs)
        w = std::max(w, shape.components[i].name.size() + 1);
    for (int a : devs)
        for (int b : devs)
            w = std::max(w, topo.distance(a, b).label().size() + 1);
    auto pad = [](std::string s, size_t n) {
        s.resize(std::max(n, s.size() + 1), ' ');
        return s;
    };
    std::string out = pad("", w);
    for (int i : devs)
        out += pad(shape.components[i].name, w);
    out += pad("CPU Affinity", 16) + "NUMA Affinity\n";
    for (int a : devs) {
        out += pad(shape.components[a].name, w);
        for (int b : devs)
            out += pad(topo.distance(a, b).label(), w);
        // Imported captures print their own affinity columns verbatim.
        const ObservedMatrix::Row* seen = nullptr;
        for (const auto& row : shape.observed.rows)
            if (row.component == a)
                seen = &row;
        const int numa = topo.numaNode(a);
        std::string cpus = numa >= 0 ? cpuAffinity(shape, numa) : "N/A";
        std::string numaText = numa >= 0 ? std::to_string(numa) : "N/A";
        if (seen && !seen->cpuAffinity.empty())
            cpus = seen->cpuAffinity;
        if (seen && !seen->numaAffinity.empty())
            numaText = seen->numaAffinity;
        out += pad(cpus, 16) + numaText + "\n";
    }
    out += "\nLegend:\n\n"
           "  X    = Self\n"
           "  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., "
           "QPI/UPI)\n"
           "  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within "
           "a NUMA node\n"
           "  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)\n"
           "  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)\n"
           "  PIX  = Connection traversing at most a single PCIe bridge\n"
           "  NV#  = Connection traversing a bonded set of # NVLinks (XGMI#/ROCE#: other accelerator "
           "fabrics)\n";
    return out;
}

} // namespace drasim::topology
