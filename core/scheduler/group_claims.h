// SPDX-License-Identifier: Apache-2.0
#pragma once

// DRA ResourceClaims shared by a PodGroup (KEP-5729, gate DRAWorkloadResourceClaims: 1.36 alpha,
// 1.37 beta, off by default; workload-scheduling.md §4). A PodGroup lists claims in
// spec.resourceClaims; a member pod uses one only through an entry of its own spec.resourceClaims
// that equals the group's entry field by field. For a template entry the ResourceClaim controller
// makes one claim per PodGroup, owned by it; the scheduler allocates the claim for the first
// member it schedules and reserves it for the PodGroup as a whole (one reservedFor entry, however
// many members), so more than 256 pods can share it. The rules here are the parts the one-shot
// batch and the scheduling cycle share.

#include <string>
#include <vector>

#include "core/api/feature_gates.h"
#include "core/api/object_set.h"
#include "core/scheduler/cluster.h"

namespace drasim::scheduler {

/// What becomes of a pod's claim entry that matches an entry of its PodGroup.
enum class GroupClaimUse {
    /// Gate on: the group's claim, reserved for the PodGroup.
    Shared,
    /// 1.36 with the gate off: the controllers ignore the group's entry; the pod gets its own claim
    /// from the template, as any pod does.
    PerPod,
    /// 1.37 with the gate off: the claim controller creates no claim for a matching template entry
    /// (the beta's change, workload-scheduling.md §4), so the pod waits for one that never comes.
    NotCreated,
};
GroupClaimUse groupClaimUse(bool gateOn, api::KubernetesVersion version);

/// The PodGroup entry a pod's entry refers to: name, resourceClaimName and
/// resourceClaimTemplateName all equal (KEP-5729 "Pod"); null when none does, and the entry is an
/// ordinary per-pod claim.
const api::PodGroupResourceClaim* matchingGroupClaim(
    const api::PodResourceClaim& podEntry, const std::vector<api::PodGroupResourceClaim>& groupEntries);

/// The name of the claim made for a group's template entry: "<podgroup>-<entry>". Upstream's
/// controller asks the API server for generateName "<podgroup>-<entry>-" and a random suffix;
/// drasim leaves the suffix out, as it does for per-pod claims ("<pod>-<entry>").
std::string groupClaimName(const std::string& groupName, const std::string& entryName);

/// The claim a group's entry stands for: the one it names, or the one generated from its template.
std::string groupEntryClaimName(const std::string& groupName, const api::PodGroupResourceClaim& entry);

/// The name part of a "namespace/name" key.
std::string nameOfKey(const std::string& key);

/// status.reservedFor's entry for a PodGroup: {apiGroup scheduling.k8s.io, resource podgroups}.
api::ResourceClaimConsumerReference podGroupConsumer(const std::string& name, const std::string& uid);
bool isPodGroupConsumer(const api::ResourceClaimConsumerReference& ref, const std::string& name);

/// After a group cycle in a one-shot batch: the claims generated for the group's template entries
/// in the PodGroup's status.resourceClaimStatuses, and in the member's for each of its entries
/// that uses one (as the ResourceClaim controller records them). Nothing without the gate.
void recordGroupClaimStatuses(const Cluster& cluster, api::PodGroup& group, api::Pod& member);

/// The PodGroup `groupKey` (namespace/name) was deleted, as the Job controller does when its Job
/// ends: each claim of its entries loses the PodGroup's reservedFor entry and is deallocated once
/// nothing else reserves it (the ResourceClaim controller), and the claims generated for it are
/// deleted (the garbage collector, the PodGroup owning them). The scheduling queue hears of it as
/// of a pod whose claims were deallocated (takeChanges). Returns whether anything changed.
bool releaseGroupClaims(Cluster& cluster, const std::string& groupKey);

/// What explain says of a pending member's group claims: "" when it uses none.
std::string groupClaimsNote(const Cluster& cluster, const api::PodGroup& group, const api::Pod& member);

} // namespace drasim::scheduler
