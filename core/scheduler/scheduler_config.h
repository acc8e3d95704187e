// SPDX-License-Identifier: Apache-2.0
#pragma once

// A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) as kube-scheduler turns it into
// profiles: the document as read (ConfigDocument, filled by core/scenario's reader, which checks
// each value), then buildConfiguration, which applies upstream's defaults and plugin merging
// (pkg/scheduler/apis/config/v1/defaults.go and default_plugins.go, mergePlugins) and the
// framework's expansion of multiPoint into extension points and score weights
// (pkg/scheduler/framework/runtime/framework.go: expandMultiPointPlugins, getScoreWeights), with
// their errors, located where the file wrote the offending name.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/scheduler/plugin_registry.h"
#include "core/scheduler/scheduler_profile.h"

namespace drasim::scheduler {

inline constexpr const char* kSchedulerConfigApiVersion = "kubescheduler.config.k8s.io/v1";
inline constexpr const char* kSchedulerConfigKind = "KubeSchedulerConfiguration";

/// Where the file wrote something: for located messages.
struct ConfigSite
{
    SourcePos pos;
    std::string path; ///< "profiles[0].plugins.score.enabled[1]"
};

struct ConfigPlugin
{
    std::string name;
    std::optional<int32_t> weight;
    ConfigSite site;
};

struct ConfigPluginSet
{
    std::vector<ConfigPlugin> enabled;
    std::vector<ConfigPlugin> disabled;
    ConfigSite site; ///< where the file wrote the set (line 0: it did not)
};

struct ConfigPlugins
{
    ConfigPluginSet multiPoint;
    std::array<ConfigPluginSet, kExtensionPointCount> points; ///< by ExtensionPoint
};

/// A plugin named in the profile's pluginConfig, whose args drasim cannot honour (a note).
struct ConfigNote
{
    ConfigSite site;
    std::string message;
};

/// A pluginConfig entry as validateCommonQueueSort compares it: kube-scheduler keeps the args of a
/// plugin without an args type (PrioritySort's) undecoded, as the JSON text sigs.k8s.io/yaml makes
/// of the YAML value (runtime.Unknown's Raw).
struct ConfigPluginArgs
{
    std::string name;
    std::optional<std::string> json; ///< none when args are absent or null
    ConfigSite site; ///< the args value, or the entry when it has none
};

struct ConfigProfile
{
    ConfigSite site; ///< the profile's item
    std::optional<std::string> schedulerName;
    ConfigSite schedulerNameSite;
    std::optional<int32_t> percentageOfNodesToScore;
    ConfigPlugins plugins;
    std::vector<ConfigPluginArgs> pluginConfig; ///< every entry, in the file's order
    /// NodeResourcesFitArgs.scoringStrategy, checked and defaulted (null: LeastAllocated over
    /// cpu and memory, weight 1 each).
    FitStrategy fitStrategy = FitStrategy::LeastAllocated;
    std::shared_ptr<const FitScoring> fit;
    /// NodeResourcesBalancedAllocationArgs.resources, checked and defaulted; null: cpu and memory.
    std::shared_ptr<const FitScoring> balanced;
    /// DefaultPreemptionArgs, checked by the reader; unset: the defaults 10 and 100.
    std::optional<int32_t> minCandidateNodesPercentage;
    std::optional<int32_t> minCandidateNodesAbsolute;
    /// DynamicResourcesArgs.filterTimeout in seconds, when given.
    std::optional<double> filterTimeoutSeconds;
    ConfigSite filterTimeoutSite;
};

struct ConfigDocument
{
    ConfigSite site; ///< the document
    std::optional<int32_t> percentageOfNodesToScore;
    std::optional<int64_t> podInitialBackoffSeconds;
    ConfigSite podInitialBackoffSite;
    std::optional<int64_t> podMaxBackoffSeconds;
    ConfigSite podMaxBackoffSite;
    std::vector<ConfigProfile> profiles;
};

/// What a configuration sets, defaults applied.
struct SchedulerConfiguration
{
    std::vector<SchedulerProfile> profiles;
    int32_t percentageOfNodesToScore = 0;
    int64_t podInitialBackoffSeconds = 1;
    int64_t podMaxBackoffSeconds = 10;
    /// DynamicResourcesArgs.filterTimeout (one value for every profile); unset: the default 10 s.
    std::optional<double> filterTimeoutSeconds;
};

/// The configuration with every default applied; nullopt when something was reported as an
/// error to `diags` (warnings for plugins drasim accepts without acting on them).
std::optional<SchedulerConfiguration> buildConfiguration(const ConfigDocument& doc, Diagnostics& diags);

/// A configuration with nothing set: kube-scheduler's defaults (one default-scheduler profile).
SchedulerConfiguration defaultConfiguration();

} // namespace drasim::scheduler
