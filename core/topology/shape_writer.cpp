// SPDX-License-Identifier: Apache-2.0
#include "core/topology/shape_writer.h"

#include "core/topology/cpu_list.h"
#include "core/topology/shape_reader.h"

namespace drasim::topology {

namespace {

DataValue component(const NodeShape& shape, int i)
{
    const Component& c = shape.components[i];
    DataValue m = DataValue::map();
    if (c.kind != ComponentKind::RootComplex)
        m.set("kind", componentKindName(c.kind));
    m.set("name", c.name);
    if (c.kind == ComponentKind::RootComplex) {
        m.set("bus", c.busId);
        if (c.numaNode >= 0)
            m.set("numaNode", c.numaNode);
    } else {
        if (isEndpoint(c.kind) && !c.model.empty())
            m.set("model", c.model);
        if (!c.busId.empty())
            m.set("busID", c.busId);
        if (isEndpoint(c.kind))
            m.set("index", c.index);
        // Written only where it differs from the root complex's (an import that knows better).
        const int root = shape.rootOf(i);
        if (isEndpoint(c.kind) && c.numaNode >= 0
            && (root < 0 || shape.components[root].numaNode != c.numaNode))
            m.set("numaNode", c.numaNode);
        if (c.link.generation > 0 || c.link.width > 0) {
            DataValue link = DataValue::map();
            if (c.link.generation > 0)
                link.set("generation", c.link.generation);
            if (c.link.width > 0)
                link.set("width", c.link.width);
            m.set("link", link);
        }
        if (!c.ifName.empty())
            m.set("ifName", c.ifName);
        if (!c.rdmaDevice.empty())
            m.set("rdmaDevice", c.rdmaDevice);
        if (!c.mac.empty())
            m.set("mac", c.mac);
        if (c.primary)
            m.set("primary", true);
        if (!c.migLayout.empty()) {
            DataValue l = DataValue::list();
            for (const auto& p : c.migLayout)
                l.push(p);
            m.set("migLayout", l);
        }
    }
    if (!c.children.empty()) {
        DataValue kids = DataValue::list();
        for (int k : c.children)
            kids.push(component(shape, k));
        m.set("children", kids);
    }
    return m;
}

DataValue model(const DeviceModel& d)
{
    DataValue m = DataValue::map();
    m.set("id", d.id);
    m.set("kind", componentKindName(d.kind));
    m.set("driver", d.vendorDriver);
    auto opt = [&](const char* key, const std::string& v) {
        if (!v.empty())
            m.set(key, v);
    };
    opt("productName", d.productName);
    opt("brand", d.brand);
    opt("architecture", d.architecture);
    opt("computeCapability", d.computeCapability);
    opt("pciVendorID", d.pciVendorId);
    opt("pciDeviceID", d.pciDeviceId);
    if (d.memory)
        m.set("memory", d.memory->toString());
    if (d.powerWatts)
        m.set("powerWatts", d.powerWatts);
    if (d.speedGbps)
        m.set("speedGbps", d.speedGbps);
    if (d.kind == ComponentKind::Nic)
        m.set("rdma", d.rdma);
    opt("pciDeviceName", d.pciDeviceName);
    opt("encapsulation", d.encapsulation);
    opt("board", d.board);
    opt("shell", d.shell);
    if (d.computeUnits)
        m.set("computeUnits", d.computeUnits);
    if (d.simdUnits)
        m.set("simdUnits", d.simdUnits);
    return m;
}

DataValue observed(const NodeShape& shape)
{
    DataValue o = DataValue::map();
    o.set("treeApproximate", shape.observed.treeApproximate);
    DataValue rows = DataValue::list();
    for (const auto& r : shape.observed.rows) {
        DataValue row = DataValue::map();
        row.set("device", shape.components[r.component].name);
        DataValue cells = DataValue::list();
        for (const auto& c : r.cells)
            cells.push(c);
        row.set("cells", cells);
        if (!r.cpuAffinity.empty())
            row.set("cpuAffinity", r.cpuAffinity);
        if (!r.numaAffinity.empty())
            row.set("numaAffinity", r.numaAffinity);
        rows.push(row);
    }
    o.set("rows", rows);
    return o;
}

} // namespace

DataValue shapeToData(const NodeShape& shape)
{
    DataValue doc = DataValue::map();
    doc.set("apiVersion", kShapeApiVersion);
    doc.set("kind", "NodeShape");
    DataValue meta = DataValue::map();
    meta.set("name", shape.name);
    doc.set("metadata", meta);
    DataValue spec = DataValue::map();
    if (!shape.description.empty())
        spec.set("description", shape.description);
    if (!shape.sources.empty()) {
        DataValue l = DataValue::list();
        for (const auto& s : shape.sources)
            l.push(s);
        spec.set("sources", l);
    }
    spec.set("arch", shape.arch);
    if (!shape.labels.empty()) {
        DataValue l = DataValue::map();
        for (const auto& [k, v] : shape.labels)
            l.set(k, v);
        spec.set("labels", l);
    }
    if (shape.price.purchaseUsd > 0 || shape.price.perHourUsd > 0) {
        DataValue p = DataValue::map();
        p.set("purchaseUSD", shape.price.purchaseUsd);
        p.set("perHourUSD", shape.price.perHourUsd);
        spec.set("price", p);
    }
    if (shape.powerWatts > 0)
        spec.set("powerWatts", shape.powerWatts);
    DataValue kubelet = DataValue::map();
    kubelet.set("maxPods", shape.maxPods);
    kubelet.set("reservedCPU", shape.reservedCpu.toString());
    kubelet.set("reservedMemory", shape.reservedMemory.toString());
    spec.set("kubelet", kubelet);
    DataValue nv = DataValue::map();
    nv.set("driverVersion", shape.nvidia.driverVersion);
    nv.set("cudaDriverVersion", shape.nvidia.cudaDriverVersion);
    nv.set("mig",
        shape.nvidia.mig == MigMode::None         ? "none"
            : shape.nvidia.mig == MigMode::Static ? "static"
                                                  : "dynamic");
    spec.set("nvidia", nv);
    DataValue cpu = DataValue::map();
    cpu.set("threadsPerCore", shape.threadsPerCore);
    if (!shape.interSocketLink.empty())
        cpu.set("interconnect", shape.interSocketLink);
    DataValue sockets = DataValue::list();
    for (const auto& s : shape.sockets) {
        DataValue sock = DataValue::map();
        if (!s.model.empty())
            sock.set("model", s.model);
        DataValue numas = DataValue::list();
        for (const auto& n : shape.numaNodes) {
            if (n.socket != s.id)
                continue;
            DataValue nn = DataValue::map();
            nn.set("id", n.id);
            nn.set("cores", n.cores);
            if (n.memoryKnown)
                nn.set("memory", n.memory.toString());
            if (!n.cpus.empty())
                nn.set("cpus", formatCpuList(n.cpus));
            numas.push(nn);
        }
        sock.set("numaNodes", numas);
        sockets.push(sock);
    }
    cpu.set("sockets", sockets);
    spec.set("cpu", cpu);
    if (!shape.models.empty()) {
        DataValue models = DataValue::list();
        for (const auto& m : shape.models)
            models.push(model(m));
        spec.set("models", models);
    }
    DataValue pcie = DataValue::list();
    for (size_t i = 0; i < shape.components.size(); ++i)
        if (shape.components[i].kind == ComponentKind::RootComplex)
            pcie.push(component(shape, int(i)));
    spec.set("pcie", pcie);
    if (!shape.fabrics.empty()) {
        DataValue fabrics = DataValue::list();
        for (const auto& f : shape.fabrics) {
            DataValue fd = DataValue::map();
            fd.set("name", f.name);
            fd.set("type", f.type);
            if (f.generation > 0)
                fd.set("generation", f.generation);
            if (!f.domain.empty())
                fd.set("domain", f.domain);
            if (f.domainNodes > 0)
                fd.set("domainNodes", f.domainNodes);
            if (f.switched) {
                fd.set("linksPerDevice", f.linksPerDevice);
                DataValue devs = DataValue::list();
                for (int m : f.members)
                    devs.push(shape.components[m].name);
                fd.set("devices", devs);
            } else {
                DataValue pairs = DataValue::list();
                for (const auto& p : f.pairs) {
                    DataValue pd = DataValue::map();
                    pd.set("a", shape.components[p.a].name);
                    pd.set("b", shape.components[p.b].name);
                    pd.set("links", p.links);
                    pairs.push(pd);
                }
                fd.set("pairs", pairs);
            }
            fabrics.push(fd);
        }
        spec.set("fabrics", fabrics);
    }
    if (!shape.observed.empty())
        spec.set("observed", observed(shape));
    doc.set("spec", spec);
    return doc;
}

std::string shapeToYaml(const NodeShape& shape)
{
    return toYaml(shapeToData(shape));
}

} // namespace drasim::topology
