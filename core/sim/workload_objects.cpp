// SPDX-License-Identifier: Apache-2.0
#include "core/sim/workload_objects.h"

#include <optional>
#include <set>
#include <string>

namespace drasim::sim {

namespace {

/// Every template and claim the stream carries up to `duration`, each key once, first carried
/// first. nullopt on error (diagnostics) or cancel.
std::optional<WorkloadObjectsCache::Found> scanWorkloadObjects(
    const std::vector<workload::WorkloadSpec>& specs, uint64_t seed, SimTime duration,
    const api::FeatureGates& gates, const std::vector<api::PriorityClass>& priorityClasses,
    Diagnostics& diags, const CancelToken* cancel)
{
    const size_t errorsBefore = diags.errorCount();
    auto scan = workload::makeScenarioSource(specs, seed, gates, diags, priorityClasses);
    if (!scan)
        return std::nullopt;
    WorkloadObjectsCache::Found found;
    std::set<std::string> templateKeys, claimKeys;
    while (auto job = scan->next()) {
        if (fromSeconds(job->arrivalSeconds) > duration)
            break; // arrivals are ordered: nothing later is simulated
        for (auto& t : job->claimTemplates)
            if (templateKeys.insert(t.meta.key()).second)
                found.templates.push_back(std::move(t));
        // Pre-created (shared) ResourceClaims that workload pods name directly join the same way.
        for (auto& c : job->claims)
            if (claimKeys.insert(c.meta.key()).second)
                found.claims.push_back(std::move(c));
        countPodClaims(*job, found.podClaims);
        if (cancel && cancel->cancelled())
            return std::nullopt;
    }
    if (diags.errorCount() != errorsBefore)
        return std::nullopt;
    return found;
}

/// Adds what was found to `objects`, skipping the keys it has already.
void mergeWorkloadObjects(const WorkloadObjectsCache::Found& found, api::ObjectSet& objects)
{
    std::set<std::string> haveTemplates, haveClaims;
    for (const auto& t : objects.resourceClaimTemplates)
        haveTemplates.insert(t.meta.key());
    for (const auto& c : objects.resourceClaims)
        haveClaims.insert(c.meta.key());
    for (const auto& t : found.templates)
        if (!haveTemplates.count(t.meta.key()))
            objects.resourceClaimTemplates.push_back(t);
    for (const auto& c : found.claims)
        if (!haveClaims.count(c.meta.key()))
            objects.resourceClaims.push_back(c);
}

} // namespace

bool addWorkloadObjects(const std::vector<workload::WorkloadSpec>& specs, uint64_t seed, SimTime duration,
    const api::FeatureGates& gates, api::ObjectSet& objects, Diagnostics& diags, const CancelToken* cancel,
    PodClaimRefs* podClaims)
{
    auto found = scanWorkloadObjects(specs, seed, duration, gates, objects.priorityClasses, diags, cancel);
    if (!found)
        return false;
    mergeWorkloadObjects(*found, objects);
    if (podClaims)
        *podClaims = std::move(found->podClaims);
    return true;
}

bool WorkloadObjectsCache::addTo(const StreamKey& key, const std::vector<workload::WorkloadSpec>& specs,
    const api::FeatureGates& gates, api::ObjectSet& objects, Diagnostics& diags, const CancelToken* cancel,
    PodClaimRefs* podClaims)
{
    std::shared_ptr<const Found> found;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (auto it = m_found.find(key); it != m_found.end())
            found = it->second;
    }
    if (!found) {
        // Scanned outside the lock: two threads may scan one stream at once; both find the same.
        const size_t reportsBefore = diags.all().size();
        auto scanned = scanWorkloadObjects(
            specs, key.seed, key.duration, gates, objects.priorityClasses, diags, cancel);
        if (!scanned)
            return false;
        found = std::make_shared<const Found>(std::move(*scanned));
        if (diags.all().size() == reportsBefore) {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_found.emplace(key, found);
        }
    }
    mergeWorkloadObjects(*found, objects);
    if (podClaims)
        *podClaims = found->podClaims;
    return true;
}

} // namespace drasim::sim
