// SPDX-License-Identifier: Apache-2.0
#pragma once

// Every file a scenario names is looked at before any is read, so that a scenario naming several
// missing files reports them all at once, each at the field that names it:
//   scenario.yaml:14:9: Scenario default: spec.resources[1]: cannot read classes.yaml: No such file ...

#include <map>
#include <string>

#include "core/common/diagnostic.h"
#include "core/scenario/scenario.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::scenario {

/// Where each path of namedPaths(sc) is written in the document `root`, by field. A field the tree
/// does not spell out (a single path written for a list) is placed at the nearest node above it.
std::map<std::string, SourcePos> namedPathPositions(const Scenario& sc, const yamlio::YamlNode& root);

/// Why `path` cannot be opened for reading ("No such file or directory"); empty when it can.
std::string whyUnreadable(const std::string& path);

/// Reports each path of namedPaths(sc) that cannot be opened, at its field (sc.pathPositions);
/// false when there was one.
bool checkNamedFiles(const Scenario& sc, Diagnostics& diags);

} // namespace drasim::scenario
