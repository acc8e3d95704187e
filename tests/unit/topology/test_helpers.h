// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <stdexcept>
#include <string>

#include "core/topology/catalog.h"
#include "core/topology/shape_reader.h"
#include "core/topology/topology.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::topology::testing {

inline std::string hardwareDir()
{
    return std::string(DRASIM_SOURCE_DIR) + "/resources/hardware";
}

inline std::string dataDir()
{
    return std::string(DRASIM_SOURCE_DIR) + "/tests/data/topology";
}

/// The shipped catalog; loaded once per test binary.
inline const Catalog& catalog()
{
    static const Catalog c = [] {
        Diagnostics d;
        return Catalog::load(hardwareDir(), d);
    }();
    return c;
}

/// The text of tests/data/topology/<name>.
inline std::string read(const std::string& name)
{
    std::string text;
    if (!yamlio::readFile(dataDir() + "/" + name, text))
        throw std::runtime_error("missing test file " + name);
    return text;
}

/// The catalog's shape `name`.
inline const NodeShape& shape(const char* name)
{
    const NodeShape* s = catalog().find(name);
    if (!s)
        throw std::runtime_error(std::string("catalog shape missing: ") + name);
    return *s;
}

/// The distance class between devices `a` and `b` of `t`, as nvidia-smi topo -m labels it.
inline std::string label(const Topology& t, const char* a, const char* b)
{
    return t.distance(t.shape().find(a), t.shape().find(b)).label();
}

} // namespace drasim::topology::testing
