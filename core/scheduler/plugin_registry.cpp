// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/plugin_registry.h"

#include <array>

namespace drasim::scheduler {

namespace plugin_registry {

using E = ExtensionPoint;
using M = PluginModel;

constexpr uint32_t pts(std::initializer_list<ExtensionPoint> list)
{
    uint32_t bits = 0;
    for (ExtensionPoint p : list)
        bits |= pointBit(p);
    return bits;
}

struct PointNames
{
    const char* field;
    const char* interface;
};

constexpr std::array<PointNames, kExtensionPointCount> kPoints { {
    { "preFilter", "PreFilterPlugin" },
    { "filter", "FilterPlugin" },
    { "postFilter", "PostFilterPlugin" },
    { "reserve", "ReservePlugin" },
    { "preScore", "PreScorePlugin" },
    { "score", "ScorePlugin" },
    { "preBind", "PreBindPlugin" },
    { "bind", "BindPlugin" },
    { "postBind", "PostBindPlugin" },
    { "permit", "PermitPlugin" },
    { "preEnqueue", "PreEnqueuePlugin" },
    { "queueSort", "QueueSortPlugin" },
    { "placementGenerate", "PlacementGeneratePlugin" },
    { "placementScore", "PlacementScorePlugin" },
    { "placementFeasible", "PlacementFeasiblePlugin" },
    { "podGroupPostFilter", "PodGroupPostFilterPlugin" },
} };

} // namespace plugin_registry

const char* extensionPointField(ExtensionPoint p)
{
    return plugin_registry::kPoints[size_t(p)].field;
}

const char* extensionPointInterface(ExtensionPoint p)
{
    return plugin_registry::kPoints[size_t(p)].interface;
}

const std::vector<PluginEntry>& pluginRegistry()
{
    using namespace plugin_registry;
    // The extension points each plugin implements are those of its Go type in
    // pkg/scheduler/framework/plugins/<plugin>; weights from default_plugins.go.
    static const std::vector<PluginEntry> table {
        { "SchedulingGates", pts({ E::PreEnqueue }), true, 0, M::NoEffect, {}, {} },
        { "PrioritySort", pts({ E::QueueSort }), true, 0, M::NoEffect, {}, {} },
        { "NodeUnschedulable", pts({ E::Filter }), true, 0, M::Modelled, {},
            FilterPlugin::NodeUnschedulable },
        { "NodeName", pts({ E::Filter }), true, 0, M::NoEffect, {}, {} },
        { "TaintToleration", pts({ E::Filter, E::PreScore, E::Score }), true, 3, M::Modelled,
            ScorePlugin::TaintToleration, FilterPlugin::TaintToleration },
        { "NodeAffinity", pts({ E::PreFilter, E::Filter, E::PreScore, E::Score }), true, 2, M::Modelled,
            ScorePlugin::NodeAffinity, FilterPlugin::NodeAffinity },
        { "NodePorts", pts({ E::PreFilter, E::Filter }), true, 0, M::NoEffect, {}, {} },
        { "NodeResourcesFit", pts({ E::PreFilter, E::Filter, E::PreScore, E::Score, E::PlacementScore }),
            true, 1, M::Modelled, ScorePlugin::NodeResourcesFit, FilterPlugin::NodeResourcesFit },
        { "VolumeRestrictions", pts({ E::PreFilter, E::Filter }), true, 0, M::NoEffect, {}, {} },
        { "NodeVolumeLimits", pts({ E::PreFilter, E::Filter }), true, 0, M::NoEffect, {}, {} },
        { "VolumeBinding", pts({ E::PreFilter, E::Filter, E::Reserve, E::PreBind, E::PreScore, E::Score }),
            true, 0, M::NoEffect, {}, {} },
        { "VolumeZone", pts({ E::PreFilter, E::Filter }), true, 0, M::NoEffect, {}, {} },
        { "PodTopologySpread", pts({ E::PreFilter, E::Filter, E::PreScore, E::Score }), true, 2, M::Modelled,
            ScorePlugin::PodTopologySpread, FilterPlugin::PodTopologySpread },
        { "InterPodAffinity", pts({ E::PreFilter, E::Filter, E::PreScore, E::Score }), true, 2, M::Modelled,
            ScorePlugin::InterPodAffinity, FilterPlugin::InterPodAffinity },
        { "DynamicResources",
            pts({ E::PreEnqueue, E::PreFilter, E::Filter, E::PostFilter, E::PreScore, E::Score, E::Reserve,
                E::PreBind, E::PodGroupPostFilter }),
            true, 0, M::Modelled, ScorePlugin::DynamicResources, {} },
        { "DefaultPreemption", pts({ E::PreEnqueue, E::PostFilter, E::PodGroupPostFilter }), true, 0,
            M::Modelled, {}, {} },
        { "NodeResourcesBalancedAllocation", pts({ E::PreScore, E::Score }), true, 1, M::Modelled,
            ScorePlugin::NodeResourcesBalancedAllocation, {} },
        { "ImageLocality", pts({ E::Score }), true, 1, M::NoEffect, {}, {} },
        { "DefaultBinder", pts({ E::Bind }), true, 0, M::NoEffect, {}, {} },
        // The PodGroup cycle's placement plugins: TopologyPlacement makes one placement per value of
        // a group's topology key, PodGroupPodsCount scores a placement by the members it holds
        // (weight 1, as NodeResourcesFit's bin packing of it). Upstream enables them with
        // TopologyAwareWorkloadScheduling; drasim keeps them in the default profile, where they act
        // only on the groups that gate lets have a topology.
        { "TopologyPlacement", pts({ E::PlacementGenerate }), true, 0, M::Modelled, {}, {} },
        { "PodGroupPodsCount", pts({ E::PlacementScore }), true, 1, M::Modelled, {}, {} },
        // In-tree plugins outside the default profile.
        { "GangScheduling", pts({ E::PreEnqueue, E::Reserve, E::Permit, E::PlacementFeasible }), false, 0,
            M::NotModelled, {}, {} },
    };
    return table;
}

const PluginEntry* findPlugin(std::string_view name)
{
    for (const PluginEntry& p : pluginRegistry())
        if (name == p.name)
            return &p;
    return nullptr;
}

bool removedInV1(std::string_view name)
{
    return name == "AzureDiskLimits" || name == "CinderLimits" || name == "EBSLimits"
        || name == "GCEPDLimits";
}

} // namespace drasim::scheduler
