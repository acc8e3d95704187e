// SPDX-License-Identifier: Apache-2.0
#include "core/api/pod_defaults.h"

namespace drasim::api {

namespace {

void defaultContainer(Container& c)
{
    // try_emplace leaves an existing request alone: a request below its limit is the user's choice
    // for cpu and memory (validation rejects it for extended resources).
    for (const auto& [name, limit] : c.resources.limits)
        c.resources.requests.try_emplace(name, limit);
}

} // namespace

void defaultRequestsFromLimits(PodSpec& spec)
{
    for (Container& c : spec.containers)
        defaultContainer(c);
    for (Container& c : spec.initContainers)
        defaultContainer(c);
}

} // namespace drasim::api
