// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "core/topology/catalog.h"
#include "core/topology/shape_reader.h"

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

} // namespace drasim::topology::testing
