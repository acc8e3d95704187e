// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reads NodeShape documents (apiVersion drasim.dev/v1alpha1, kind NodeShape). Every problem is a
// Diagnostic `file:line:column: NodeShape <name>: spec.field.path: message`; a shape with errors
// is not returned.

#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/topology/node_shape.h"

namespace drasim::topology {

constexpr const char* kShapeApiVersion = "drasim.dev/v1alpha1";

/// All valid NodeShape documents of a YAML stream, in document order.
std::vector<NodeShape> readNodeShapes(std::string_view text, const std::string& fileName, Diagnostics& diags);

/// Reads a file ("-" = stdin); an unreadable file is one diagnostic.
std::vector<NodeShape> loadNodeShapeFile(const std::string& path, Diagnostics& diags);

/// Checks the cross references of a shape built in code or by an importer (parents, NUMA ids,
/// models, unique names, fabric members) and fills inherited NUMA nodes and device indices.
/// Returns false after reporting errors.
bool finalizeShape(NodeShape& shape, Diagnostics& diags);

} // namespace drasim::topology
