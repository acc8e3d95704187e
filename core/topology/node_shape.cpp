// SPDX-License-Identifier: Apache-2.0
#include "core/topology/node_shape.h"

#include <algorithm>
#include <set>

#include "core/topology/device_models.h"

namespace drasim::topology {

namespace {

struct KindName
{
    ComponentKind kind;
    const char* name;
};

constexpr KindName kKindNames[] = {
    { ComponentKind::RootComplex, "rootComplex" },
    { ComponentKind::Switch, "switch" },
    { ComponentKind::Bridge, "bridge" },
    { ComponentKind::Gpu, "gpu" },
    { ComponentKind::Nic, "nic" },
    { ComponentKind::Fpga, "fpga" },
    { ComponentKind::Accelerator, "accelerator" },
    { ComponentKind::Other, "other" },
};

} // namespace

const char* componentKindName(ComponentKind kind)
{
    for (const auto& k : kKindNames)
        if (k.kind == kind)
            return k.name;
    return "other";
}

std::optional<ComponentKind> componentKindFromName(const std::string& name)
{
    for (const auto& k : kKindNames)
        if (name == k.name)
            return k.kind;
    return std::nullopt;
}

bool isEndpoint(ComponentKind kind)
{
    return kind != ComponentKind::RootComplex && kind != ComponentKind::Switch
        && kind != ComponentKind::Bridge;
}

int NodeShape::find(const std::string& componentName) const
{
    for (size_t i = 0; i < components.size(); ++i)
        if (components[i].name == componentName)
            return int(i);
    return -1;
}

const DeviceModel* NodeShape::modelOf(const Component& c) const
{
    for (const auto& m : models)
        if (m.id == c.model)
            return &m;
    return findBuiltinModel(c.model);
}

int NodeShape::totalCores() const
{
    int n = 0;
    for (const auto& s : sockets)
        n += s.cores;
    return n;
}

Quantity NodeShape::totalMemory() const
{
    Quantity q = Quantity::fromInt(0, Quantity::Format::BinarySI);
    for (const auto& n : numaNodes)
        q = q.add(n.memory);
    return q;
}

bool NodeShape::memoryKnown() const
{
    return std::all_of(numaNodes.begin(), numaNodes.end(), [](const NumaNode& n) { return n.memoryKnown; });
}

int64_t NodeShape::logicalCpus() const
{
    const bool listed = !numaNodes.empty()
        && std::all_of(numaNodes.begin(), numaNodes.end(), [](const NumaNode& n) { return !n.cpus.empty(); });
    if (!listed)
        return int64_t(totalCores()) * std::max(1, threadsPerCore);
    std::set<int> ids;
    for (const auto& n : numaNodes)
        ids.insert(n.cpus.begin(), n.cpus.end());
    return int64_t(ids.size());
}

std::vector<int> NodeShape::devicesOfKind(ComponentKind kind) const
{
    std::vector<int> out;
    for (size_t i = 0; i < components.size(); ++i)
        if (components[i].kind == kind)
            out.push_back(int(i));
    std::stable_sort(
        out.begin(), out.end(), [this](int a, int b) { return components[a].index < components[b].index; });
    return out;
}

int NodeShape::rootOf(int component) const
{
    int c = component;
    // Bounded walk: a malformed parent cycle must not hang (the reader rejects cycles anyway).
    for (size_t guard = 0; c >= 0 && guard <= components.size(); ++guard) {
        if (components[c].kind == ComponentKind::RootComplex)
            return c;
        c = components[c].parent;
    }
    return -1;
}

int NodeShape::socketOfNuma(int numa) const
{
    for (const auto& n : numaNodes)
        if (n.id == numa)
            return n.socket;
    return -1;
}

} // namespace drasim::topology
