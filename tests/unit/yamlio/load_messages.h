// SPDX-License-Identifier: Apache-2.0
#pragma once

// The loader's diagnostics of one severity, one formatted line each, for tests that compare them
// whole.

#include <string>

#include "core/yamlio/loader.h"

namespace drasim::testing {

inline std::string loadMessages(const yamlio::LoadResult& r, Severity severity)
{
    std::string out;
    for (const auto& d : r.diagnostics.all())
        if (d.severity == severity)
            out += d.format() + "\n";
    return out;
}

} // namespace drasim::testing
