// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pod events written by hand for the service level tests: each pod name gets its own serial, as
// the simulator numbers the pods it creates.
#include <cstdint>
#include <map>
#include <string>

namespace drasim::planner::test {

inline uint64_t serialOf(const std::string& pod)
{
    static std::map<std::string, uint64_t> serials;
    return serials.emplace(pod, serials.size() + 1).first->second;
}

} // namespace drasim::planner::test
