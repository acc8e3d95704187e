// SPDX-License-Identifier: Apache-2.0
#include "core/sim/workload_objects.h"

#include <set>
#include <string>

namespace drasim::sim {

bool addWorkloadObjects(const std::vector<workload::WorkloadSpec>& specs, uint64_t seed, SimTime duration,
    const api::FeatureGates& gates, api::ObjectSet& objects, Diagnostics& diags, const CancelToken* cancel)
{
    const size_t errorsBefore = diags.errorCount();
    auto scan = workload::makeScenarioSource(specs, seed, gates, diags, objects.priorityClasses);
    if (!scan)
        return false;
    std::set<std::string> haveTemplates;
    for (const auto& t : objects.resourceClaimTemplates)
        haveTemplates.insert(t.meta.key());
    // Pre-created (shared) ResourceClaims that workload pods name directly join the same way.
    std::set<std::string> haveClaims;
    for (const auto& c : objects.resourceClaims)
        haveClaims.insert(c.meta.key());
    while (auto job = scan->next()) {
        if (fromSeconds(job->arrivalSeconds) > duration)
            break; // arrivals are ordered: nothing later is simulated
        for (auto& t : job->claimTemplates)
            if (haveTemplates.insert(t.meta.key()).second)
                objects.resourceClaimTemplates.push_back(std::move(t));
        for (auto& c : job->claims)
            if (haveClaims.insert(c.meta.key()).second)
                objects.resourceClaims.push_back(std::move(c));
        if (cancel && cancel->cancelled())
            return false;
    }
    return diags.errorCount() == errorsBefore;
}

} // namespace drasim::sim
