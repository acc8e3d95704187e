// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace drasim::session {

/// What a path the user opened holds.
enum class InputKind {
    Manifests, ///< Kubernetes objects: files, folders, stdin ("-")
    Scenario, ///< a drasim Scenario document (core/scenario)
};

/// "manifests" or "scenario".
const char* inputKindName(InputKind kind);

/// A regular file whose first 64 KiB hold a top-level `kind: Scenario` line is a Scenario;
/// everything else (folders, stdin, unreadable paths, manifests) is Manifests, and the manifest
/// loader reports what is wrong with it.
InputKind detectInputKind(const std::string& path);
/// The same test on text already read (an editor's buffer): all of it is looked at.
InputKind detectTextKind(std::string_view text);

/// Whether a regular file's first 64 KiB hold a top-level `kind: <kind>` line (e.g. "Study", which
/// the desktop application opens in its Plan tab). False for folders, stdin and unreadable paths.
bool hasTopLevelKind(const std::string& path, std::string_view kind);

} // namespace drasim::session
