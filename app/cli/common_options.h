// SPDX-License-Identifier: Apache-2.0
// Option values and option groups shared by the drasim commands, so that one option means the
// same thing, accepts the same text and words its errors the same way in every command.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/api/feature_gates.h"
#include "core/scheduler/cluster.h"
#include "core/scheduler/scheduler_config.h"
#include "core/topology/importers.h"

namespace drasim::cli {

/// A decimal whole number in [min, max]. CLI11's own conversion would read "010" as octal, "0x10"
/// as hexadecimal and "-1" as 2^64-1; this transform accepts digits only and hands CLI11 the
/// number without leading zeros. Errors read "--seed: 'abc' is not a whole number".
CLI::Validator wholeNumber(uint64_t min = 0, uint64_t max = std::numeric_limits<uint64_t>::max());

/// A number of seconds >= 0 (decimals allowed).
CLI::Validator nonNegativeSeconds();

/// One of a fixed set of words. Errors read "--mig: 'x' is not one of none, static, dynamic".
CLI::Validator oneOf(std::vector<std::string> words);

/// A scoring policy name (scheduler/scoring_profile.h), refused with the message scenarios give.
CLI::Validator scoringPolicy();

/// -o/--output FORMAT, one of `formats`; `description` states the default.
CLI::Option* addOutputOption(CLI::App& app, std::string& format, const std::vector<std::string>& formats,
    const std::string& description);

/// The "Scheduler options" group: --scoring, --seed, --step-budget, --timeout, bound to `options`.
/// Every command that schedules pods takes them, so `explain` can explain what `allocate` did.
void addSchedulerOptions(CLI::App& app, scheduler::SchedulerOptions& options);

/// --scheduler-config FILE: a KubeSchedulerConfiguration, as kube-scheduler's --config takes it.
/// It sets the profiles and percentageOfNodesToScore itself, so --scoring and
/// --percentage-of-nodes-to-score may not be given with it (a usage error). Call after
/// addSchedulerOptions.
void addSchedulerConfigOption(CLI::App& app, std::string& path);

/// Reads the --scheduler-config file; its diagnostics (warnings too) go to stderr. nullopt when
/// it has errors.
std::optional<scheduler::SchedulerConfiguration> readSchedulerConfigFile(const std::string& path);

/// The configuration applied to scheduler options: profiles, percentageOfNodesToScore and
/// DynamicResources' filterTimeout (when it sets one).
void applySchedulerConfig(
    const scheduler::SchedulerConfiguration& config, scheduler::SchedulerOptions& options);

/// `options` with the --scheduler-config file applied when one is given (readSchedulerConfigFile,
/// then applySchedulerConfig); nullopt when the file has errors (already printed).
std::optional<scheduler::SchedulerOptions> withSchedulerConfigFile(
    scheduler::SchedulerOptions options, const std::string& path);

/// --kubernetes-version and --feature-gates as given (empty when not).
struct ClusterVersionOptions
{
    std::string version; ///< "1.35", "1.36", "1.37"
    std::string featureGates; ///< kube-scheduler's spelling: Name=true,Other=false

    /// The gates the options select over `base` (a scenario's, or the 1.37 defaults): the version
    /// given replaces base's (its explicit gates carried over), then the flag's gates are set.
    /// nullopt with `error` set as pflag words it (`invalid argument "X=1" for "--feature-gates"
    /// flag: unrecognized feature gate: X`).
    std::optional<api::FeatureGates> over(const api::FeatureGates& base, std::string& error) const;
};

/// The "Cluster version options" group: --kubernetes-version, --feature-gates, for every command
/// that loads manifests or schedules. With checkAtParse they are checked against the 1.37
/// defaults once parsing is complete (a usage error); a command that combines them with a
/// scenario's settings checks them itself with over().
void addClusterVersionOptions(CLI::App& app, ClusterVersionOptions& options, bool checkAtParse = true);

/// The "Import options" group: what an nvidia-smi or hwloc capture does not say (--gpu-model,
/// --nic-model, --memory), for every command that reads a server from such a file.
void addImportOptions(CLI::App& app, topology::ImportOptions& options);

} // namespace drasim::cli
