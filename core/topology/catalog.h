// SPDX-License-Identifier: Apache-2.0
#pragma once

// The server catalog: every NodeShape under resources/hardware/*.yaml, looked up by name.

#include <string>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/topology/node_shape.h"

namespace drasim::topology {

class Catalog
{
public:
    /// Reads every *.yaml / *.yml file directly in dir (sorted by file name; subfolders such as
    /// deviceclasses/ are not shapes). Duplicate shape names are errors; the first one wins.
    static Catalog load(const std::string& dir, Diagnostics& diags);

    /// Where the catalog is looked for, in order: $DRASIM_HARDWARE_DIR, the installed catalog
    /// next to the executable (<prefix>/share/drasim/resources/hardware), then the source tree
    /// the program was built from (for programs run from a build folder).
    static std::vector<std::string> searchPath();
    /// The first directory of searchPath() that exists; empty when none does.
    static std::string defaultDirectory();

    const NodeShape* find(const std::string& name) const;
    /// Sorted by name.
    const std::vector<NodeShape>& shapes() const { return m_shapes; }
    std::vector<std::string> names() const;
    const std::string& directory() const { return m_dir; }

private:
    std::string m_dir;
    std::vector<NodeShape> m_shapes;
};

} // namespace drasim::topology
