// SPDX-License-Identifier: Apache-2.0
#include "core/topology/rack_layout.h"

#include "core/topology/slice_generator.h"

namespace drasim::topology {

namespace {

/// The multi-node NVLink fabric of the shape, or null.
const Fabric* nvlinkDomain(const NodeShape& shape)
{
    for (const auto& f : shape.fabrics)
        if (!f.domain.empty() && f.domainNodes > 0 && f.type == "nvlink")
            return &f;
    return nullptr;
}

std::string rackName(const std::string& prefix, int rack)
{
    return prefix + "-rack-" + std::to_string(rack);
}

std::string blockName(const std::string& prefix, int block)
{
    return prefix + "-block-" + std::to_string(block);
}

} // namespace

int nvlinkDomainNodes(const NodeShape& shape)
{
    const Fabric* f = nvlinkDomain(shape);
    return f ? f->domainNodes : 0;
}

int nodesPerRack(const NodeShape& shape, const RackLayout& layout)
{
    return layout.nodesPerRack > 0 ? layout.nodesPerRack : nvlinkDomainNodes(shape);
}

std::string rackLayoutError(
    const NodeShape& shape, const RackLayout& layout, const std::string& prefix, int count)
{
    const int domain = nvlinkDomainNodes(shape);
    if (domain > 0 && layout.nodesPerRack > 0 && layout.nodesPerRack != domain)
        return std::to_string(layout.nodesPerRack) + " nodes per rack: a rack of " + shape.name
            + " is its NVLink domain of " + std::to_string(domain) + " nodes; give " + std::to_string(domain)
            + " or leave it out";
    const int perRack = nodesPerRack(shape, layout);
    if (layout.racksPerBlock > 0 && perRack == 0)
        return "racks per block need nodes per rack: " + shape.name + " has no rack of its own";
    if (perRack == 0 || count <= 0)
        return "";
    // Label values are at most 63 characters (validation.IsValidLabelValue); the last rack and
    // block have the longest names.
    const int lastRack = (count - 1) / perRack;
    std::string longest = rackName(prefix, lastRack);
    if (layout.racksPerBlock > 0
        && blockName(prefix, lastRack / layout.racksPerBlock).size() > longest.size())
        longest = blockName(prefix, lastRack / layout.racksPerBlock);
    if (longest.size() > 63)
        return "rack name \"" + longest
            + "\" is longer than the 63 characters of a label value; use a shorter name prefix";
    return "";
}

void labelRackPosition(
    api::Node& node, const NodeShape& shape, const RackLayout& layout, const std::string& prefix, int index)
{
    const int perRack = nodesPerRack(shape, layout);
    if (perRack <= 0)
        return;
    const int rack = index / perRack;
    node.meta.labels[kRackLabel] = rackName(prefix, rack);
    if (layout.racksPerBlock > 0)
        node.meta.labels[kBlockLabel] = blockName(prefix, rack / layout.racksPerBlock);
    // All GPUs of one NVLink domain report the same fabric cluster UUID; the clique id names the
    // NVLink partition inside it (one per rack here: the whole domain, id 0). The UUID depends on
    // the pool as well, so two pools' first racks are two domains.
    if (const Fabric* f = nvlinkDomain(shape))
        node.meta.labels[kCliqueLabel]
            = deterministicUuid(prefix + "/" + f->domain, "rack-" + std::to_string(rack)) + ".0";
}

} // namespace drasim::topology
