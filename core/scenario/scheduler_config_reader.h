// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reading a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) file as kube-scheduler's
// --config reads it: strict decoding (an unknown field is an error, located), each value checked
// with upstream's validation wording (pkg/scheduler/apis/config/validation), then defaults and
// plugin merging (core/scheduler/scheduler_config.h). Fields of kube-scheduler's process that
// do not change a placement (leaderElection, clientConnection, parallelism, ...) are accepted.

#include <optional>
#include <string>

#include "core/common/diagnostic.h"
#include "core/scheduler/scheduler_config.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::scenario {

/// The configuration of one document. `base` prefixes field paths ("spec.scheduler.config" for
/// one written inside a Scenario, "" for a file of its own).
std::optional<scheduler::SchedulerConfiguration> readSchedulerConfiguration(
    const yamlio::YamlNode& doc, const std::string& base, Diagnostics& diags);

/// The configuration of a file (kube-scheduler's --config FILE): exactly one document.
std::optional<scheduler::SchedulerConfiguration> loadSchedulerConfiguration(
    const std::string& path, Diagnostics& diags);

} // namespace drasim::scenario
