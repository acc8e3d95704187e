// SPDX-License-Identifier: Apache-2.0
#pragma once

// A scenario as a folder of YAML: its Scenario document (scenario.yaml) and every YAML file under
// the same folder (manifests, DeviceClasses, workload files), byte for byte. What `drasim
// scenarios import` saves as one revision and `export` writes back: writing a bundle and reading
// the folder again gives the same files and the same hash. Paths that leave the folder ("../")
// stay references; the files they name are not part of the bundle.

#include <optional>
#include <string>
#include <vector>

#include "core/common/diagnostic.h"

namespace drasim::scenario {

struct BundleFile
{
    std::string path; ///< relative to the folder, '/'-separated
    std::string content;
    bool operator==(const BundleFile&) const = default;
};

struct ScenarioBundle
{
    std::string name; ///< the Scenario's metadata.name
    std::string mainFile; ///< the Scenario document's path among the files
    std::vector<BundleFile> files; ///< by path
    std::string hash; ///< bundleHash(files, mainFile)
};

/// A bundle holds at most this many files and bytes (a folder is not a dump of a disk).
constexpr size_t kMaxBundleFiles = 1000;
constexpr size_t kMaxBundleBytes = 256u << 20;

/// Reads a folder (its scenario.yaml is the Scenario) or a scenario file (a Scenario or a Variant,
/// with the YAML files of its folder). The Scenario must parse; problems go to diags, located, and give
/// nullopt ("dir: no scenario.yaml in this folder", the Scenario's own errors, size limits).
std::optional<ScenarioBundle> readBundle(const std::string& path, Diagnostics& diags);

/// SHA-256 over the main file's name and every (path, bytes), in path order: equal exactly when
/// the files are equal.
std::string bundleHash(const std::vector<BundleFile>& files, const std::string& mainFile);

/// Writes the files under `folder`, creating it. Refuses a folder that exists and is not empty
/// (nothing is overwritten) and paths that would leave it. Returns false with `error` set.
bool writeBundle(const std::vector<BundleFile>& files, const std::string& folder, std::string& error);

} // namespace drasim::scenario
