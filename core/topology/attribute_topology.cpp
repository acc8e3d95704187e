// SPDX-License-Identifier: Apache-2.0
#include "core/topology/attribute_topology.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace drasim::topology {

namespace {

constexpr const char* kStandard = "resource.kubernetes.io/";

/// Exact name first, then the bare name when the domain is the device's driver (as the
/// allocator's matchAttribute lookup does).
const api::DeviceAttribute* find(
    const api::Device& device, const std::string& driver, const std::string& name)
{
    auto it = device.attributes.find(name);
    if (it != device.attributes.end())
        return &it->second;
    const auto slash = name.find('/');
    if (slash == std::string::npos || name.compare(0, slash, driver) != 0)
        return nullptr;
    it = device.attributes.find(name.substr(slash + 1));
    return it == device.attributes.end() ? nullptr : &it->second;
}

std::string stringAttribute(const api::Device& device, const std::string& driver, const std::string& name)
{
    const auto* a = find(device, driver, name);
    if (!a || a->type != api::DeviceAttribute::Type::String)
        return {};
    std::string out = a->stringValue;
    for (char& c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string typeOf(const api::Device& device, const std::string& driver)
{
    return stringAttribute(device, driver, driver + "/type");
}

ComponentKind guessKind(const std::string& driver, const api::Device& device)
{
    const std::string type = typeOf(device, driver);
    if (type == "fpga" || driver.find("fpga") != std::string::npos)
        return ComponentKind::Fpga;
    if (driver == "dra.net" || driver.rfind("net.", 0) == 0 || find(device, driver, driver + "/ifName")
        || find(device, driver, driver + "/rdmaDevice"))
        return ComponentKind::Nic;
    if (driver.rfind("gaudi.", 0) == 0)
        return ComponentKind::Accelerator;
    static const std::set<std::string> gpuTypes { "gpu", "mig", "vfio", "vf", "amdgpu", "amdgpu-partition" };
    if (gpuTypes.count(type) || driver.rfind("gpu.", 0) == 0)
        return ComponentKind::Gpu;
    return ComponentKind::Other;
}

/// A product name to print under the device: the first of the usual attributes.
std::string productOf(const std::string& driver, const api::Device& device)
{
    for (const char* name : { "productName", "model", "pciDevice" }) {
        const auto* a = find(device, driver, driver + "/" + name);
        if (a && a->type == api::DeviceAttribute::Type::String && !a->stringValue.empty())
            return a->stringValue;
    }
    return {};
}

/// The nvidia-smi word for a class ("PHB").
std::string className(DistanceClass c)
{
    return distanceClassName(c);
}

DistanceRange exactly(DistanceClass c)
{
    return { c, c };
}

} // namespace

AttributePosition positionFromAttributes(const std::string& driver, const api::Device& device)
{
    AttributePosition p;
    p.pcieRoot = stringAttribute(device, driver, std::string(kStandard) + "pcieRoot");
    // The standard bus ID, else the names drivers used before it (NVIDIA up to 25.8, dranet).
    for (const std::string& name :
        { std::string(kStandard) + "pciBusID", driver + "/pcieBusID", driver + "/pciAddress" }) {
        p.busId = stringAttribute(device, driver, name);
        if (!p.busId.empty())
            break;
    }
    for (const std::string& name : { std::string(kStandard) + "numaNode", driver + "/numaNode",
             driver + "/numa", driver + "/numaNodeID" }) {
        const auto* a = find(device, driver, name);
        if (a && a->type == api::DeviceAttribute::Type::Int && a->intValue >= 0 && a->intValue < (1 << 20)) {
            p.numaNode = int(a->intValue);
            p.numaSource = name;
            break;
        }
    }
    return p;
}

std::string DistanceRange::label() const
{
    if (exact())
        return className(closest);
    if (!known())
        return "unknown";
    if (closest <= DistanceClass::Pix)
        return className(farthest) + " or closer";
    if (farthest == DistanceClass::Sys)
        return className(closest) + " or " + (closest == DistanceClass::Node ? "SYS" : "farther");
    return className(closest) + " to " + className(farthest);
}

DistanceRange distanceBetween(const AttributePosition& a, const AttributePosition& b)
{
    if (!a.busId.empty() && a.busId == b.busId)
        return exactly(DistanceClass::Self);
    // Without both bus IDs two devices may be parts of one physical device (partitions).
    const DistanceClass nearest
        = a.busId.empty() || b.busId.empty() ? DistanceClass::Self : DistanceClass::Pix;
    const bool bothNuma = a.numaNode && b.numaNode;
    if (bothNuma && *a.numaNode != *b.numaNode && (a.pcieRoot.empty() || a.pcieRoot != b.pcieRoot))
        return exactly(DistanceClass::Sys); // the SMP interconnect, whatever the PCIe tree is
    if (!a.pcieRoot.empty() && !b.pcieRoot.empty()) {
        // One root complex: the path stays below the host bridge, how far below is not published.
        if (a.pcieRoot == b.pcieRoot)
            return { nearest, DistanceClass::Phb };
        if (bothNuma)
            return exactly(DistanceClass::Node); // different NUMA nodes were answered above
        return { DistanceClass::Node, DistanceClass::Sys };
    }
    if (bothNuma)
        return { nearest, DistanceClass::Node };
    return { nearest, DistanceClass::Sys };
}

bool fartherThan(const DistanceRange& a, const DistanceRange& b)
{
    if (a.farthest != b.farthest)
        return a.farthest > b.farthest;
    return a.closest > b.closest;
}

AttributeTopology::AttributeTopology(const std::vector<PublishedDevice>& devices)
{
    // Devices sharing a bus ID are one physical device (a GPU and its MIG instances).
    std::map<std::string, size_t> byBus;
    m_unitOf.resize(devices.size());
    for (size_t i = 0; i < devices.size(); ++i) {
        const PublishedDevice& d = devices[i];
        static const api::Device none;
        const api::Device& device = d.device ? *d.device : none;
        AttributePosition p = positionFromAttributes(d.driver, device);
        auto at = p.busId.empty() ? byBus.end() : byBus.find(p.busId);
        if (at == byBus.end()) {
            if (!p.busId.empty())
                byBus.emplace(p.busId, m_units.size());
            m_unitOf[i] = m_units.size();
            m_units.push_back(Unit { { i }, std::move(p), guessKind(d.driver, device), device.name, d.driver,
                productOf(d.driver, device) });
            continue;
        }
        Unit& unit = m_units[at->second];
        unit.devices.push_back(i);
        m_unitOf[i] = at->second;
        if (device.name.size() < unit.name.size())
            unit.name = device.name;
        if (unit.position.pcieRoot.empty())
            unit.position.pcieRoot = p.pcieRoot;
        if (!unit.position.numaNode && p.numaNode) {
            unit.position.numaNode = p.numaNode;
            unit.position.numaSource = p.numaSource;
        }
    }
    // A root complex sits on one NUMA node: when the devices under a root that publish a NUMA
    // node all name the same one, the others on that root are there too.
    std::map<std::string, std::set<int>> numaOfRoot;
    for (const Unit& u : m_units)
        if (!u.position.pcieRoot.empty() && u.position.numaNode)
            numaOfRoot[u.position.pcieRoot].insert(*u.position.numaNode);
    for (Unit& u : m_units) {
        auto it = numaOfRoot.find(u.position.pcieRoot);
        if (u.position.numaNode || it == numaOfRoot.end() || it->second.size() != 1)
            continue;
        u.position.numaNode = *it->second.begin();
        u.position.numaSource = "pcieRoot";
    }
}

DistanceRange AttributeTopology::distance(size_t unitA, size_t unitB) const
{
    if (unitA == unitB)
        return exactly(DistanceClass::Self);
    return distanceBetween(m_units.at(unitA).position, m_units.at(unitB).position);
}

bool AttributeTopology::anyKnown() const
{
    return std::any_of(m_units.begin(), m_units.end(),
        [](const Unit& u) { return !u.position.pcieRoot.empty() || u.position.numaNode.has_value(); });
}

NodeShape AttributeTopology::sketch(const std::string& name, std::vector<int>* componentOfUnit) const
{
    NodeShape shape;
    shape.name = name;
    shape.description = "derived from the devices' published attributes";
    std::map<std::string, std::set<int>> roots; // root → NUMA nodes its devices name
    std::set<int> numas;
    for (const Unit& u : m_units) {
        if (!u.position.pcieRoot.empty()) {
            auto& onRoot = roots[u.position.pcieRoot];
            if (u.position.numaNode)
                onRoot.insert(*u.position.numaNode);
        }
        if (u.position.numaNode)
            numas.insert(*u.position.numaNode);
    }
    for (int id : numas) {
        NumaNode n;
        n.id = id;
        n.socket = -1; // not published
        n.memoryKnown = false;
        shape.numaNodes.push_back(n);
    }
    // Roots in name order keep the drawing stable whatever order the slices came in.
    std::map<std::string, int> rootIndex;
    std::set<std::string> taken;
    for (const auto& [r, numa] : roots) {
        Component root;
        root.kind = ComponentKind::RootComplex;
        root.name = r;
        root.numaNode = numa.size() == 1 ? *numa.begin() : -1; // devices that disagree: unknown
        taken.insert(r);
        // "pci0000:15" → bus "0000:15", so Topology::pcieRoot gives the attribute back.
        root.busId = r.rfind("pci", 0) == 0 ? r.substr(3) : std::string();
        rootIndex.emplace(r, int(shape.components.size()));
        shape.components.push_back(std::move(root));
    }
    if (componentOfUnit)
        componentOfUnit->clear();
    for (const Unit& u : m_units) {
        Component c;
        c.kind = u.kind;
        c.name = taken.count(u.name) ? u.name + " (" + u.driver + ")" : u.name;
        for (int n = 2; taken.count(c.name); ++n)
            c.name = u.name + " #" + std::to_string(n);
        taken.insert(c.name);
        c.model = u.product;
        c.busId = u.position.busId;
        c.numaNode = u.position.numaNode.value_or(-1);
        const int index = int(shape.components.size());
        if (auto r = rootIndex.find(u.position.pcieRoot); r != rootIndex.end()) {
            c.parent = r->second;
            shape.components[size_t(r->second)].children.push_back(index);
        }
        if (componentOfUnit)
            componentOfUnit->push_back(index);
        shape.components.push_back(std::move(c));
    }
    return shape;
}

} // namespace drasim::topology
