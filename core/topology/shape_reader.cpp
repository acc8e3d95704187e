// SPDX-License-Identifier: Apache-2.0
#include "core/topology/shape_reader.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <map>
#include <set>

#include "core/topology/cpu_list.h"
#include "core/topology/device_models.h"
#include "core/topology/mig_placement.h"
#include "core/topology/topology.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::topology {

using yamlio::YamlNode;

namespace {

bool isDnsLabel(const std::string& s)
{
    if (s.empty() || s.size() > 63)
        return false;
    for (char c : s)
        if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c))
                || c == '-'))
            return false;
    return s.front() != '-' && s.back() != '-';
}

bool isHex(const std::string& s, size_t n)
{
    if (s.size() != n)
        return false;
    return std::all_of(
        s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

/// "dddd:bb:dd.f" with hex digits (domain 4, bus 2, device 2, function 1).
bool isBdf(const std::string& s)
{
    return s.size() == 12 && isHex(s.substr(0, 4), 4) && s[4] == ':' && isHex(s.substr(5, 2), 2)
        && s[7] == ':' && isHex(s.substr(8, 2), 2) && s[10] == '.'
        && std::isdigit(static_cast<unsigned char>(s[11])) && s[11] <= '7';
}

bool isRootBus(const std::string& s)
{
    return s.size() == 7 && isHex(s.substr(0, 4), 4) && s[4] == ':' && isHex(s.substr(5, 2), 2);
}

std::string lower(std::string s)
{
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Reads one document. Keeps the shape name for messages and the list of diagnostics.
struct Reader
{
    Diagnostics& diags;
    NodeShape shape;
    size_t errorsAtStart = 0;

    void error(const SourcePos& pos, const std::string& field, const std::string& msg)
    {
        diags.error(pos, "NodeShape", shape.name, field, msg);
    }

    // Rejects keys outside `allowed`: a typo must not silently drop hardware.
    void checkKeys(const YamlNode& map, const std::string& path, std::initializer_list<const char*> allowed)
    {
        for (const auto& [k, v] : map.entries) {
            const std::string key = k.scalar;
            bool ok = false;
            for (const char* a : allowed)
                ok = ok || key == a;
            if (!ok) {
                std::string list;
                for (const char* a : allowed)
                    list += std::string(list.empty() ? "" : ", ") + a;
                error(k.pos, path.empty() ? key : path + "." + key,
                    "unknown field (expected one of: " + list + ")");
            }
        }
    }

    const YamlNode* mapField(const YamlNode& parent, const char* key, const std::string& path)
    {
        const YamlNode* n = parent.get(key);
        if (!n || n->isNull())
            return nullptr;
        if (!n->isMap()) {
            error(n->pos, path, std::string("must be a map, not a ") + n->typeName());
            return nullptr;
        }
        return n;
    }

    const YamlNode* listField(const YamlNode& parent, const char* key, const std::string& path)
    {
        const YamlNode* n = parent.get(key);
        if (!n || n->isNull())
            return nullptr;
        if (!n->isSequence()) {
            error(n->pos, path, std::string("must be a list, not a ") + n->typeName());
            return nullptr;
        }
        return n;
    }

    bool str(const YamlNode& parent, const char* key, const std::string& path, std::string& out,
        bool required = false)
    {
        const YamlNode* n = parent.get(key);
        if (!n || n->isNull()) {
            if (required)
                error(parent.pos, path, "required field is missing");
            return false;
        }
        auto s = n->asString();
        if (!s || !n->isScalar()) {
            error(n->pos, path, std::string("must be a string, not a ") + n->typeName());
            return false;
        }
        out = *s;
        return true;
    }

    bool integer(const YamlNode& parent, const char* key, const std::string& path, int& out, int64_t min,
        int64_t max, bool required = false)
    {
        const YamlNode* n = parent.get(key);
        if (!n || n->isNull()) {
            if (required)
                error(parent.pos, path, "required field is missing");
            return false;
        }
        auto v = n->asInt();
        if (!v) {
            error(n->pos, path, std::string("must be an integer, not a ") + n->typeName());
            return false;
        }
        if (*v < min || *v > max) {
            error(n->pos, path,
                "must be between " + std::to_string(min) + " and " + std::to_string(max) + ", not "
                    + std::to_string(*v));
            return false;
        }
        out = int(*v);
        return true;
    }

    bool number(const YamlNode& parent, const char* key, const std::string& path, double& out)
    {
        const YamlNode* n = parent.get(key);
        if (!n || n->isNull())
            return false;
        auto v = n->asDouble();
        if (!v) {
            error(n->pos, path, std::string("must be a number, not a ") + n->typeName());
            return false;
        }
        if (*v < 0) {
            error(n->pos, path, "must not be negative");
            return false;
        }
        out = *v;
        return true;
    }

    bool boolean(const YamlNode& parent, const char* key, const std::string& path, bool& out)
    {
        const YamlNode* n = parent.get(key);
        if (!n || n->isNull())
            return false;
        auto v = n->asBool();
        if (!v) {
            error(n->pos, path, std::string("must be a boolean, not a ") + n->typeName());
            return false;
        }
        out = *v;
        return true;
    }

    bool quantity(const YamlNode& parent, const char* key, const std::string& path, Quantity& out,
        bool required = false)
    {
        const YamlNode* n = parent.get(key);
        if (!n || n->isNull()) {
            if (required)
                error(parent.pos, path, "required field is missing");
            return false;
        }
        if (!n->isScalar()) {
            error(n->pos, path, std::string("must be a quantity, not a ") + n->typeName());
            return false;
        }
        std::string why;
        auto q = Quantity::parse(n->scalar, &why);
        if (!q) {
            error(n->pos, path, "invalid quantity \"" + n->scalar + "\": " + why);
            return false;
        }
        if (q->sign() < 0) {
            error(n->pos, path, "must not be negative");
            return false;
        }
        out = *q;
        return true;
    }

    std::vector<std::string> stringList(const YamlNode& parent, const char* key, const std::string& path)
    {
        std::vector<std::string> out;
        const YamlNode* l = listField(parent, key, path);
        if (!l)
            return out;
        for (size_t i = 0; i < l->items.size(); ++i) {
            const auto& it = l->items[i];
            auto s = it.asString();
            if (!s || !it.isScalar())
                error(it.pos, path + "[" + std::to_string(i) + "]",
                    std::string("must be a string, not a ") + it.typeName());
            else
                out.push_back(*s);
        }
        return out;
    }

    void readCpu(const YamlNode& cpu, const std::string& path)
    {
        checkKeys(cpu, path, { "threadsPerCore", "interconnect", "sockets" });
        integer(cpu, "threadsPerCore", path + ".threadsPerCore", shape.threadsPerCore, 1, 8);
        str(cpu, "interconnect", path + ".interconnect", shape.interSocketLink);
        const YamlNode* sockets = listField(cpu, "sockets", path + ".sockets");
        if (!sockets || sockets->items.empty()) {
            error(cpu.pos, path + ".sockets", "at least one socket is required");
            return;
        }
        std::set<int> numaIds;
        for (size_t i = 0; i < sockets->items.size(); ++i) {
            const auto& s = sockets->items[i];
            const std::string sp = path + ".sockets[" + std::to_string(i) + "]";
            if (!s.isMap()) {
                error(s.pos, sp, std::string("must be a map, not a ") + s.typeName());
                continue;
            }
            checkKeys(s, sp, { "model", "cores", "numaNodes" });
            Socket sock;
            sock.id = int(i);
            str(s, "model", sp + ".model", sock.model);
            const YamlNode* numas = listField(s, "numaNodes", sp + ".numaNodes");
            if (numas && !numas->items.empty()) {
                for (size_t j = 0; j < numas->items.size(); ++j) {
                    const auto& nn = numas->items[j];
                    const std::string np = sp + ".numaNodes[" + std::to_string(j) + "]";
                    if (!nn.isMap()) {
                        error(nn.pos, np, std::string("must be a map, not a ") + nn.typeName());
                        continue;
                    }
                    checkKeys(nn, np, { "id", "cores", "memory", "cpus" });
                    NumaNode numa;
                    numa.socket = sock.id;
                    integer(nn, "id", np + ".id", numa.id, 0, 1023, true);
                    integer(nn, "cores", np + ".cores", numa.cores, 0, 4096, true);
                    // Omitted memory means unknown (an nvidia-smi import): the Node publishes none.
                    numa.memoryKnown = quantity(nn, "memory", np + ".memory", numa.memory);
                    if (!numa.memoryKnown && !nn.get("memory"))
                        numa.memory = Quantity::fromInt(0, Quantity::Format::BinarySI);
                    std::string cpus;
                    if (str(nn, "cpus", np + ".cpus", cpus)) {
                        auto ids = parseCpuList(cpus);
                        if (!ids)
                            error(nn.get("cpus")->pos, np + ".cpus",
                                "\"" + cpus + "\" is not a CPU list (expected e.g. \"0-15,32-47\")");
                        else
                            numa.cpus = *ids;
                    }
                    if (!numaIds.insert(numa.id).second)
                        error(nn.get("id") ? nn.get("id")->pos : nn.pos, np + ".id",
                            "NUMA node " + std::to_string(numa.id) + " is defined twice");
                    sock.cores += numa.cores;
                    shape.numaNodes.push_back(numa);
                }
                int declared = 0;
                if (integer(s, "cores", sp + ".cores", declared, 1, 4096) && declared != sock.cores)
                    error(s.get("cores")->pos, sp + ".cores",
                        "socket has " + std::to_string(declared) + " cores but its NUMA nodes add up to "
                            + std::to_string(sock.cores));
            } else {
                error(s.pos, sp + ".numaNodes", "at least one NUMA node is required");
            }
            shape.sockets.push_back(sock);
        }
    }

    void readModel(const YamlNode& m, const std::string& path)
    {
        checkKeys(m, path,
            { "id", "kind", "driver", "productName", "brand", "architecture", "computeCapability",
                "pciVendorID", "pciDeviceID", "memory", "powerWatts", "speedGbps", "rdma", "pciDeviceName",
                "encapsulation", "board", "shell", "computeUnits", "simdUnits", "basedOn" });
        DeviceModel model;
        std::string base;
        if (str(m, "basedOn", path + ".basedOn", base)) {
            const DeviceModel* b = findBuiltinModel(base);
            if (!b)
                error(m.get("basedOn")->pos, path + ".basedOn", "unknown built-in model \"" + base + "\"");
            else
                model = *b;
        }
        str(m, "id", path + ".id", model.id, true);
        std::string kind;
        if (str(m, "kind", path + ".kind", kind)) {
            auto k = componentKindFromName(kind);
            if (!k || !isEndpoint(*k))
                error(m.get("kind")->pos, path + ".kind",
                    "unknown device kind \"" + kind + "\" (expected gpu, nic, fpga, accelerator or other)");
            else
                model.kind = *k;
        } else if (base.empty()) {
            error(m.pos, path + ".kind", "required field is missing");
        }
        if (str(m, "driver", path + ".driver", model.vendorDriver)) {
            static const char* known[]
                = { "nvidia", "amd", "intel-gpu", "gaudi", "dranet", "example", "fpga", "none" };
            if (std::find_if(std::begin(known), std::end(known),
                    [&](const char* k) { return model.vendorDriver == k; })
                == std::end(known))
                error(m.get("driver")->pos, path + ".driver",
                    "unknown driver \"" + model.vendorDriver
                        + "\" (expected nvidia, amd, intel-gpu, gaudi, dranet, example, fpga or none)");
        } else if (base.empty()) {
            model.vendorDriver = "none";
        }
        str(m, "productName", path + ".productName", model.productName);
        str(m, "brand", path + ".brand", model.brand);
        str(m, "architecture", path + ".architecture", model.architecture);
        str(m, "computeCapability", path + ".computeCapability", model.computeCapability);
        str(m, "pciVendorID", path + ".pciVendorID", model.pciVendorId);
        str(m, "pciDeviceID", path + ".pciDeviceID", model.pciDeviceId);
        Quantity q;
        if (quantity(m, "memory", path + ".memory", q))
            model.memory = q;
        integer(m, "powerWatts", path + ".powerWatts", model.powerWatts, 0, 100000);
        integer(m, "speedGbps", path + ".speedGbps", model.speedGbps, 0, 100000);
        boolean(m, "rdma", path + ".rdma", model.rdma);
        str(m, "pciDeviceName", path + ".pciDeviceName", model.pciDeviceName);
        str(m, "encapsulation", path + ".encapsulation", model.encapsulation);
        str(m, "board", path + ".board", model.board);
        str(m, "shell", path + ".shell", model.shell);
        integer(m, "computeUnits", path + ".computeUnits", model.computeUnits, 0, 100000);
        integer(m, "simdUnits", path + ".simdUnits", model.simdUnits, 0, 1000000);
        if (model.vendorDriver == "nvidia" && model.computeCapability.empty())
            error(m.pos, path + ".computeCapability", "required for NVIDIA GPUs (e.g. \"9.0.0\")");
        shape.models.push_back(model);
    }

    void readComponent(const YamlNode& n, const std::string& path, int parent)
    {
        if (!n.isMap()) {
            error(n.pos, path, std::string("must be a map, not a ") + n.typeName());
            return;
        }
        Component c;
        c.pos = n.pos;
        c.parent = parent;
        std::string kind;
        if (parent < 0) {
            c.kind = ComponentKind::RootComplex;
            if (str(n, "kind", path + ".kind", kind) && kind != "rootComplex")
                error(n.get("kind")->pos, path + ".kind",
                    "top-level spec.pcie entries are root complexes (kind rootComplex), not " + kind);
        } else if (str(n, "kind", path + ".kind", kind, true)) {
            auto k = componentKindFromName(kind);
            if (!k) {
                error(n.get("kind")->pos, path + ".kind",
                    "unknown component kind \"" + kind
                        + "\" (expected switch, bridge, gpu, nic, fpga, accelerator or other)");
                return;
            }
            if (*k == ComponentKind::RootComplex) {
                error(n.get("kind")->pos, path + ".kind",
                    "a root complex cannot sit below another PCIe component");
                return;
            }
            c.kind = *k;
        } else {
            return;
        }
        if (c.kind == ComponentKind::RootComplex)
            checkKeys(n, path, { "kind", "name", "bus", "numaNode", "children" });
        else if (!isEndpoint(c.kind))
            checkKeys(n, path, { "kind", "name", "busID", "link", "children" });
        else
            checkKeys(n, path,
                { "kind", "name", "model", "busID", "index", "numaNode", "link", "ifName", "rdmaDevice",
                    "mac", "primary", "migLayout" });

        str(n, "name", path + ".name", c.name, true);
        if (!c.name.empty() && !isDnsLabel(c.name))
            error(n.get("name")->pos, path + ".name",
                "\"" + c.name + "\" is not a valid name (lower-case letters, digits and '-', at most 63)");
        if (c.kind == ComponentKind::RootComplex) {
            if (str(n, "bus", path + ".bus", c.busId, true)) {
                c.busId = lower(c.busId);
                if (!isRootBus(c.busId))
                    error(n.get("bus")->pos, path + ".bus",
                        "\"" + c.busId + "\" is not a PCI domain:bus (expected e.g. \"0000:15\")");
            }
            // Omitted when the capture does not say (nvidia-smi prints N/A).
            integer(n, "numaNode", path + ".numaNode", c.numaNode, 0, 1023);
        } else {
            if (str(n, "busID", path + ".busID", c.busId)) {
                c.busId = lower(c.busId);
                if (!isBdf(c.busId))
                    error(n.get("busID")->pos, path + ".busID",
                        "\"" + c.busId + "\" is not a PCI address (expected e.g. \"0000:18:00.0\")");
            }
            if (const YamlNode* link = mapField(n, "link", path + ".link")) {
                checkKeys(*link, path + ".link", { "generation", "width" });
                integer(*link, "generation", path + ".link.generation", c.link.generation, 1, 7);
                integer(*link, "width", path + ".link.width", c.link.width, 1, 32);
            }
        }
        if (isEndpoint(c.kind)) {
            str(n, "model", path + ".model", c.model, c.kind != ComponentKind::Other);
            integer(n, "index", path + ".index", c.index, 0, 1023);
            integer(n, "numaNode", path + ".numaNode", c.numaNode, 0, 1023);
            str(n, "ifName", path + ".ifName", c.ifName);
            str(n, "rdmaDevice", path + ".rdmaDevice", c.rdmaDevice);
            str(n, "mac", path + ".mac", c.mac);
            boolean(n, "primary", path + ".primary", c.primary);
            c.migLayout = stringList(n, "migLayout", path + ".migLayout");
            if (const YamlNode* ml = n.get("migLayout"))
                c.migLayoutPos = ml->pos;
            if (c.busId.empty() && c.kind != ComponentKind::Other)
                error(n.pos, path + ".busID", "required field is missing");
        }
        const int self = int(shape.components.size());
        shape.components.push_back(c);
        positions.push_back(path);
        if (parent >= 0)
            shape.components[parent].children.push_back(self);
        const YamlNode* children = n.get("children");
        if (children && !children->isNull()) {
            if (!children->isSequence()) {
                error(children->pos, path + ".children",
                    std::string("must be a list, not a ") + children->typeName());
                return;
            }
            for (size_t i = 0; i < children->items.size(); ++i)
                readComponent(children->items[i], path + ".children[" + std::to_string(i) + "]", self);
        }
    }

    void readFabric(const YamlNode& f, const std::string& path)
    {
        checkKeys(f, path,
            { "name", "type", "generation", "linksPerDevice", "devices", "pairs", "domain", "domainNodes" });
        Fabric fab;
        fab.pos = f.pos;
        str(f, "name", path + ".name", fab.name, true);
        if (str(f, "type", path + ".type", fab.type)) {
            if (fab.type != "nvlink" && fab.type != "xgmi" && fab.type != "roce")
                error(f.get("type")->pos, path + ".type",
                    "unknown fabric type \"" + fab.type + "\" (expected nvlink, xgmi or roce)");
        }
        integer(f, "generation", path + ".generation", fab.generation, 1, 10);
        str(f, "domain", path + ".domain", fab.domain);
        integer(f, "domainNodes", path + ".domainNodes", fab.domainNodes, 1, 1024);
        if (fab.domainNodes > 0 && fab.domain.empty())
            error(f.get("domainNodes")->pos, path + ".domainNodes",
                "needs domain (the multi-node fabric's name)");
        const YamlNode* devices = listField(f, "devices", path + ".devices");
        const YamlNode* pairs = listField(f, "pairs", path + ".pairs");
        if (devices && pairs) {
            error(f.pos, path, "give either devices (a switched fabric) or pairs (direct links), not both");
            return;
        }
        if (!devices && !pairs) {
            error(f.pos, path, "a fabric needs devices (switched) or pairs (direct links)");
            return;
        }
        auto resolve = [&](const YamlNode& item, const std::string& p) {
            auto s = item.asString();
            if (!s) {
                error(item.pos, p, std::string("must be a device name, not a ") + item.typeName());
                return -1;
            }
            int idx = shape.find(*s);
            if (idx < 0) {
                error(item.pos, p, "no component named \"" + *s + "\" in spec.pcie");
                return -1;
            }
            if (!isEndpoint(shape.components[idx].kind)) {
                error(item.pos, p,
                    "\"" + *s + "\" is a " + componentKindName(shape.components[idx].kind)
                        + ", only devices join a fabric");
                return -1;
            }
            return idx;
        };
        if (devices) {
            fab.switched = true;
            integer(f, "linksPerDevice", path + ".linksPerDevice", fab.linksPerDevice, 1, 72, true);
            std::set<int> seen;
            for (size_t i = 0; i < devices->items.size(); ++i) {
                int idx = resolve(devices->items[i], path + ".devices[" + std::to_string(i) + "]");
                if (idx >= 0 && !seen.insert(idx).second)
                    error(
                        devices->items[i].pos, path + ".devices[" + std::to_string(i) + "]", "listed twice");
                else if (idx >= 0)
                    fab.members.push_back(idx);
            }
        } else {
            fab.switched = false;
            for (size_t i = 0; i < pairs->items.size(); ++i) {
                const auto& pr = pairs->items[i];
                const std::string pp = path + ".pairs[" + std::to_string(i) + "]";
                if (!pr.isMap()) {
                    error(pr.pos, pp, std::string("must be a map {a, b, links}, not a ") + pr.typeName());
                    continue;
                }
                checkKeys(pr, pp, { "a", "b", "links" });
                Fabric::Pair p;
                const YamlNode* a = pr.get("a");
                const YamlNode* b = pr.get("b");
                if (!a || !b) {
                    error(pr.pos, pp, "both a and b are required");
                    continue;
                }
                p.a = resolve(*a, pp + ".a");
                p.b = resolve(*b, pp + ".b");
                integer(pr, "links", pp + ".links", p.links, 1, 72);
                if (p.a >= 0 && p.a == p.b)
                    error(pr.pos, pp, "a device cannot link to itself");
                if (p.a < 0 || p.b < 0 || p.a == p.b)
                    continue;
                fab.pairs.push_back(p);
                for (int m : { p.a, p.b })
                    if (std::find(fab.members.begin(), fab.members.end(), m) == fab.members.end())
                        fab.members.push_back(m);
            }
        }
        shape.fabrics.push_back(fab);
    }

    std::vector<std::string> positions; // field path per component, for finalize messages

    void read(const YamlNode& doc)
    {
        if (!doc.isMap()) {
            error(doc.pos, "", std::string("a NodeShape document must be a map, not a ") + doc.typeName());
            return;
        }
        shape.pos = doc.pos;
        if (const YamlNode* md = doc.get("metadata"); md && md->isMap()) {
            if (const YamlNode* nm = md->get("name"); nm && nm->asString())
                shape.name = *nm->asString();
        }
        checkKeys(doc, "", { "apiVersion", "kind", "metadata", "spec" });
        std::string api;
        if (str(doc, "apiVersion", "apiVersion", api, true) && api != kShapeApiVersion)
            error(doc.get("apiVersion")->pos, "apiVersion",
                "unsupported apiVersion \"" + api + "\" (expected " + kShapeApiVersion + ")");
        std::string kind;
        if (str(doc, "kind", "kind", kind, true) && kind != "NodeShape")
            error(doc.get("kind")->pos, "kind", "expected kind NodeShape, not " + kind);
        const YamlNode* md = mapField(doc, "metadata", "metadata");
        if (!md) {
            error(doc.pos, "metadata.name", "required field is missing");
        } else {
            checkKeys(*md, "metadata", { "name", "labels", "annotations" });
            std::string name;
            if (str(*md, "name", "metadata.name", name, true) && !isDnsLabel(name))
                error(md->get("name")->pos, "metadata.name",
                    "\"" + name
                        + "\" is not a valid shape name (lower-case letters, digits and '-', at most 63)");
        }
        const YamlNode* spec = mapField(doc, "spec", "spec");
        if (!spec) {
            error(doc.pos, "spec", "required field is missing");
            return;
        }
        checkKeys(*spec, "spec",
            { "description", "sources", "arch", "labels", "price", "powerWatts", "kubelet", "nvidia", "cpu",
                "models", "pcie", "fabrics", "observed" });
        str(*spec, "description", "spec.description", shape.description);
        shape.sources = stringList(*spec, "sources", "spec.sources");
        if (str(*spec, "arch", "spec.arch", shape.arch) && shape.arch != "amd64" && shape.arch != "arm64"
            && shape.arch != "ppc64le" && shape.arch != "s390x")
            error(spec->get("arch")->pos, "spec.arch",
                "must be amd64, arm64, ppc64le or s390x, not " + shape.arch);
        if (const YamlNode* labels = mapField(*spec, "labels", "spec.labels")) {
            for (const auto& [k, v] : labels->entries) {
                auto s = v.asString();
                if (!s)
                    error(v.pos, "spec.labels." + k.scalar,
                        std::string("must be a string, not a ") + v.typeName());
                else
                    shape.labels[k.scalar] = *s;
            }
        }
        if (const YamlNode* price = mapField(*spec, "price", "spec.price")) {
            checkKeys(*price, "spec.price", { "purchaseUSD", "perHourUSD" });
            number(*price, "purchaseUSD", "spec.price.purchaseUSD", shape.price.purchaseUsd);
            number(*price, "perHourUSD", "spec.price.perHourUSD", shape.price.perHourUsd);
        }
        integer(*spec, "powerWatts", "spec.powerWatts", shape.powerWatts, 0, 1000000);
        if (const YamlNode* k = mapField(*spec, "kubelet", "spec.kubelet")) {
            checkKeys(*k, "spec.kubelet", { "maxPods", "reservedCPU", "reservedMemory" });
            integer(*k, "maxPods", "spec.kubelet.maxPods", shape.maxPods, 1, 10000);
            quantity(*k, "reservedCPU", "spec.kubelet.reservedCPU", shape.reservedCpu);
            quantity(*k, "reservedMemory", "spec.kubelet.reservedMemory", shape.reservedMemory);
        }
        if (const YamlNode* nv = mapField(*spec, "nvidia", "spec.nvidia")) {
            checkKeys(*nv, "spec.nvidia", { "driverVersion", "cudaDriverVersion", "mig" });
            str(*nv, "driverVersion", "spec.nvidia.driverVersion", shape.nvidia.driverVersion);
            str(*nv, "cudaDriverVersion", "spec.nvidia.cudaDriverVersion", shape.nvidia.cudaDriverVersion);
            std::string mig;
            if (str(*nv, "mig", "spec.nvidia.mig", mig)) {
                if (mig == "none")
                    shape.nvidia.mig = MigMode::None;
                else if (mig == "static")
                    shape.nvidia.mig = MigMode::Static;
                else if (mig == "dynamic")
                    shape.nvidia.mig = MigMode::Dynamic;
                else
                    error(nv->get("mig")->pos, "spec.nvidia.mig",
                        "must be none, static or dynamic, not " + mig);
            }
        }
        if (const YamlNode* cpu = mapField(*spec, "cpu", "spec.cpu"))
            readCpu(*cpu, "spec.cpu");
        else
            error(spec->pos, "spec.cpu", "required field is missing");
        if (const YamlNode* models = listField(*spec, "models", "spec.models")) {
            for (size_t i = 0; i < models->items.size(); ++i) {
                const auto& m = models->items[i];
                const std::string mp = "spec.models[" + std::to_string(i) + "]";
                if (!m.isMap())
                    error(m.pos, mp, std::string("must be a map, not a ") + m.typeName());
                else
                    readModel(m, mp);
            }
        }
        if (const YamlNode* pcie = listField(*spec, "pcie", "spec.pcie")) {
            for (size_t i = 0; i < pcie->items.size(); ++i)
                readComponent(pcie->items[i], "spec.pcie[" + std::to_string(i) + "]", -1);
        }
        // Fabrics refer to devices by name, so they are read after the PCIe tree.
        if (const YamlNode* fabrics = listField(*spec, "fabrics", "spec.fabrics")) {
            for (size_t i = 0; i < fabrics->items.size(); ++i) {
                const auto& f = fabrics->items[i];
                const std::string fp = "spec.fabrics[" + std::to_string(i) + "]";
                if (!f.isMap())
                    error(f.pos, fp, std::string("must be a map, not a ") + f.typeName());
                else
                    readFabric(f, fp);
            }
        }
        if (const YamlNode* observed = mapField(*spec, "observed", "spec.observed"))
            readObserved(*observed, "spec.observed");
    }

    // The matrix an import kept cell for cell; rows name devices of the PCIe tree.
    void readObserved(const YamlNode& o, const std::string& path)
    {
        checkKeys(o, path, { "treeApproximate", "rows" });
        shape.observed.pos = o.pos;
        boolean(o, "treeApproximate", path + ".treeApproximate", shape.observed.treeApproximate);
        const YamlNode* rows = listField(o, "rows", path + ".rows");
        if (!rows)
            return;
        for (size_t i = 0; i < rows->items.size(); ++i) {
            const auto& r = rows->items[i];
            const std::string rp = path + ".rows[" + std::to_string(i) + "]";
            if (!r.isMap()) {
                error(r.pos, rp, std::string("must be a map, not a ") + r.typeName());
                continue;
            }
            checkKeys(r, rp, { "device", "cells", "cpuAffinity", "numaAffinity" });
            ObservedMatrix::Row row;
            std::string device;
            if (str(r, "device", rp + ".device", device, true)) {
                row.component = shape.find(device);
                if (row.component < 0 || !isEndpoint(shape.components[row.component].kind))
                    error(
                        r.get("device")->pos, rp + ".device", "no device named " + device + " in spec.pcie");
            }
            row.cells = stringList(r, "cells", rp + ".cells");
            if (row.cells.size() != rows->items.size())
                error(r.pos, rp + ".cells",
                    "has " + std::to_string(row.cells.size()) + " cells for "
                        + std::to_string(rows->items.size()) + " rows");
            for (size_t k = 0; k < row.cells.size(); ++k)
                if (!parseDistanceLabel(row.cells[k]))
                    error(r.get("cells")->pos, rp + ".cells[" + std::to_string(k) + "]",
                        "unknown topology label \"" + row.cells[k]
                            + "\" (expected X, NV#, PIX, PXB, PHB, NODE or SYS)");
            str(r, "cpuAffinity", rp + ".cpuAffinity", row.cpuAffinity);
            str(r, "numaAffinity", rp + ".numaAffinity", row.numaAffinity);
            shape.observed.rows.push_back(std::move(row));
        }
    }
};

} // namespace

namespace {

// componentPaths (from the reader) turn component-relative fields into full field paths.
bool finalizeImpl(NodeShape& shape, Diagnostics& diags, const std::vector<std::string>* componentPaths)
{
    const size_t before = diags.errorCount();
    auto error = [&](const SourcePos& pos, const std::string& field, const std::string& msg) {
        std::string path = field;
        if (componentPaths && field.rfind("spec.", 0) != 0) {
            for (size_t i = 0; i < shape.components.size() && i < componentPaths->size(); ++i) {
                const auto& c = shape.components[i];
                const bool same = (c.pos.line == pos.line && c.pos.column == pos.column)
                    || (c.migLayoutPos.line == pos.line && c.migLayoutPos.column == pos.column
                        && pos.line > 0);
                if (same) {
                    path = (*componentPaths)[i] + "." + field;
                    break;
                }
            }
        }
        diags.error(pos, "NodeShape", shape.name, path, msg);
    };
    std::set<int> numaIds;
    for (const auto& n : shape.numaNodes)
        numaIds.insert(n.id);
    std::map<std::string, int> names;
    std::map<std::string, int> busIds;
    for (size_t i = 0; i < shape.components.size(); ++i) {
        auto& c = shape.components[i];
        if (!c.name.empty()) {
            auto [it, added] = names.emplace(c.name, int(i));
            if (!added)
                error(c.pos, "name", "component name \"" + c.name + "\" is used twice");
        }
        if (!c.busId.empty()) {
            auto [it, added] = busIds.emplace(c.busId, int(i));
            if (!added)
                error(c.pos, "busID",
                    "PCI address " + c.busId + " is used by both " + shape.components[it->second].name
                        + " and " + c.name);
        }
        if (c.parent >= int(shape.components.size()) || c.parent == int(i))
            error(c.pos, "parent", "component " + c.name + " has an invalid parent");
        if (c.numaNode >= 0 && !numaIds.empty() && !numaIds.count(c.numaNode))
            error(
                c.pos, "numaNode", "NUMA node " + std::to_string(c.numaNode) + " is not defined in spec.cpu");
        if (isEndpoint(c.kind)) {
            if (c.model.empty() && c.kind != ComponentKind::Other) {
                error(c.pos, "model", "device " + c.name + " has no model");
                continue;
            }
            if (c.model.empty())
                continue;
            const DeviceModel* m = shape.modelOf(c);
            if (!m) {
                error(c.pos, "model",
                    "unknown device model \"" + c.model
                        + "\" (define it under spec.models or use a built-in model)");
                continue;
            }
            if (m->kind != c.kind)
                error(c.pos, "model",
                    "model " + c.model + " is a " + componentKindName(m->kind) + ", but " + c.name + " is a "
                        + componentKindName(c.kind));
            if (!c.migLayout.empty()) {
                std::string why;
                const SourcePos& at = c.migLayoutPos.line > 0 ? c.migLayoutPos : c.pos;
                if (m->migMemorySlices == 0)
                    error(at, "migLayout", c.model + " does not support MIG");
                else if (!placeMigLayout(*m, c.migLayout, &why))
                    error(at, "migLayout", why);
            }
        }
    }
    // Inherit NUMA from the root complex; resolve indices per (kind, driver) in tree order.
    for (size_t i = 0; i < shape.components.size(); ++i) {
        auto& c = shape.components[i];
        if (c.numaNode < 0) {
            int r = shape.rootOf(int(i));
            if (r >= 0)
                c.numaNode = shape.components[r].numaNode;
        }
    }
    std::map<std::pair<ComponentKind, std::string>, std::set<int>> used;
    for (auto& c : shape.components) {
        if (!isEndpoint(c.kind) || c.index < 0)
            continue;
        const DeviceModel* m = shape.modelOf(c);
        auto key = std::make_pair(c.kind, m ? m->vendorDriver : std::string());
        if (!used[key].insert(c.index).second)
            error(c.pos, "index",
                std::string("two ") + componentKindName(c.kind) + "s have index " + std::to_string(c.index));
    }
    for (auto& c : shape.components) {
        if (!isEndpoint(c.kind) || c.index >= 0)
            continue;
        const DeviceModel* m = shape.modelOf(c);
        auto& set = used[std::make_pair(c.kind, m ? m->vendorDriver : std::string())];
        int next = 0;
        while (set.count(next))
            ++next;
        c.index = next;
        set.insert(next);
    }
    for (size_t i = 0; i < shape.fabrics.size(); ++i) {
        for (int m : shape.fabrics[i].members)
            if (m < 0 || size_t(m) >= shape.components.size())
                error(shape.fabrics[i].pos, "spec.fabrics[" + std::to_string(i) + "]",
                    "refers to a missing device");
    }
    return diags.errorCount() == before;
}

} // namespace

bool finalizeShape(NodeShape& shape, Diagnostics& diags)
{
    return finalizeImpl(shape, diags, nullptr);
}

std::vector<NodeShape> readNodeShapes(std::string_view text, const std::string& fileName, Diagnostics& diags)
{
    std::vector<NodeShape> out;
    auto docs = yamlio::parseYamlDocuments(text, fileName, diags);
    for (const auto& doc : docs) {
        if (doc.isNull())
            continue;
        Reader r { diags, {}, diags.errorCount(), {} };
        r.read(doc);
        if (diags.errorCount() != r.errorsAtStart)
            continue;
        if (finalizeImpl(r.shape, diags, &r.positions))
            out.push_back(std::move(r.shape));
    }
    return out;
}

std::vector<NodeShape> loadNodeShapeFile(const std::string& path, Diagnostics& diags)
{
    std::string text;
    std::string why;
    if (!yamlio::readFile(path, text, &why)) {
        diags.error(SourcePos { path, 0, 0 }, "", "", "", why);
        return {};
    }
    return readNodeShapes(text, path, diags);
}

} // namespace drasim::topology
