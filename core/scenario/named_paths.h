// SPDX-License-Identifier: Apache-2.0
#pragma once

// The files and folders a scenario names, as preparation will read them. A scenario saved in the
// store keeps only its own folder's files, so a run of a saved revision checks these first: a
// path that leaves the folder ("../") names a file the store does not have.

#include <string>
#include <vector>

#include "core/scenario/scenario.h"

namespace drasim::scenario {

struct NamedPath
{
    std::string field; ///< where the scenario names it ("spec.workloads[1].trace.path")
    std::string path; ///< joined onto the scenario's folder, not normalised; absolute ones as written
};

/// Every path of `sc`: the cluster's catalog, shapes, manifests and trace node list, the
/// resources, and each workload's manifests, trace, pipeline and empirical duration files.
/// A new path field of the Scenario or workload format belongs here too.
std::vector<NamedPath> namedPaths(const Scenario& sc);

/// The paths among namedPaths(sc) that lead out of `folder` (by their "../" steps, lexically).
/// The scenario's own folder counts too: a Variant whose base lies outside gives its base's file.
/// Absolute paths the scenario writes are not relative to any folder and are never listed.
std::vector<NamedPath> pathsOutside(const Scenario& sc, const std::string& folder);

} // namespace drasim::scenario
