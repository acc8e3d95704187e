// SPDX-License-Identifier: Apache-2.0
#pragma once

// The claims of a workload stream as the claim measure (gpushare/claim_fragmentation.h) needs
// them: how many pods of the stream ask for what devices. Counted while the stream is scanned for
// its templates (workload_objects.h), resolved once the templates are known.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/api/object_set.h"
#include "core/gpushare/claim_fragmentation.h"
#include "core/gpushare/claim_shape.h"
#include "core/workload/workload.h"

namespace drasim::sim {

/// Pods by the claims they name: each pod's sorted list of "template:NS/NAME" and
/// "claim:NS/NAME" entries (empty for a pod without claims).
using PodClaimRefs = std::map<std::vector<std::string>, int64_t>;

/// Adds the pods a job creates when nothing fails: `completions` of a job, `parallelism` of a
/// service, one per task of a pipeline run.
void countPodClaims(const workload::JobSpec& job, PodClaimRefs& into);

/// The pods as device counts per DeviceClass, the names resolved against `objects`' templates and
/// claims. A request counts its ExactCount devices (of its first subrequest under
/// firstAvailable); requests for all devices of a class, requests with a capacity request
/// (consumable capacity: not modelled) and names that resolve to nothing add no device.
std::map<gpushare::DeviceCounts, int64_t> podClaimShapes(
    const PodClaimRefs& pods, const api::ObjectSet& objects);

/// The pods as their claims' requests (scheduler::addClaimRequests, gpushare/claim_shape.h), the
/// names resolved as podClaimShapes resolves them.
std::map<gpushare::ClaimShape, int64_t> podClaimRequests(
    const PodClaimRefs& pods, const api::ObjectSet& objects);

/// Whether a slice of `objects` publishes a partition (a device that consumes shared counters) or
/// a device that allows multiple allocations.
bool publishesPartitionsOrShares(const api::ObjectSet& objects);

/// The claim measure's target for the pods (gpushare::claimTargetOf of their requests: the
/// whole-device measure when every request is plain, else the general one); requests' selectors
/// are read only when the slices of `objects` publish partitions or shareable devices. Null when
/// no pod asks for a device.
std::shared_ptr<const gpushare::ClaimTarget> workloadClaimTarget(
    const PodClaimRefs& pods, const api::ObjectSet& objects);

} // namespace drasim::sim
