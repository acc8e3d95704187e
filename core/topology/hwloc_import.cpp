// SPDX-License-Identifier: Apache-2.0
// hwloc XML (`lstopo --of xml`, hwloc 2.x) → NodeShape, for any vendor's PCI devices.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <functional>
#include <map>
#include <set>

#include "core/topology/device_models.h"
#include "core/topology/hwloc_nvlink.h"
#include "core/topology/importers.h"
#include "core/topology/shape_reader.h"
#include "core/topology/xml_reader.h"

namespace drasim::topology {

namespace {

using xml::Element;

struct PciType
{
    std::string classCode; // "0302"
    std::string vendor; // "10de"
    std::string device; // "2330"
    bool ok = false;
};

// "0302 [10de:2330] [10de:16c1] a1" (hwloc 2.x pci_type attribute).
PciType parsePciType(const std::string& s)
{
    PciType t;
    char cls[8] = {}, ven[8] = {}, dev[8] = {};
    if (std::sscanf(s.c_str(), "%4[0-9a-fA-F] [%4[0-9a-fA-F]:%4[0-9a-fA-F]]", cls, ven, dev) == 3) {
        t.classCode = cls;
        t.vendor = ven;
        t.device = dev;
        for (auto* p : { &t.classCode, &t.vendor, &t.device })
            for (char& c : *p)
                c = char(std::tolower(static_cast<unsigned char>(c)));
        t.ok = true;
    }
    return t;
}

std::string info(const Element& e, std::string_view key)
{
    for (const auto& c : e.children)
        if (c->name == "info" && c->attr("name") && *c->attr("name") == key && c->attr("value"))
            return *c->attr("value");
    return {};
}

std::string type(const Element& e)
{
    const std::string* t = e.attr("type");
    return t ? *t : std::string();
}

bool isObject(const Element& e)
{
    return e.name == "object";
}

// hwloc bitmap text, most significant 32-bit word first: "0x00000303,0x03030000,,0x03030303"
// (an empty word is zero; a leading "0xf...f" marks an infinite set, which CPU sets never are).
// Bit k is the CPU whose OS index is k, so the ids come out as the machine numbers them.
std::optional<std::vector<int>> parseBitmap(const std::string& text)
{
    std::vector<std::string> words;
    size_t i = 0;
    while (i <= text.size()) {
        size_t j = text.find(',', i);
        if (j == std::string::npos)
            j = text.size();
        words.push_back(text.substr(i, j - i));
        i = j + 1;
    }
    if (!words.empty() && words.front() == "0xf...f")
        words.erase(words.begin());
    std::vector<int> out;
    const size_t n = words.size();
    for (size_t w = 0; w < n; ++w) {
        std::string word = words[w];
        if (word.rfind("0x", 0) == 0)
            word = word.substr(2);
        if (word.size() > 8 || !std::all_of(word.begin(), word.end(), [](char c) {
                return std::isxdigit(static_cast<unsigned char>(c));
            }))
            return std::nullopt;
        const unsigned long bits = word.empty() ? 0 : std::stoul(word, nullptr, 16);
        const int base = int(n - 1 - w) * 32;
        for (int b = 0; b < 32; ++b)
            if (bits & (1ul << b))
                out.push_back(base + b);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// OS devices that make a display controller a compute device: CUDA, NVML, OpenCL, ROCm SMI and
// oneAPI Level Zero. A DRM "card0" alone is what a BMC's VGA chip has too.
bool isComputeOsDevice(const Element& os)
{
    const std::string* name = os.attr("name");
    if (!name)
        return false;
    for (const char* prefix : { "cuda", "nvml", "opencl", "rsmi", "ze" })
        if (name->rfind(prefix, 0) == 0 && name->size() > std::string(prefix).size()
            && std::isdigit(static_cast<unsigned char>((*name)[std::string(prefix).size()])))
            return true;
    return false;
}

std::string gpuModelName(const Element& dev)
{
    for (const auto& os : dev.children)
        if (isObject(*os) && type(*os) == "OSDev") {
            std::string m = info(*os, "GPUModel");
            if (!m.empty())
                return m;
        }
    return {};
}

std::string lowerCase(std::string s)
{
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

struct Importer
{
    const std::string& fileName;
    const ImportOptions& options;
    Diagnostics& diags;
    NodeShape shape;
    std::map<std::string, int> generatedModels; // "10de:2330" → index in shape.models
    int counters[8] = {};
    hwloc::NvlinkObjects nvlink;

    SourcePos pos(const Element& e) const { return SourcePos { fileName, e.line, e.column }; }

    void error(const Element& e, const std::string& field, const std::string& msg)
    {
        diags.error(pos(e), "NodeShape", shape.name, field, msg);
    }
    void warn(const Element& e, const std::string& field, const std::string& msg)
    {
        diags.warning(pos(e), "NodeShape", shape.name, field, msg);
    }

    int countType(const Element& e, const char* t) const
    {
        int n = 0;
        for (const auto& c : e.children) {
            if (!isObject(*c))
                continue;
            if (type(*c) == t)
                ++n;
            n += countType(*c, t);
        }
        return n;
    }

    const Element* firstOfType(const Element& e, const char* t) const
    {
        for (const auto& c : e.children) {
            if (!isObject(*c))
                continue;
            if (type(*c) == t)
                return c.get();
            if (const Element* f = firstOfType(*c, t))
                return f;
        }
        return nullptr;
    }

    // NUMA nodes below e (memory children and nested), with their sockets.
    void collectNuma(const Element& e, int socket)
    {
        for (const auto& c : e.children) {
            if (!isObject(*c))
                continue;
            const std::string t = type(*c);
            int s = socket;
            if (t == "Package")
                continue; // handled by the caller
            if (t == "NUMANode") {
                NumaNode n;
                n.socket = std::max(0, socket);
                const std::string* idx = c->attr("os_index");
                if (!idx) {
                    error(*c, "NUMANode.os_index", "NUMANode without os_index");
                    continue;
                }
                try {
                    n.id = std::stoi(*idx);
                } catch (...) {
                    error(*c, "NUMANode.os_index", "os_index \"" + *idx + "\" is not a number");
                    continue;
                }
                const std::string* mem = c->attr("local_memory");
                long long bytes = 0;
                if (mem) {
                    try {
                        bytes = std::stoll(*mem);
                    } catch (...) {
                        error(*c, "NUMANode.local_memory", "local_memory \"" + *mem + "\" is not a number");
                    }
                }
                n.memory = Quantity::fromInt(bytes, Quantity::Format::BinarySI);
                n.memoryKnown = mem != nullptr;
                if (const std::string* cpuset = c->attr("cpuset")) {
                    if (auto cpus = parseBitmap(*cpuset))
                        n.cpus = *cpus;
                    else
                        error(*c, "NUMANode.cpuset", "cpuset \"" + *cpuset + "\" is not an hwloc bitmap");
                }
                if (std::none_of(shape.numaNodes.begin(), shape.numaNodes.end(),
                        [&](const NumaNode& x) { return x.id == n.id; }))
                    shape.numaNodes.push_back(n);
            }
            collectNuma(*c, s);
        }
    }

    // The NUMA node an I/O object is local to: the first NUMANode among the memory children of
    // the nearest ancestor that has one (hwloc 2 attaches I/O and memory to the same parent).
    int localNuma(const std::vector<const Element*>& ancestors) const
    {
        for (auto it = ancestors.rbegin(); it != ancestors.rend(); ++it) {
            for (const auto& c : (*it)->children) {
                if (isObject(*c) && type(*c) == "NUMANode" && c->attr("os_index")) {
                    try {
                        return std::stoi(*c->attr("os_index"));
                    } catch (...) {
                        return -1;
                    }
                }
            }
        }
        return -1;
    }

    std::string modelFor(const Element& dev, const PciType& t, ComponentKind kind)
    {
        const std::string vendor = "0x" + t.vendor;
        const std::string device = "0x" + t.device;
        if (kind == ComponentKind::Gpu && !options.gpuModel.empty())
            return options.gpuModel;
        if (kind == ComponentKind::Nic && !options.nicModel.empty())
            return options.nicModel;
        const bool ib = isInfiniband(t);
        // Built-in models by PCI id; for NICs the link layer picks IB or Ethernet variants.
        for (const auto& m : builtinModels()) {
            if (m.pciVendorId != vendor || m.pciDeviceId != device || m.kind != kind)
                continue;
            if (kind == ComponentKind::Nic && !m.encapsulation.empty()
                && (m.encapsulation == "infiniband") != ib)
                continue;
            return m.id;
        }
        // Then by the name the GPU's driver reports ("NVIDIA H100 80GB HBM3"), as the catalog's
        // product names are those names.
        const std::string reported = kind == ComponentKind::Gpu ? gpuModelName(dev) : std::string();
        if (!reported.empty())
            for (const auto& m : builtinModels())
                if (m.kind == kind && lowerCase(m.productName) == lowerCase(reported))
                    return m.id;
        const std::string key = t.vendor + ":" + t.device + (ib ? "-ib" : "") + "/" + reported;
        auto it = generatedModels.find(key);
        if (it != generatedModels.end())
            return shape.models[it->second].id;
        DeviceModel m;
        m.id = "pci-" + t.vendor + "-" + t.device + (ib ? "-ib" : "");
        // Two products behind one PCI id (names differ) need two models.
        for (int k = 2; std::any_of(shape.models.begin(), shape.models.end(),
                 [&](const DeviceModel& x) { return x.id == m.id; });
             ++k)
            m.id = "pci-" + t.vendor + "-" + t.device + (ib ? "-ib" : "") + "-" + std::to_string(k);
        m.kind = kind;
        m.pciVendorId = vendor;
        m.pciDeviceId = device;
        std::string product = reported.empty() ? info(dev, "PCIDevice") : reported;
        m.productName = product.empty() ? "PCI " + t.vendor + ":" + t.device : product;
        if (kind == ComponentKind::Gpu) {
            if (t.vendor == "10de") {
                m.vendorDriver = "nvidia";
                m.brand = "Nvidia";
                m.architecture = "Unknown";
                m.computeCapability = "0.0.0";
            } else if (t.vendor == "1002") {
                m.vendorDriver = "amd";
            } else if (t.vendor == "8086") {
                m.vendorDriver = "intel-gpu";
            } else {
                m.vendorDriver = "none";
            }
        } else if (kind == ComponentKind::Nic) {
            m.vendorDriver = "dranet";
            m.pciDeviceName = m.productName;
            m.encapsulation = ib ? "infiniband" : "ether";
            m.rdma = t.vendor == "15b3" || ib;
        } else if (kind == ComponentKind::Accelerator) {
            m.vendorDriver = t.vendor == "1da3" ? "gaudi" : "none";
        } else if (kind == ComponentKind::Fpga) {
            m.vendorDriver = "fpga";
            m.board = m.productName;
        } else {
            m.vendorDriver = "none";
        }
        generatedModels[key] = int(shape.models.size());
        shape.models.push_back(m);
        return m.id;
    }

    // InfiniBand controllers: network class 0207, and the serial-bus class 0c06 older HCAs report.
    static bool isInfiniband(const PciType& t) { return t.classCode == "0207" || t.classCode == "0c06"; }

    std::optional<ComponentKind> kindOf(const Element& dev, const PciType& t) const
    {
        if (t.vendor == "10ee" || t.vendor == "1172")
            return ComponentKind::Fpga; // Xilinx/AMD and Intel (Altera) FPGA cards
        const std::string cls = t.classCode.substr(0, 2);
        const bool amdAccelerator = t.classCode == "1200" && t.vendor == "1002";
        if (t.classCode == "0300" || t.classCode == "0302" || t.classCode == "0380" || amdAccelerator) {
            // A GPU when hwloc shows a compute OS device or the part is a built-in model. The
            // vendor alone says so only where NVIDIA and AMD put their compute parts: the 3D
            // (0302) and other-display (0380) classes, and AMD's processing accelerators (1200,
            // Instinct MI300). A VGA controller (0300) of these vendors is as often a server's
            // console chip (the ATI ES1000 of HP ProLiants, beside their Teslas) as a GPU.
            const bool compute = std::any_of(dev.children.begin(), dev.children.end(), [](const auto& os) {
                return isObject(*os) && type(*os) == "OSDev" && isComputeOsDevice(*os);
            });
            const bool known
                = std::any_of(builtinModels().begin(), builtinModels().end(), [&](const DeviceModel& m) {
                      return m.kind == ComponentKind::Gpu && m.pciVendorId == "0x" + t.vendor
                          && m.pciDeviceId == "0x" + t.device;
                  });
            const bool acceleratorVendor = t.vendor == "10de" || t.vendor == "1002";
            if (compute || known || (acceleratorVendor && t.classCode != "0300"))
                return ComponentKind::Gpu;
            return std::nullopt;
        }
        if (cls == "02" || t.classCode == "0c06")
            return ComponentKind::Nic;
        if (cls == "12" || t.classCode == "0b40")
            return ComponentKind::Accelerator;
        if (t.classCode == "0108")
            return ComponentKind::Other; // NVMe
        return std::nullopt;
    }

    // Walks the I/O tree. `parent` is the component devices attach to (-1 above host bridges).
    void walk(const Element& e, std::vector<const Element*>& ancestors, int parent)
    {
        ancestors.push_back(&e);
        for (const auto& cptr : e.children) {
            const Element& c = *cptr;
            if (!isObject(c))
                continue;
            const std::string t = type(c);
            if (t == "Bridge")
                addBridge(c, ancestors, parent);
            else if (t == "PCIDev")
                addPciDevice(c, parent);
            else
                walk(c, ancestors, parent); // packages, groups, caches: I/O can hang below any of them
        }
        ancestors.pop_back();
    }

    void addHostBridge(const Element& c, std::vector<const Element*>& ancestors)
    {
        Component rc;
        rc.kind = ComponentKind::RootComplex;
        rc.pos = pos(c);
        const std::string* range = c.attr("bridge_pci"); // "0000:[15-1b]"
        unsigned dom = 0, bus = 0;
        if (!range || std::sscanf(range->c_str(), "%x:[%x", &dom, &bus) != 2) {
            error(c, "Bridge.bridge_pci", "host bridge without a bus range (bridge_pci)");
            return;
        }
        char busId[16];
        std::snprintf(busId, sizeof busId, "%04x:%02x", dom, bus);
        rc.busId = busId;
        rc.name = "rc-" + std::string(busId).substr(0, 4) + "-" + std::string(busId).substr(5);
        rc.numaNode = localNuma(ancestors);
        const int idx = add(rc);
        walk(c, ancestors, idx);
    }

    int modelledDevicesBelow(const Element& bridge) const
    {
        int n = 0;
        for (const auto& k : bridge.children) {
            if (!isObject(*k) || type(*k) != "PCIDev" || !k->attr("pci_type"))
                continue;
            PciType pt = parsePciType(*k->attr("pci_type"));
            n += pt.ok && kindOf(*k, pt).has_value();
        }
        return n;
    }

    void addBridge(const Element& c, std::vector<const Element*>& ancestors, int parent)
    {
        const std::string* bt = c.attr("bridge_type");
        if (bt && bt->rfind("0-", 0) == 0) {
            addHostBridge(c, ancestors);
            return;
        }
        if (parent < 0) {
            warn(c, "Bridge", "PCI bridge outside any host bridge; ignored");
            return;
        }
        // Root ports and switch downstream ports are transparent (nvidia-smi counts a switch as
        // one bridge); a bridge with bridges below it is a switch upstream port.
        const bool rootPort = shape.components[parent].kind == ComponentKind::RootComplex && ancestors.back()
            && type(*ancestors.back()) == "Bridge" && ancestors.back()->attr("bridge_type")
            && ancestors.back()->attr("bridge_type")->rfind("0-", 0) == 0;
        const bool hasBridgeChildren = std::any_of(c.children.begin(), c.children.end(),
            [](const auto& k) { return isObject(*k) && type(*k) == "Bridge"; });
        Component br;
        br.pos = pos(c);
        br.parent = parent;
        if (const std::string* b = c.attr("pci_busid"))
            br.busId = lowerCase(*b);
        if (!rootPort && hasBridgeChildren) {
            br.kind = ComponentKind::Switch;
            br.name = "sw-" + std::to_string(counters[0]++);
            walk(c, ancestors, add(br));
        } else if (modelledDevicesBelow(c) >= 2) {
            // Functions of one device (a dual-port NIC) or devices sharing one port meet at this
            // bridge: PIX in nvidia-smi's words, so the bridge stays in the tree.
            br.kind = ComponentKind::Bridge;
            br.name = "br-" + std::to_string(counters[1]++);
            walk(c, ancestors, add(br));
        } else {
            walk(c, ancestors, parent);
        }
    }

    void addPciDevice(const Element& c, int parent)
    {
        if (parent < 0) {
            warn(c, "PCIDev", "PCI device outside any host bridge; ignored");
            return;
        }
        const std::string* pt = c.attr("pci_type");
        const std::string* busId = c.attr("pci_busid");
        if (!pt || !busId) {
            error(c, "PCIDev", "PCI device without pci_type or pci_busid");
            return;
        }
        // NVSwitches are NVLink peers in the bandwidth matrix, not devices to publish; hwloc marks
        // them with a subtype even when their config space reads as zeros.
        const std::string* subtype = c.attr("subtype");
        if (subtype && *subtype == "NVSwitch") {
            if (const std::string* gp = c.attr("gp_index"))
                nvlink.nvswitchGpIndex.insert(*gp);
            return;
        }
        PciType ptype = parsePciType(*pt);
        if (!ptype.ok) {
            error(c, "PCIDev.pci_type",
                "cannot read pci_type \"" + *pt + "\" (expected \"0302 [10de:2330] ...\")");
            return;
        }
        if (ptype.classCode == "0680" && ptype.vendor == "10de") {
            if (const std::string* gp = c.attr("gp_index"))
                nvlink.nvswitchGpIndex.insert(*gp);
            return;
        }
        auto kind = kindOf(c, ptype);
        if (!kind)
            return;
        Component d;
        d.kind = *kind;
        d.pos = pos(c);
        d.parent = parent;
        d.busId = lowerCase(*busId);
        d.model = modelFor(c, ptype, *kind);
        static const char* prefix[] = { "", "", "", "gpu", "nic", "fpga", "acc", "dev" };
        d.name = std::string(prefix[int(*kind)]) + std::to_string(counters[int(*kind)]++);
        for (const auto& os : c.children) {
            if (!isObject(*os) || type(*os) != "OSDev" || !os->attr("name"))
                continue;
            const std::string& n = *os->attr("name");
            if (*kind == ComponentKind::Nic && isNetworkOsDevice(*os) && d.ifName.empty())
                d.ifName = n;
            if (*kind == ComponentKind::Nic && isRdmaOsDevice(*os) && d.rdmaDevice.empty())
                d.rdmaDevice = n;
            if (*kind == ComponentKind::Gpu && os->attr("gp_index"))
                nvlink.gpuByGpIndex[*os->attr("gp_index")] = d.name;
        }
        if (*kind == ComponentKind::Gpu) {
            if (const std::string* gp = c.attr("gp_index"))
                nvlink.gpuByGpIndex[*gp] = d.name;
            nvlink.gpuModelName[d.name] = gpuModelName(c);
        }
        add(d);
    }

    // hwloc 2.x numbers OS device types (2 network, 3 OpenFabrics); hwloc 3 writes flags and a
    // subtype. Names decide where the number is ambiguous.
    static bool isRdmaOsDevice(const Element& os)
    {
        const std::string& n = *os.attr("name");
        const std::string* sub = os.attr("subtype");
        return (sub && *sub == "OpenFabrics") || n.rfind("mlx", 0) == 0 || n.rfind("hfi", 0) == 0
            || n.rfind("bnxt_re", 0) == 0 || n.rfind("irdma", 0) == 0
            || (os.attr("osdev_type") && *os.attr("osdev_type") == "3");
    }
    static bool isNetworkOsDevice(const Element& os)
    {
        return !isRdmaOsDevice(os) && os.attr("osdev_type")
            && (*os.attr("osdev_type") == "2" || *os.attr("osdev_type") == "16");
    }

    int add(Component c)
    {
        shape.components.push_back(std::move(c));
        const int idx = int(shape.components.size()) - 1;
        if (shape.components[idx].parent >= 0)
            shape.components[shape.components[idx].parent].children.push_back(idx);
        return idx;
    }

    bool run(const Element& root)
    {
        const size_t before = diags.errorCount();
        if (root.name != "topology") {
            error(root, "", "root element is <" + root.name + ">, expected <topology> (hwloc XML)");
            return false;
        }
        const Element* machine = nullptr;
        for (const auto& c : root.children)
            if (isObject(*c) && type(*c) == "Machine")
                machine = c.get();
        if (!machine) {
            error(root, "topology", "no Machine object (is this hwloc 2.x XML from lstopo --of xml?)");
            return false;
        }
        shape.pos = pos(*machine);
        shape.description = "imported from hwloc XML (" + fileName + ")";
        if (auto product = info(*machine, "DMIProductName"); !product.empty())
            shape.description += ": " + product;
        shape.sources.push_back(fileName);
        // hwloc writes the machine's own name for it; Kubernetes labels nodes with GOARCH names.
        // hwloc 2 keeps global facts on the Machine, hwloc 3 on the topology element.
        const std::string arch = info(*machine, "Architecture").empty() ? info(root, "Architecture")
                                                                        : info(*machine, "Architecture");
        if (arch == "aarch64" || arch == "arm64")
            shape.arch = "arm64";
        else if (arch == "ppc64le" || arch == "ppc64")
            shape.arch = "ppc64le";
        else if (arch == "s390x")
            shape.arch = "s390x";

        // Sockets in document order; NUMA nodes under them (or under the machine).
        std::function<void(const Element&)> packages = [&](const Element& e) {
            for (const auto& c : e.children) {
                if (!isObject(*c))
                    continue;
                if (type(*c) == "Package") {
                    Socket s;
                    s.id = int(shape.sockets.size());
                    s.model = info(*c, "CPUModel");
                    s.cores = countType(*c, "Core");
                    const size_t numaBefore = shape.numaNodes.size();
                    collectNuma(*c, s.id);
                    // NUMA nodes of the package share its cores evenly (hwloc lists cores under
                    // the package, not under memory nodes).
                    const size_t added = shape.numaNodes.size() - numaBefore;
                    for (size_t k = numaBefore; k < shape.numaNodes.size(); ++k)
                        shape.numaNodes[k].cores = added ? s.cores / int(added) : 0;
                    shape.sockets.push_back(s);
                    if (shape.sockets.size() == 1) {
                        const Element* core = firstOfType(*c, "Core");
                        if (core)
                            shape.threadsPerCore = std::max(1, countType(*core, "PU"));
                    }
                    continue;
                }
                packages(*c);
            }
        };
        packages(*machine);
        // NUMA nodes outside packages (memory attached to the machine or a group).
        const size_t numaBefore = shape.numaNodes.size();
        collectNuma(*machine, shape.sockets.empty() ? 0 : int(shape.sockets.size()) - 1);
        if (shape.sockets.empty()) {
            Socket s;
            s.model = "unknown";
            s.cores = countType(*machine, "Core");
            shape.sockets.push_back(s);
            for (auto& n : shape.numaNodes)
                n.cores = s.cores / std::max<int>(1, int(shape.numaNodes.size()));
        }
        (void)numaBefore;
        if (shape.numaNodes.empty()) {
            // No NUMANode object (hwloc 1.x style): the machine carries the memory, if anything.
            NumaNode n;
            n.id = 0;
            n.cores = shape.sockets[0].cores;
            const std::string* mem = machine->attr("local_memory");
            long long bytes = 0;
            n.memoryKnown = mem && std::sscanf(mem->c_str(), "%lld", &bytes) == 1;
            n.memory = Quantity::fromInt(bytes, Quantity::Format::BinarySI);
            shape.numaNodes.push_back(n);
        }
        std::sort(shape.numaNodes.begin(), shape.numaNodes.end(),
            [](const NumaNode& a, const NumaNode& b) { return a.id < b.id; });

        std::vector<const Element*> ancestors;
        walk(*machine, ancestors, -1);
        // Bridges that lead to nothing we model are noise in the tree: drop empty switches.
        pruneEmptySwitches();
        hwloc::addNvlinkFabrics(
            root, nvlink, shape, [this](const Element& e, const std::string& field, const std::string& msg) {
                warn(e, field, msg);
            });
        if (diags.errorCount() != before)
            return false;
        return finalizeShape(shape, diags);
    }

    void pruneEmptySwitches()
    {
        bool changed = true;
        while (changed) {
            changed = false;
            for (size_t i = 0; i < shape.components.size(); ++i) {
                auto& c = shape.components[i];
                if (c.kind != ComponentKind::Switch || !c.children.empty())
                    continue;
                removeComponent(int(i));
                changed = true;
                break;
            }
        }
    }

    void removeComponent(int idx)
    {
        const int parent = shape.components[idx].parent;
        if (parent >= 0) {
            auto& kids = shape.components[parent].children;
            kids.erase(std::remove(kids.begin(), kids.end(), idx), kids.end());
        }
        shape.components.erase(shape.components.begin() + idx);
        for (auto& c : shape.components) {
            if (c.parent > idx)
                --c.parent;
            for (int& k : c.children)
                if (k > idx)
                    --k;
        }
    }
};

} // namespace

bool importHwlocXml(std::string_view text, const std::string& fileName, const ImportOptions& options,
    NodeShape& out, Diagnostics& diags)
{
    xml::ParseError err;
    auto root = xml::parse(text, &err);
    if (!root) {
        diags.error(SourcePos { fileName, err.line, err.column }, "NodeShape", options.shapeName, "",
            "malformed XML: " + err.message);
        return false;
    }
    Importer imp { fileName, options, diags, {}, {}, {}, {} };
    imp.shape.name = options.shapeName;
    if (!imp.run(*root))
        return false;
    out = std::move(imp.shape);
    return true;
}

InputFormat detectFormat(std::string_view text)
{
    size_t i = 0;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
        ++i;
    auto rest = text.substr(i);
    if (rest.substr(0, 5) == "<?xml" || rest.substr(0, 9) == "<topology" || rest.substr(0, 9) == "<!DOCTYPE")
        return InputFormat::HwlocXml;
    // nvidia-smi: a line whose first cell is GPU0 (or NIC0) followed by more device names.
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        size_t k = 0;
        while (k < line.size() && (line[k] == ' ' || line[k] == '\t' || line[k] == '\x1b')) {
            // Skip ANSI colour sequences ("\x1b[4m") that nvidia-smi puts around the header.
            if (line[k] == '\x1b') {
                const size_t m = line.find('m', k);
                if (m == std::string_view::npos)
                    break;
                k = m + 1;
            } else {
                ++k;
            }
        }
        if (k < line.size() && line.substr(k, 4) == "GPU0" && line.find("Affinity") != std::string_view::npos)
            return InputFormat::NvidiaSmiTopo;
        pos = end + 1;
    }
    return InputFormat::NodeShapeYaml;
}

} // namespace drasim::topology
