// SPDX-License-Identifier: Apache-2.0
#pragma once

// What `drasim validate` checks, in one place the command and the GUI's manifest editor share:
// the loader's strict validation, then every CEL selector of classes, claims and templates
// compiled as the API server compiles new expressions, each failure located inside its manifest.

#include <string>
#include <string_view>
#include <vector>

#include "core/api/object_set.h"
#include "core/common/diagnostic.h"
#include "core/yamlio/loader.h"

namespace drasim::session {

/// Appends an error per selector that does not compile, at its position in the manifest.
/// `listTypes`: the feature gate DRAListTypeAttributes (derived attributes may be lists).
void compileSelectors(const api::ObjectSet& objects, Diagnostics& diags, bool listTypes = false);

/// Files, folders and "-", as `drasim validate` reads them.
yamlio::LoadResult validateManifestPaths(
    const std::vector<std::string>& paths, const yamlio::LoadOptions& options = {});
/// One in-memory stream of manifests (an editor's text); fileName is used in diagnostics.
yamlio::LoadResult validateManifestText(
    std::string_view text, const std::string& fileName, const yamlio::LoadOptions& options = {});

/// What an editor shows for one file: a Scenario document (detectTextKind) parsed as
/// `drasim simulate` reads it (objects stay empty), anything else validated as manifests.
yamlio::LoadResult validateText(std::string_view text, const std::string& fileName);

} // namespace drasim::session
