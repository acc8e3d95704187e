// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>

namespace drasim::scheduler {

/// Deterministic UUIDs for shareIDs: the n-th id of a seed is always the same, so two runs with
/// the same input and seed print identical allocations. Shaped as random (version 4) UUIDs.
class ShareIdGenerator
{
public:
    explicit ShareIdGenerator(uint64_t seed = 0)
        : m_seed(seed)
    { }
    std::string next();

private:
    uint64_t m_seed;
    uint64_t m_counter = 0;
};

/// RFC 3339 UTC time ("2025-01-01T00:00:00Z") for seconds since the epoch.
std::string formatRfc3339(double seconds);

} // namespace drasim::scheduler
