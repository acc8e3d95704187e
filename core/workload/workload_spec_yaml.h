// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reads the workload spec types (workload_spec.h) from the scenario file's YAML tree. Strict:
// unknown keys, wrong types and bad values are errors located at the offending node. Relative
// paths are resolved against `baseDir` (the scenario file's directory).

#include <optional>
#include <string>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/workload/workload_spec.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::workload {

/// One entry of `workloads:`.
std::optional<WorkloadSpec> parseWorkloadSpec(
    const yamlio::YamlNode& node, const std::string& baseDir, Diagnostics& diags);
/// The whole `workloads:` list; also checks that names are unique.
std::optional<std::vector<WorkloadSpec>> parseWorkloadList(
    const yamlio::YamlNode& node, const std::string& baseDir, Diagnostics& diags);
/// `arrival:` / `duration:` on their own (the simulator may reuse them). `owner` names the
/// workload in messages; `field` is the path of `node` ("arrival").
std::optional<ArrivalSpec> parseArrivalSpec(
    const yamlio::YamlNode& node, const std::string& owner, const std::string& field, Diagnostics& diags);
std::optional<DurationSpec> parseDurationSpec(const yamlio::YamlNode& node, const std::string& baseDir,
    const std::string& owner, const std::string& field, Diagnostics& diags);
/// The `trace:` map of a scenario's cluster section: {nodes, sharing, partitionsPerGpu}.
std::optional<TraceClusterSpec> parseTraceClusterSpec(
    const yamlio::YamlNode& node, const std::string& baseDir, Diagnostics& diags);

/// A YAML subtree as a DataValue (scalars typed by the YAML core schema).
DataValue yamlToDataValue(const yamlio::YamlNode& node);

/// Loads an empirical duration file: one time per line, blank lines and # comments ignored.
/// Errors are located at the file's line.
std::shared_ptr<const std::vector<double>> loadEmpiricalSamples(
    const std::string& path, Diagnostics& diags, const std::string& owner);

} // namespace drasim::workload
