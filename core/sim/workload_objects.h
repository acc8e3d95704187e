// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "core/api/object_set.h"
#include "core/common/diagnostic.h"
#include "core/common/progress.h"
#include "core/sim/sim_time.h"
#include "core/sim/workload_claims.h"
#include "core/workload/workload_spec.h"

namespace drasim::sim {

/// Adds to `objects` the ResourceClaimTemplates and pre-created ResourceClaims that the workload
/// stream of (specs, seed) carries with its jobs up to `duration`, skipping those already present.
/// scheduler::Cluster takes its templates at construction while the stream only carries them with
/// the jobs ("ensure it exists"); streams are deterministic, so a first pass over an identical
/// stream collects them without holding the jobs in memory. False on error (diagnostics) or cancel.
/// The same pass counts the stream's pods by the claims they name into `podClaims` (when given).
bool addWorkloadObjects(const std::vector<workload::WorkloadSpec>& specs, uint64_t seed, SimTime duration,
    const api::FeatureGates& gates, api::ObjectSet& objects, Diagnostics& diags,
    const CancelToken* cancel = nullptr, PodClaimRefs* podClaims = nullptr);

/// What the scans of addWorkloadObjects found for one stream, kept for the runs that stream it
/// again. The planner runs every mix of a study with the same few (seed, load) streams: hundreds
/// of runs, a dozen distinct streams. Only for runs of one scenario's workloads, feature gates
/// and duration (what a study varies is the node pools); thread-safe.
class WorkloadObjectsCache
{
public:
    struct StreamKey
    {
        uint64_t seed = 0;
        double arrivalScale = 1.0;
        double durationScale = 1.0;
        SimTime duration = 0;
        bool growthAddsJobs = false;
        bool operator<(const StreamKey& o) const
        {
            return std::tie(seed, arrivalScale, durationScale, duration, growthAddsJobs)
                < std::tie(o.seed, o.arrivalScale, o.durationScale, o.duration, o.growthAddsJobs);
        }
    };
    /// The templates and claims of a stream, each key once, in the order the stream first
    /// carries them.
    struct Found
    {
        std::vector<api::ResourceClaimTemplate> templates;
        std::vector<api::ResourceClaim> claims;
        PodClaimRefs podClaims; ///< the stream's pods by the claims they name
    };

    /// addWorkloadObjects, with the scan of a stream already scanned taken from here. A scan that
    /// reported anything (an error, a warning) or was cancelled is not kept: its reports come
    /// back with every run.
    bool addTo(const StreamKey& key, const std::vector<workload::WorkloadSpec>& specs,
        const api::FeatureGates& gates, api::ObjectSet& objects, Diagnostics& diags,
        const CancelToken* cancel, PodClaimRefs* podClaims = nullptr);

private:
    std::mutex m_mutex;
    std::map<StreamKey, std::shared_ptr<const Found>> m_found;
};

} // namespace drasim::sim
