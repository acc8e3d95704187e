// SPDX-License-Identifier: Apache-2.0
// `nvidia-smi topo -m` → NodeShape. The matrix gives classes, not a tree; we rebuild the
// smallest PCIe tree that yields the same classes (see importers.h).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>

#include "core/topology/importers.h"
#include "core/topology/shape_reader.h"
#include "core/topology/topology.h"

namespace drasim::topology {

namespace {

struct Token
{
    std::string text;
    int column = 0; // 1-based
};

std::string stripAnsi(std::string_view line)
{
    std::string out;
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
            i += 2;
            while (i < line.size() && !std::isalpha(static_cast<unsigned char>(line[i])))
                ++i;
            continue;
        }
        if (line[i] != '\r')
            out += line[i];
    }
    return out;
}

// Splits on tabs when the line has them (nvidia-smi's own separator, cells may hold spaces such
// as " X "), otherwise on runs of spaces (copied output).
std::vector<Token> tokenize(const std::string& line)
{
    std::vector<Token> out;
    const bool tabs = line.find('\t') != std::string::npos;
    size_t i = 0;
    while (i <= line.size()) {
        size_t j = i;
        if (tabs) {
            j = line.find('\t', i);
            if (j == std::string::npos)
                j = line.size();
            std::string cell = line.substr(i, j - i);
            size_t b = cell.find_first_not_of(' ');
            size_t e = cell.find_last_not_of(' ');
            out.push_back({ b == std::string::npos ? std::string() : cell.substr(b, e - b + 1),
                int(i + (b == std::string::npos ? 0 : b)) + 1 });
            i = j + 1;
            if (j == line.size())
                break;
        } else {
            while (i < line.size() && line[i] == ' ')
                ++i;
            if (i >= line.size())
                break;
            j = i;
            while (j < line.size() && line[j] != ' ')
                ++j;
            out.push_back({ line.substr(i, j - i), int(i) + 1 });
            i = j;
        }
    }
    return out;
}

std::vector<int> parseCpuList(const std::string& s, bool* ok)
{
    std::vector<int> out;
    *ok = true;
    size_t i = 0;
    while (i < s.size()) {
        size_t j = s.find(',', i);
        if (j == std::string::npos)
            j = s.size();
        std::string part = s.substr(i, j - i);
        int a = 0, b = 0;
        char dash = 0;
        if (std::sscanf(part.c_str(), "%d%c%d", &a, &dash, &b) == 3 && dash == '-' && b >= a
            && b - a < 100000) {
            for (int k = a; k <= b; ++k)
                out.push_back(k);
        } else if (std::sscanf(part.c_str(), "%d", &a) == 1 && std::to_string(a) == part) {
            out.push_back(a);
        } else {
            *ok = false;
            return {};
        }
        i = j + 1;
    }
    return out;
}

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

bool looksLikeDeviceHeader(const std::vector<Token>& t)
{
    return !t.empty() && (t[0].text.rfind("GPU", 0) == 0 || t[0].text.rfind("NIC", 0) == 0)
        && t[0].text.size() > 3 && std::isdigit(static_cast<unsigned char>(t[0].text[3]));
}

} // namespace

bool importNvidiaSmiTopo(std::string_view text, const std::string& fileName, const ImportOptions& options,
    NodeShape& out, Diagnostics& diags)
{
    const size_t errorsBefore = diags.errorCount();
    const std::string kind = "NodeShape";
    const std::string& name = options.shapeName;
    auto error = [&](int line, int col, const std::string& field, const std::string& msg) {
        diags.error(SourcePos { fileName, line, col }, kind, name, field, msg);
    };
    auto warn = [&](int line, int col, const std::string& field, const std::string& msg) {
        diags.warning(SourcePos { fileName, line, col }, kind, name, field, msg);
    };

    std::vector<std::string> lines;
    {
        size_t i = 0;
        while (i <= text.size()) {
            size_t j = text.find('\n', i);
            if (j == std::string_view::npos)
                j = text.size();
            lines.push_back(stripAnsi(text.substr(i, j - i)));
            if (j == text.size())
                break;
            i = j + 1;
        }
    }

    int headerLine = -1;
    std::vector<std::string> devices;
    bool hasCpuAffinity = false, hasNumaAffinity = false;
    for (size_t l = 0; l < lines.size(); ++l) {
        auto toks = tokenize(lines[l]);
        // Header: leading empty cell (tab output) or the first token is GPU0/NIC0.
        if (!toks.empty() && toks[0].text.empty())
            toks.erase(toks.begin());
        if (!looksLikeDeviceHeader(toks))
            continue;
        // Distinguish the header from a data row: a row's second token is a distance label.
        if (toks.size() > 1 && parseDistanceLabel(toks[1].text))
            continue;
        headerLine = int(l);
        for (const auto& t : toks) {
            if (t.text.rfind("CPU", 0) == 0) {
                hasCpuAffinity = true;
                break;
            }
            if (t.text.rfind("NUMA", 0) == 0)
                break;
            devices.push_back(t.text);
        }
        for (const auto& t : toks)
            if (t.text.find("NUMA") != std::string::npos)
                hasNumaAffinity = true;
        break;
    }
    if (headerLine < 0) {
        error(1, 1, "",
            "no nvidia-smi topology matrix found (expected a header line \"GPU0 GPU1 ... CPU Affinity\")");
        return false;
    }
    {
        std::set<std::string> seen;
        for (const auto& d : devices)
            if (!seen.insert(d).second)
                error(headerLine + 1, 1, "header", "device " + d + " appears twice in the header");
    }
    const size_t n = devices.size();
    std::map<std::string, int> column;
    for (size_t i = 0; i < n; ++i)
        column[devices[i]] = int(i);

    std::vector<std::vector<Distance>> matrix(n, std::vector<Distance>(n));
    std::vector<std::vector<int>> cellLine(n, std::vector<int>(n, 0));
    std::vector<bool> haveRow(n, false);
    std::vector<std::string> cpuAffinity(n);
    std::vector<int> numaAffinity(n, -1);
    std::map<std::string, std::string> nicLegend;
    for (size_t l = size_t(headerLine) + 1; l < lines.size(); ++l) {
        const int lineNo = int(l) + 1;
        auto toks = tokenize(lines[l]);
        while (!toks.empty() && toks.back().text.empty())
            toks.pop_back();
        if (toks.empty())
            continue;
        const std::string& first = toks[0].text;
        // "  NIC0: mlx5_0" lines of the NIC legend.
        if (first.size() > 1 && first.back() == ':' && column.count(first.substr(0, first.size() - 1))
            && toks.size() >= 2) {
            nicLegend[first.substr(0, first.size() - 1)] = toks[1].text;
            continue;
        }
        auto it = column.find(first);
        if (it == column.end())
            continue; // legend text and anything else
        const int row = it->second;
        if (haveRow[row]) {
            error(lineNo, toks[0].column, "matrix." + first, "row " + first + " appears twice");
            continue;
        }
        haveRow[row] = true;
        if (toks.size() < n + 1) {
            error(lineNo, toks.back().column, "matrix." + first,
                "row has " + std::to_string(toks.size() - 1) + " cells, the header lists " + std::to_string(n)
                    + " devices");
            continue;
        }
        for (size_t c = 0; c < n; ++c) {
            const Token& cell = toks[c + 1];
            auto d = parseDistanceLabel(cell.text);
            if (!d) {
                error(lineNo, cell.column, "matrix." + first + "." + devices[c],
                    "unknown topology label \"" + cell.text
                        + "\" (expected X, NV#, PIX, PXB, PHB, NODE or SYS)");
                continue;
            }
            if ((c == size_t(row)) != (d->cls == DistanceClass::Self)) {
                error(lineNo, cell.column, "matrix." + first + "." + devices[c],
                    c == size_t(row) ? "the diagonal must be X" : "X is only valid on the diagonal");
                continue;
            }
            matrix[row][c] = *d;
            cellLine[row][c] = lineNo;
        }
        size_t k = n + 1;
        if (hasCpuAffinity && k < toks.size()) {
            cpuAffinity[row] = toks[k].text;
            ++k;
        }
        if (hasNumaAffinity && k < toks.size()) {
            const std::string& v = toks[k].text;
            if (v != "N/A") {
                int numa = -1;
                if (std::sscanf(v.c_str(), "%d", &numa) != 1 || numa < 0 || std::to_string(numa) != v)
                    error(lineNo, toks[k].column, "matrix." + first + ".numaAffinity",
                        "NUMA affinity \"" + v + "\" is not a node number");
                else
                    numaAffinity[row] = numa;
            }
        }
    }
    for (size_t i = 0; i < n; ++i)
        if (!haveRow[i])
            error(headerLine + 1, 1, "matrix." + devices[i],
                "the header lists " + devices[i] + " but it has no row");
    if (diags.errorCount() != errorsBefore)
        return false;
    for (size_t a = 0; a < n; ++a)
        for (size_t b = a + 1; b < n; ++b)
            if (!(matrix[a][b] == matrix[b][a]))
                warn(cellLine[b][a], 1, "matrix." + devices[b] + "." + devices[a],
                    "matrix is not symmetric (" + matrix[a][b].label() + " vs " + matrix[b][a].label()
                        + "); using the upper triangle");

    // ---- rebuild a shape ------------------------------------------------------------------
    NodeShape s;
    s.name = name;
    s.description = "imported from nvidia-smi topo -m (" + fileName + ")";
    s.pos = SourcePos { fileName, headerLine + 1, 1 };
    s.sources.push_back(fileName);
    auto pcieClass = [&](size_t a, size_t b) {
        // Fabric links hide the PCIe class in nvidia-smi; treat such pairs as unconstrained.
        return matrix[std::min(a, b)][std::max(a, b)].cls;
    };
    UnionFind numaUf(n), rootUf(n), pxbUf(n), pixUf(n);
    for (size_t a = 0; a < n; ++a) {
        for (size_t b = a + 1; b < n; ++b) {
            auto c = pcieClass(a, b);
            if (c == DistanceClass::Fabric)
                continue;
            if (c <= DistanceClass::Node)
                numaUf.join(int(a), int(b));
            if (c <= DistanceClass::Phb)
                rootUf.join(int(a), int(b));
            if (c <= DistanceClass::Pxb)
                pxbUf.join(int(a), int(b));
            if (c <= DistanceClass::Pix)
                pixUf.join(int(a), int(b));
        }
    }
    // NUMA ids: a group takes the NUMA affinity of its GPUs, else the next free id.
    std::map<int, int> groupNuma;
    std::set<int> usedNuma;
    for (size_t i = 0; i < n; ++i)
        if (numaAffinity[i] >= 0 && !groupNuma.count(numaUf.find(int(i)))) {
            groupNuma[numaUf.find(int(i))] = numaAffinity[i];
            usedNuma.insert(numaAffinity[i]);
        }
    for (size_t i = 0; i < n; ++i) {
        const int g = numaUf.find(int(i));
        if (!groupNuma.count(g)) {
            int id = 0;
            while (usedNuma.count(id))
                ++id;
            groupNuma[g] = id;
            usedNuma.insert(id);
        }
    }
    // NUMA nodes and their cores from the CPU affinity lists.
    std::map<int, std::set<int>> numaCpus;
    for (size_t i = 0; i < n; ++i) {
        bool ok = true;
        if (cpuAffinity[i].empty() || cpuAffinity[i] == "N/A")
            continue;
        auto cpus = parseCpuList(cpuAffinity[i], &ok);
        if (!ok) {
            warn(headerLine + 2 + int(i), 1, "matrix." + devices[i] + ".cpuAffinity",
                "cannot read CPU list \"" + cpuAffinity[i] + "\"; core counts are unknown");
            continue;
        }
        numaCpus[groupNuma[numaUf.find(int(i))]].insert(cpus.begin(), cpus.end());
    }
    // Two disjoint ranges of equal size per node = hyperthread siblings (Linux numbering).
    int threads = 1;
    for (const auto& [id, cpus] : numaCpus) {
        std::vector<int> v(cpus.begin(), cpus.end());
        int runs = 1;
        for (size_t k = 1; k < v.size(); ++k)
            runs += v[k] != v[k - 1] + 1;
        if (runs == 2)
            threads = 2;
    }
    s.threadsPerCore = threads;
    for (int id : usedNuma) {
        NumaNode nn;
        nn.id = id;
        nn.socket = int(s.sockets.size());
        nn.cores = numaCpus.count(id) ? int(numaCpus[id].size()) / threads : 0;
        nn.memory = Quantity::fromInt(0, Quantity::Format::BinarySI);
        s.numaNodes.push_back(nn);
        Socket sock;
        sock.id = nn.socket;
        sock.model = "unknown (not in nvidia-smi output)";
        sock.cores = nn.cores;
        s.sockets.push_back(sock);
    }

    // Models: generic ones unless the caller names real ones.
    std::string gpuModel = options.gpuModel;
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
    std::string nicModel = options.nicModel;
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

    // Tree: root complex per rootUf group, top switch per PXB group (when it has more than one
    // device), leaf switch per PIX group inside a PXB group with several PIX groups.
    std::map<int, int> rootComp, topSwitch, leafSwitch;
    std::map<int, std::set<int>> pixGroupsOfPxb;
    std::map<int, int> pxbSize;
    for (size_t i = 0; i < n; ++i) {
        pixGroupsOfPxb[pxbUf.find(int(i))].insert(pixUf.find(int(i)));
        ++pxbSize[pxbUf.find(int(i))];
    }
    int busCounter = 0;
    auto addComponent = [&](Component c) {
        s.components.push_back(std::move(c));
        const int idx = int(s.components.size()) - 1;
        if (s.components[idx].parent >= 0)
            s.components[s.components[idx].parent].children.push_back(idx);
        return idx;
    };
    int gpuOrdinal = 0, nicOrdinal = 0;
    for (size_t i = 0; i < n; ++i) {
        const int rg = rootUf.find(int(i));
        if (!rootComp.count(rg)) {
            Component rc;
            rc.kind = ComponentKind::RootComplex;
            char bus[16];
            ++busCounter;
            // Sixteen roots per PCI domain keep every synthesised address unique.
            std::snprintf(bus, sizeof bus, "%04x:%02x", busCounter >> 4, (busCounter & 0xf) * 0x10);
            rc.busId = bus;
            rc.name = "rc-" + std::to_string(rootComp.size());
            rc.numaNode = groupNuma[numaUf.find(int(i))];
            rc.pos = SourcePos { fileName, headerLine + 2 + int(i), 1 };
            rootComp[rg] = addComponent(rc);
        }
        int parent = rootComp[rg];
        const int xg = pxbUf.find(int(i));
        if (pxbSize[xg] > 1) {
            if (!topSwitch.count(xg)) {
                Component sw;
                sw.kind = ComponentKind::Switch;
                sw.name = "sw-" + std::to_string(topSwitch.size() + leafSwitch.size());
                sw.parent = parent;
                topSwitch[xg] = addComponent(sw);
            }
            parent = topSwitch[xg];
            if (pixGroupsOfPxb[xg].size() > 1) {
                const int pg = pixUf.find(int(i));
                if (!leafSwitch.count(pg)) {
                    Component sw;
                    sw.kind = ComponentKind::Switch;
                    sw.name = "sw-" + std::to_string(topSwitch.size() + leafSwitch.size());
                    sw.parent = parent;
                    leafSwitch[pg] = addComponent(sw);
                }
                parent = leafSwitch[pg];
            }
        }
        Component d;
        const bool gpu = devices[i].rfind("GPU", 0) == 0;
        d.kind = gpu ? ComponentKind::Gpu : ComponentKind::Nic;
        d.name = gpu ? "gpu" + std::to_string(gpuOrdinal++) : "nic" + std::to_string(nicOrdinal++);
        d.model = gpu ? gpuModel : nicModel;
        d.parent = parent;
        d.pos = SourcePos { fileName, headerLine + 2 + int(i), 1 };
        if (!gpu) {
            auto lg = nicLegend.find(devices[i]);
            d.rdmaDevice = lg != nicLegend.end() ? lg->second : devices[i];
        }
        // Synthesised address: the root's bus plus one, device number = ordinal under it.
        const auto& root = s.components[rootComp[rg]];
        int rootDomain = 0, rootBus = 0;
        std::sscanf(root.busId.c_str(), "%x:%x", &rootDomain, &rootBus);
        char bdf[24];
        std::snprintf(
            bdf, sizeof bdf, "%04x:%02x:%02x.0", rootDomain, (rootBus + 1 + int(i / 32)) & 0xff, int(i % 32));
        d.busId = bdf;
        addComponent(d);
    }
    // Map matrix index → component index (devices are added in matrix order).
    std::vector<int> compOf(n, -1);
    {
        size_t k = 0;
        for (size_t c = 0; c < s.components.size() && k < n; ++c)
            if (isEndpoint(s.components[c].kind))
                compOf[k++] = int(c);
    }
    // NVLink: one switched fabric when every GPU pair has the same NV count, else pairs.
    std::vector<std::pair<size_t, size_t>> nvPairs;
    std::set<int> linkCounts;
    for (size_t a = 0; a < n; ++a)
        for (size_t b = a + 1; b < n; ++b)
            if (matrix[a][b].cls == DistanceClass::Fabric) {
                nvPairs.emplace_back(a, b);
                linkCounts.insert(matrix[a][b].links);
            }
    if (!nvPairs.empty()) {
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
                f.pairs.push_back({ compOf[a], compOf[b], matrix[a][b].links });
                for (int m : { compOf[a], compOf[b] })
                    if (std::find(f.members.begin(), f.members.end(), m) == f.members.end())
                        f.members.push_back(m);
            }
        }
        s.fabrics.push_back(f);
    }
    if (!finalizeShape(s, diags))
        return false;
    // Check the rebuilt tree against the input: a matrix no tree can produce gets a warning.
    Topology check(s);
    for (size_t a = 0; a < n; ++a) {
        for (size_t b = a + 1; b < n; ++b) {
            auto want = matrix[a][b];
            auto got = check.distance(compOf[a], compOf[b]);
            if (want.cls == DistanceClass::Fabric || got.label() == want.label())
                continue;
            warn(cellLine[a][b], 1, "matrix." + devices[a] + "." + devices[b],
                "no PCIe tree gives exactly this matrix: " + want.label() + " here, " + got.label()
                    + " in the reconstructed tree");
        }
    }
    out = std::move(s);
    return true;
}

} // namespace drasim::topology
