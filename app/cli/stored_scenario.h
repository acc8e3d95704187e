// SPDX-License-Identifier: Apache-2.0
// A scenario saved in the store, named where a scenario file goes: store:NAME (its latest saved
// revision) or store:NAME@REVISION. It runs from a private copy of its folder, so every reader of
// scenario files works unchanged, and its messages name it as store:NAME@REVISION, not the copy.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "core/scenario/bundle_folder.h"
#include "core/scenario/scenario.h"

namespace drasim::cli {

/// True when `arg` names a saved scenario rather than a file (it starts with "store:").
bool namesStoredScenario(const std::string& arg);

/// Refuses a malformed store:NAME[@REVISION] (bad usage); files pass as they are.
CLI::Validator storedScenarioSyntax();

/// A saved revision written out for as long as this lives.
struct StoredScenario
{
    std::unique_ptr<scenario::BundleFolder> folder;
    std::string mainFile; ///< the Scenario (or Variant) document among the files
    std::string label; ///< "store:NAME@REVISION", the revision as found

    /// The main file in the copy, for the loader.
    std::string mainPath() const { return folder->path(mainFile); }
    /// Messages with the copy's paths written as the label's ("store:default@2/scenario.yaml").
    std::string relabel(const std::string& text) const { return folder->relabel(text, label); }
};

/// Reads the revision `arg` names from the store `db` (empty: the default one) into a private
/// folder. Errors are printed and give null: no such store, "scenario x is not in the store F",
/// "scenario x has no revision 4 (revisions 1-3)", a revision only run and never saved.
std::unique_ptr<StoredScenario> materializeStoredScenario(const std::string& arg, const std::string& db);

/// A saved scenario holds only the files under its folder: prints each path of `sc` that leads
/// out of it (what an export would need beside it), and returns false when there is any.
bool checkSelfContained(const StoredScenario& stored, const scenario::Scenario& sc);

} // namespace drasim::cli
