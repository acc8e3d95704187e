// SPDX-License-Identifier: Apache-2.0
// Scenario bundles in and out of the run store, for the commands that save or read them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/scenario/scenario_bundle.h"
#include "core/storage/run_store.h"

namespace drasim::cli {

std::vector<storage::StoredFile> toStored(const std::vector<scenario::BundleFile>& files);
std::vector<scenario::BundleFile> toBundle(const std::vector<storage::StoredFile>& files);

/// The revision `wanted` of a scenario (0 = the latest saved one), or an error printed and nullopt:
/// "scenario x is not in the store FILE", "scenario x has no revision 4 (revisions 1-3)",
/// "scenario x revision 2 was only run, not saved: its files are not in the store".
std::optional<storage::ScenarioRevision> findSavedRevision(
    storage::RunStore& store, const std::string& name, int64_t wanted);

} // namespace drasim::cli
