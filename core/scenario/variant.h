// SPDX-License-Identifier: Apache-2.0
#pragma once

// A variant: a scenario derived from another by overrides, kept as such (the base file is not
// copied or edited). The document sits in the base's folder and names the base by path:
//
//   apiVersion: drasim.dev/v1alpha1
//   kind: Variant
//   metadata: {name: default-more-h100}
//   spec:
//     base: scenario.yaml                  # relative to this file
//     overrides:                           # applied in order; each item has one key
//       - addNodePool: {name: burst, shape: dgx-h100, count: 2, pricePerHour: 30}
//       - removeNodePool: l40s
//       - setNodePool: {name: h100, count: 6, shape: dgx-h200}   # count and/or shape
//       - scaleWorkload: {name: training, arrival: 1.5, duration: 0.8}   # factors (default 1)
//       - scheduling: {scoring: most-allocated}
//       - failure: {at: 6h, node: h100-0, for: 2h}   # NodeFailure, and NodeReturn after `for`
//
// Loading a variant loads its base and applies the overrides: the result is a Scenario named
// after the variant, with the base's folder for its relative paths, that runs like any other.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/scenario/scenario.h"

namespace drasim::scenario {

struct VariantOverride
{
    enum class Kind { AddNodePool, RemoveNodePool, SetNodePool, ScaleWorkload, Scheduling, Failure };
    Kind kind = Kind::AddNodePool;
    NodePoolSpec pool; ///< AddNodePool
    std::string name; ///< the pool (Remove/SetNodePool) or workload (ScaleWorkload) it names
    std::optional<int> count; ///< SetNodePool
    std::optional<std::string> shape; ///< SetNodePool
    double arrival = 1.0, duration = 1.0; ///< ScaleWorkload
    std::string scoring; ///< Scheduling
    SimTime at = 0; ///< Failure
    std::optional<SimTime> lasts; ///< Failure: `for`, when the node comes back
    std::string node; ///< Failure
    SourcePos pos;
    std::string path; ///< "spec.overrides[2].removeNodePool"
};

struct Variant
{
    std::string name;
    std::string file;
    std::string baseDir;
    std::string base; ///< the base scenario's path, as written
    std::vector<VariantOverride> overrides;
};

/// Whether the text's (first) document is `kind: Variant`.
bool isVariantText(std::string_view text);
/// Parses a Variant document; errors are `file:line:column: Variant <name>: field.path: message`.
std::optional<Variant> parseVariant(std::string_view text, const std::string& file, Diagnostics& diags);
/// Applies the overrides to the base, in order, and names it after the variant. An override that
/// names a pool or workload the base does not have (or adds one it has) is an error located at the
/// override. Returns false when there is any.
bool applyVariant(Scenario& base, const Variant& variant, Diagnostics& diags);
/// The scenario at `path`: a Scenario file, or a Variant applied to its base.
std::optional<Scenario> loadScenarioOrVariant(const std::string& path, Diagnostics& diags);

} // namespace drasim::scenario
