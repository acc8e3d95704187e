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
#include "core/yamlio/doc_reader.h"
#include "core/yamlio/names.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::topology {

using yamlio::YamlNode;

namespace {

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

std::string joined(std::initializer_list<const char*> names)
{
    std::string list;
    for (const char* n : names)
        list += std::string(list.empty() ? "" : ", ") + n;
    return list;
}

// Reads one document through a DocReader (the wording every drasim document shares). Fields are
// looked up by key rather than in document order because some depend on others (basedOn before
// a model's fields, fabrics after the PCIe tree).
struct Reader
{
    yamlio::DocReader r;
    NodeShape shape;

    explicit Reader(Diagnostics& diags)
        : r(diags, "NodeShape")
    { }

    void error(const SourcePos& pos, const std::string& field, const std::string& msg)
    {
        r.error(pos, field, msg);
    }

    // Rejects keys outside `allowed`: a typo must not silently drop hardware.
    void checkKeys(const YamlNode& map, const std::string& path, std::initializer_list<const char*> allowed)
    {
        r.fields(
            map, path, joined(allowed), [&](const std::string& key, const YamlNode&, const std::string&) {
                return std::any_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; });
            });
    }

    /// The value of `key`, nullptr when absent or null ("Required value" when required).
    const YamlNode* field(const YamlNode& parent, const char* key, const std::string& path, bool required)
    {
        const YamlNode* n = parent.get(key);
        if (n && !n->isNull())
            return n;
        if (required)
            r.required(parent, path);
        return nullptr;
    }

    const YamlNode* mapField(const YamlNode& parent, const char* key, const std::string& path)
    {
        const YamlNode* n = field(parent, key, path, false);
        return n && r.isMap(*n, path) ? n : nullptr;
    }

    const YamlNode* listField(const YamlNode& parent, const char* key, const std::string& path)
    {
        const YamlNode* n = field(parent, key, path, false);
        return n && r.isList(*n, path) ? n : nullptr;
    }

    bool str(const YamlNode& parent, const char* key, const std::string& path, std::string& out,
        bool required = false)
    {
        const YamlNode* n = field(parent, key, path, required);
        auto s = n ? r.string(*n, path) : std::nullopt;
        if (s)
            out = *s;
        return s.has_value();
    }

    bool integer(const YamlNode& parent, const char* key, const std::string& path, int& out, int64_t min,
        int64_t max, bool required = false)
    {
        const YamlNode* n = field(parent, key, path, required);
        auto v = n ? r.integer(*n, path, min, max) : std::nullopt;
        if (v)
            out = int(*v);
        return v.has_value();
    }

    bool number(const YamlNode& parent, const char* key, const std::string& path, double& out)
    {
        const YamlNode* n = field(parent, key, path, false);
        auto v = n ? r.number(*n, path, 0) : std::nullopt;
        if (v)
            out = *v;
        return v.has_value();
    }

    bool boolean(const YamlNode& parent, const char* key, const std::string& path, bool& out)
    {
        const YamlNode* n = field(parent, key, path, false);
        auto v = n ? r.boolean(*n, path) : std::nullopt;
        if (v)
            out = *v;
        return v.has_value();
    }

    bool quantity(const YamlNode& parent, const char* key, const std::string& path, Quantity& out,
        bool required = false)
    {
        const YamlNode* n = field(parent, key, path, required);
        if (!n)
            return false;
        if (!n->isScalar()) {
            r.error(*n, path, "expected a quantity, got " + yamlio::DocReader::describe(*n));
            return false;
        }
        std::string why;
        auto q = Quantity::parse(n->scalar, &why);
        if (!q) {
            r.error(*n, path, "invalid quantity \"" + n->scalar + "\": " + why);
            return false;
        }
        if (q->sign() < 0) {
            r.invalid(*n, path, n->scalar, "must be greater than or equal to 0");
            return false;
        }
        out = *q;
        return true;
    }

    std::vector<std::string> stringList(const YamlNode& parent, const char* key, const std::string& path)
    {
        std::vector<std::string> out;
        if (const YamlNode* l = listField(parent, key, path))
            r.items(*l, path, [&](const YamlNode& item, const std::string& ip) {
                if (auto s = r.string(item, ip))
                    out.push_back(*s);
            });
        return out;
    }

    void readCpu(const YamlNode& cpu, const std::string& path)
    {
        checkKeys(cpu, path, { "threadsPerCore", "interconnect", "sockets" });
        integer(cpu, "threadsPerCore", path + ".threadsPerCore", shape.threadsPerCore, 1, 8);
        str(cpu, "interconnect", path + ".interconnect", shape.interSocketLink);
        const YamlNode* sockets = listField(cpu, "sockets", path + ".sockets");
        if (!sockets || sockets->items.empty()) {
            if (sockets || !cpu.get("sockets") || cpu.get("sockets")->isNull())
                error(cpu.pos, path + ".sockets", "Required value: at least one socket");
            return;
        }
        std::set<int> numaIds;
        for (size_t i = 0; i < sockets->items.size(); ++i) {
            const auto& s = sockets->items[i];
            const std::string sp = path + ".sockets[" + std::to_string(i) + "]";
            if (!r.isMap(s, sp))
                continue;
            checkKeys(s, sp, { "model", "cores", "numaNodes" });
            Socket sock;
            sock.id = int(i);
            str(s, "model", sp + ".model", sock.model);
            const YamlNode* numas = listField(s, "numaNodes", sp + ".numaNodes");
            if (numas && !numas->items.empty()) {
                for (size_t j = 0; j < numas->items.size(); ++j) {
                    const auto& nn = numas->items[j];
                    const std::string np = sp + ".numaNodes[" + std::to_string(j) + "]";
                    if (!r.isMap(nn, np))
                        continue;
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
                            r.invalid(*nn.get("cpus"), np + ".cpus", cpus,
                                "must be a CPU list such as \"0-15,32-47\"");
                        else
                            numa.cpus = *ids;
                    }
                    if (!numaIds.insert(numa.id).second)
                        error(nn.get("id") ? nn.get("id")->pos : nn.pos, np + ".id",
                            "Duplicate value: " + std::to_string(numa.id)); // a number, unquoted
                    sock.cores += numa.cores;
                    shape.numaNodes.push_back(numa);
                }
                int declared = 0;
                if (integer(s, "cores", sp + ".cores", declared, 1, 4096) && declared != sock.cores)
                    error(s.get("cores")->pos, sp + ".cores",
                        "socket has " + std::to_string(declared) + " cores but its NUMA nodes add up to "
                            + std::to_string(sock.cores));
            } else if (numas || !s.get("numaNodes") || s.get("numaNodes")->isNull()) {
                error(s.pos, sp + ".numaNodes", "Required value: at least one NUMA node");
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
                r.invalid(*m.get("basedOn"), path + ".basedOn", base, "not a built-in model");
            else
                model = *b;
        }
        str(m, "id", path + ".id", model.id, true);
        std::string kind;
        if (str(m, "kind", path + ".kind", kind)) {
            auto k = componentKindFromName(kind);
            if (!k || !isEndpoint(*k))
                r.unsupported(
                    *m.get("kind"), path + ".kind", kind, { "gpu", "nic", "fpga", "accelerator", "other" });
            else
                model.kind = *k;
        } else if (base.empty()) {
            r.required(m, path + ".kind");
        }
        if (str(m, "driver", path + ".driver", model.vendorDriver)) {
            static const char* const known[]
                = { "nvidia", "amd", "intel-gpu", "gaudi", "dranet", "example", "fpga", "none" };
            if (std::none_of(std::begin(known), std::end(known),
                    [&](const char* k) { return model.vendorDriver == k; }))
                r.unsupported(*m.get("driver"), path + ".driver", model.vendorDriver,
                    { "nvidia", "amd", "intel-gpu", "gaudi", "dranet", "example", "fpga", "none" });
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
            error(
                m.pos, path + ".computeCapability", "Required value: NVIDIA GPUs need one (e.g. \"9.0.0\")");
        shape.models.push_back(model);
    }

    void readComponent(const YamlNode& n, const std::string& path, int parent)
    {
        if (!r.isMap(n, path))
            return;
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
                r.unsupported(*n.get("kind"), path + ".kind", kind,
                    { "switch", "bridge", "gpu", "nic", "fpga", "accelerator", "other" });
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
        if (!c.name.empty() && !yamlio::checkDnsLabel(c.name).empty())
            r.invalid(*n.get("name"), path + ".name", c.name, "must be a lowercase RFC 1123 label");
        if (c.kind == ComponentKind::RootComplex) {
            if (str(n, "bus", path + ".bus", c.busId, true)) {
                c.busId = lower(c.busId);
                if (!isRootBus(c.busId))
                    r.invalid(*n.get("bus"), path + ".bus", c.busId,
                        "must be a PCI domain:bus such as \"0000:15\"");
            }
            // Omitted when the capture does not say (nvidia-smi prints N/A).
            integer(n, "numaNode", path + ".numaNode", c.numaNode, 0, 1023);
        } else {
            if (str(n, "busID", path + ".busID", c.busId)) {
                c.busId = lower(c.busId);
                if (!isBdf(c.busId))
                    r.invalid(*n.get("busID"), path + ".busID", c.busId,
                        "must be a PCI address such as \"0000:18:00.0\"");
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
                r.required(n, path + ".busID");
        }
        const int self = int(shape.components.size());
        shape.components.push_back(c);
        positions.push_back(path);
        if (parent >= 0)
            shape.components[parent].children.push_back(self);
        if (const YamlNode* children = listField(n, "children", path + ".children"))
            r.items(*children, path + ".children",
                [&](const YamlNode& child, const std::string& cp) { readComponent(child, cp, self); });
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
                r.unsupported(*f.get("type"), path + ".type", fab.type, { "nvlink", "xgmi", "roce" });
        }
        integer(f, "generation", path + ".generation", fab.generation, 1, 10);
        str(f, "domain", path + ".domain", fab.domain);
        integer(f, "domainNodes", path + ".domainNodes", fab.domainNodes, 1, 1024);
        if (fab.domainNodes > 0 && fab.domain.empty())
            error(f.get("domainNodes")->pos, path + ".domain",
                "Required value: domainNodes needs the multi-node fabric's name");
        const YamlNode* devices = listField(f, "devices", path + ".devices");
        const YamlNode* pairs = listField(f, "pairs", path + ".pairs");
        if (devices && pairs) {
            error(f.pos, path,
                "Forbidden: give either devices (a switched fabric) or pairs (direct links), not both");
            return;
        }
        if (!devices && !pairs) {
            error(f.pos, path + ".devices",
                "Required value: a fabric needs devices (switched) or pairs (direct links)");
            return;
        }
        auto resolve = [&](const YamlNode& item, const std::string& p) {
            auto s = r.string(item, p);
            if (!s)
                return -1;
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
            r.items(*devices, path + ".devices", [&](const YamlNode& item, const std::string& ip) {
                const int idx = resolve(item, ip);
                if (idx >= 0 && !seen.insert(idx).second)
                    r.duplicate(item, ip, item.scalar);
                else if (idx >= 0)
                    fab.members.push_back(idx);
            });
        } else {
            fab.switched = false;
            for (size_t i = 0; i < pairs->items.size(); ++i) {
                const auto& pr = pairs->items[i];
                const std::string pp = path + ".pairs[" + std::to_string(i) + "]";
                if (!r.isMap(pr, pp))
                    continue;
                checkKeys(pr, pp, { "a", "b", "links" });
                Fabric::Pair p;
                const YamlNode* a = pr.get("a");
                const YamlNode* b = pr.get("b");
                if (!a || !b) {
                    r.required(pr, pp + (a ? ".b" : ".a"));
                    continue;
                }
                p.a = resolve(*a, pp + ".a");
                p.b = resolve(*b, pp + ".b");
                integer(pr, "links", pp + ".links", p.links, 1, 72);
                if (p.a >= 0 && p.a == p.b)
                    r.invalid(*b, pp + ".b", b->scalar, "a device cannot link to itself");
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
        shape.pos = doc.pos;
        const YamlNode* spec = yamlio::readDocumentHead(r, doc, kShapeApiVersion, "NodeShape");
        shape.name = r.name();
        if (!spec || !r.isMap(*spec, "spec"))
            return;
        checkKeys(*spec, "spec",
            { "description", "sources", "arch", "labels", "price", "powerWatts", "kubelet", "nvidia", "cpu",
                "models", "pcie", "fabrics", "observed" });
        readNodeFields(*spec);
        if (const YamlNode* cpu = mapField(*spec, "cpu", "spec.cpu"))
            readCpu(*cpu, "spec.cpu");
        else if (!spec->get("cpu") || spec->get("cpu")->isNull())
            r.required(*spec, "spec.cpu");
        if (const YamlNode* models = listField(*spec, "models", "spec.models"))
            r.items(*models, "spec.models", [&](const YamlNode& m, const std::string& mp) {
                if (r.isMap(m, mp))
                    readModel(m, mp);
            });
        if (const YamlNode* pcie = listField(*spec, "pcie", "spec.pcie"))
            r.items(*pcie, "spec.pcie",
                [&](const YamlNode& c, const std::string& cp) { readComponent(c, cp, -1); });
        // Fabrics refer to devices by name, so they are read after the PCIe tree.
        if (const YamlNode* fabrics = listField(*spec, "fabrics", "spec.fabrics"))
            r.items(*fabrics, "spec.fabrics", [&](const YamlNode& f, const std::string& fp) {
                if (r.isMap(f, fp))
                    readFabric(f, fp);
            });
        if (const YamlNode* observed = mapField(*spec, "observed", "spec.observed"))
            readObserved(*observed, "spec.observed");
    }

    // What the Node itself publishes: description, architecture, labels, price, kubelet, driver.
    void readNodeFields(const YamlNode& spec)
    {
        str(spec, "description", "spec.description", shape.description);
        shape.sources = stringList(spec, "sources", "spec.sources");
        if (str(spec, "arch", "spec.arch", shape.arch) && shape.arch != "amd64" && shape.arch != "arm64"
            && shape.arch != "ppc64le" && shape.arch != "s390x")
            r.unsupported(
                *spec.get("arch"), "spec.arch", shape.arch, { "amd64", "arm64", "ppc64le", "s390x" });
        if (const YamlNode* labels = mapField(spec, "labels", "spec.labels"))
            r.fields(*labels, "spec.labels",
                [&](const std::string& key, const YamlNode& v, const std::string& sub) {
                    if (auto value = r.string(v, sub))
                        shape.labels[key] = *value;
                    return true;
                });
        if (const YamlNode* price = mapField(spec, "price", "spec.price")) {
            checkKeys(*price, "spec.price", { "purchaseUSD", "perHourUSD" });
            number(*price, "purchaseUSD", "spec.price.purchaseUSD", shape.price.purchaseUsd);
            number(*price, "perHourUSD", "spec.price.perHourUSD", shape.price.perHourUsd);
        }
        integer(spec, "powerWatts", "spec.powerWatts", shape.powerWatts, 0, 1000000);
        if (const YamlNode* k = mapField(spec, "kubelet", "spec.kubelet")) {
            checkKeys(*k, "spec.kubelet", { "maxPods", "reservedCPU", "reservedMemory" });
            integer(*k, "maxPods", "spec.kubelet.maxPods", shape.maxPods, 1, 10000);
            quantity(*k, "reservedCPU", "spec.kubelet.reservedCPU", shape.reservedCpu);
            quantity(*k, "reservedMemory", "spec.kubelet.reservedMemory", shape.reservedMemory);
        }
        if (const YamlNode* nv = mapField(spec, "nvidia", "spec.nvidia")) {
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
                    r.unsupported(*nv->get("mig"), "spec.nvidia.mig", mig, { "none", "static", "dynamic" });
            }
        }
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
        r.items(*rows, path + ".rows", [&](const YamlNode& rowNode, const std::string& rp) {
            if (r.isMap(rowNode, rp))
                readObservedRow(rowNode, rp, rows->items.size());
        });
    }

    void readObservedRow(const YamlNode& n, const std::string& rp, size_t rowCount)
    {
        checkKeys(n, rp, { "device", "cells", "cpuAffinity", "numaAffinity" });
        ObservedMatrix::Row row;
        std::string device;
        if (str(n, "device", rp + ".device", device, true)) {
            row.component = shape.find(device);
            if (row.component < 0 || !isEndpoint(shape.components[row.component].kind))
                r.invalid(*n.get("device"), rp + ".device", device, "no device of that name in spec.pcie");
        }
        row.cells = stringList(n, "cells", rp + ".cells");
        if (row.cells.size() != rowCount)
            r.invalid(n, rp + ".cells", std::to_string(row.cells.size()) + " cells",
                "a row has one cell per row (" + std::to_string(rowCount) + ")");
        for (size_t k = 0; k < row.cells.size(); ++k)
            if (!parseDistanceLabel(row.cells[k]))
                r.error(*n.get("cells"), yamlio::indexPath(rp + ".cells", k),
                    "Unsupported value: \"" + row.cells[k]
                        + "\": supported values: \"X\", \"NV#\", \"PIX\", \"PXB\", \"PHB\", \"NODE\", "
                          "\"SYS\"");
        str(n, "cpuAffinity", rp + ".cpuAffinity", row.cpuAffinity);
        str(n, "numaAffinity", rp + ".numaAffinity", row.numaAffinity);
        shape.observed.rows.push_back(std::move(row));
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
        Reader r(diags);
        r.read(doc);
        if (!r.r.ok())
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
