// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/node_taint_eviction.h"

#include <algorithm>
#include <limits>

#include "core/scheduler/node_filters.h"

namespace drasim::scheduler {

std::optional<double> noExecuteEvictionDelay(
    const std::vector<api::Taint>& nodeTaints, const std::vector<api::Toleration>& tolerations)
{
    // getMatchingTolerations: per NoExecute taint the first toleration that tolerates it; one
    // taint without any means eviction at once.
    std::vector<const api::Toleration*> used;
    bool any = false;
    for (const auto& taint : nodeTaints) {
        if (taint.effect != "NoExecute")
            continue;
        any = true;
        auto it = std::find_if(tolerations.begin(), tolerations.end(),
            [&](const api::Toleration& t) { return toleratesNodeTaint({ t }, taint); });
        if (it == tolerations.end())
            return 0.0;
        used.push_back(&*it);
    }
    if (!any)
        return std::nullopt;
    // getMinTolerationTime: tolerationSeconds <= 0 is at once, none at all is for ever.
    int64_t min = std::numeric_limits<int64_t>::max();
    for (const auto* t : used) {
        if (!t->tolerationSeconds)
            continue;
        if (*t->tolerationSeconds <= 0)
            return 0.0;
        min = std::min(min, *t->tolerationSeconds);
    }
    if (min == std::numeric_limits<int64_t>::max())
        return std::nullopt;
    return double(min);
}

} // namespace drasim::scheduler
