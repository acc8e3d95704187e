// SPDX-License-Identifier: Apache-2.0
#pragma once

// kube-scheduler's in-tree plugins as a KubeSchedulerConfiguration names them: one table entry per
// plugin with the extension points it implements, its weight in the default profile, and what
// drasim runs for it (a score term, a node filter, or nothing). scheduler_config.cpp builds the
// profiles from this table alone, so a plugin drasim comes to model is one edited entry here
// (plus its hooks in node_filters.h / scoring.h).

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/scheduler/scheduler_profile.h"
#include "core/scheduler/scoring_profile.h"

namespace drasim::scheduler {

/// The extension points of a profile's `plugins`, in the order kube-scheduler's framework
/// initialises them (framework/runtime/framework.go, getExtensionPoints), which decides which
/// error a bad multiPoint entry gets first; the PodGroup cycle's points come last.
enum class ExtensionPoint : uint8_t {
    PreFilter,
    Filter,
    PostFilter,
    Reserve,
    PreScore,
    Score,
    PreBind,
    Bind,
    PostBind,
    Permit,
    PreEnqueue,
    QueueSort,
    // The PodGroup cycle's points (Kubernetes 1.36+; kube-scheduler/config/v1 Plugins).
    PlacementGenerate,
    PlacementScore,
    PlacementFeasible,
    PodGroupPostFilter,
};
inline constexpr size_t kExtensionPointCount = 16;
inline constexpr uint32_t pointBit(ExtensionPoint p)
{
    return uint32_t(1) << unsigned(p);
}
/// "preFilter", ...: the field name in `plugins`.
const char* extensionPointField(ExtensionPoint p);
/// "PreFilterPlugin", ...: the framework's interface name, as its errors print it.
const char* extensionPointInterface(ExtensionPoint p);

/// How drasim treats a plugin.
enum class PluginModel : uint8_t {
    Modelled, ///< runs: its score term and/or node filter below, or its PostFilter
    /// Has nothing to act on in a simulated cluster (no images, volumes, ports, gates): enabling,
    /// disabling or weighting it cannot change a result. Accepted with a warning.
    NoEffect,
    /// Upstream acts on something drasim does not model yet; accepted with a warning that the
    /// setting is not honoured.
    NotModelled,
};

struct PluginEntry
{
    const char* name;
    uint32_t points; ///< the extension points it implements (pointBit)
    /// Whether default_plugins.go enables it (multiPoint) and with which weight (0: none given,
    /// which the framework scores as 1).
    bool inDefaultProfile;
    int32_t defaultWeight;
    PluginModel model;
    std::optional<ScorePlugin> score; ///< the score term drasim runs for it
    std::optional<FilterPlugin> filter; ///< the node filter drasim runs for it
};

/// Every plugin, in the default profile's order (pkg/scheduler/apis/config/v1/default_plugins.go,
/// DynamicResources before DefaultPreemption as applyFeatureGates places it), then the in-tree
/// plugins the default profile leaves out.
const std::vector<PluginEntry>& pluginRegistry();
const PluginEntry* findPlugin(std::string_view name);

/// Plugins v1 configurations may not name any more (validation.go, invalidPluginsByVersion).
bool removedInV1(std::string_view name);

} // namespace drasim::scheduler
