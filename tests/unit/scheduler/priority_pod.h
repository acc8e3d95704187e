// SPDX-License-Identifier: Apache-2.0
#pragma once

// The pod the preemption tests place and evict: one container asking for `cpu`, at `priority`,
// bound to `nodeName` when given, a member of the PodGroup `group` when given.

#include <cstdint>
#include <string>

#include "tests/unit/allocator/fixtures.h"

namespace drasim::testing {

inline api::Pod priorityPod(const std::string& name, const std::string& cpu, int32_t priority,
    const std::string& nodeName = "", const std::string& group = "")
{
    api::Pod p = pod(name);
    p.spec.containers[0].resources.requests["cpu"] = q(cpu);
    p.spec.priority = priority;
    p.spec.nodeName = nodeName;
    if (!group.empty())
        p.spec.schedulingGroup = group;
    return p;
}

} // namespace drasim::testing
