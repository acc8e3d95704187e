// SPDX-License-Identifier: Apache-2.0
// The seed and case count of a randomized law test, overridable from the environment so a failure
// reproduces alone (DRASIM_CEL_SEED=... DRASIM_CEL_CASES=1 and the like).
#pragma once

#include <cstdint>
#include <cstdlib>

namespace drasim::test_support {

/// The number in environment variable `name`, or `fallback` when it is unset.
inline uint64_t envNumber(const char* name, uint64_t fallback)
{
    const char* v = std::getenv(name);
    return v ? std::strtoull(v, nullptr, 10) : fallback;
}

} // namespace drasim::test_support
