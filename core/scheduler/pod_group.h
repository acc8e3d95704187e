// SPDX-License-Identifier: Apache-2.0
#pragma once

// A PodGroup as the scheduler's group cycle sees it (scheduling.k8s.io Workload/PodGroup, Kubernetes
// 1.36+): its policy, its topology constraint, and what one cycle for it decided.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/api/scheduling_v1.h"
#include "core/scheduler/cluster.h"

namespace drasim::scheduler {

/// The GangScheduling plugin's PreEnqueue status while fewer than minCount members exist (the same
/// words in 1.35, 1.36 and 1.37).
inline constexpr const char* kGangQuorumWaitMessage
    = "waiting for minCount pods from a gang to appear in scheduling queue";

struct PodGroupPolicy
{
    std::string key; ///< namespace/name of the PodGroup
    bool gang = false; ///< gang: all-or-nothing above minCount; basic: any number of pods may bind
    int32_t minCount = 1; ///< gang only
    /// schedulingConstraints.topology[0].key (a node label): every member lands on nodes that share
    /// one value of it. "" places on all nodes.
    std::string topologyKey;
    /// Workload-aware preemption (1.37 with GenericWorkload; 1.36 behind WorkloadAwarePreemption):
    /// a group that cannot be placed may evict lower-priority units cluster-wide, and the group's
    /// disruptionMode decides how others' preemption evicts it.
    bool workloadAwarePreemption = false;
    int32_t priority = 0; ///< spec.priority, resolved from priorityClassName at admission
    bool disruptAll = false; ///< disruptionMode all: evicted as one unit, never member by member
    bool preemptionNever = false; ///< spec.preemptionPolicy Never: the group never preempts
    /// A PodGroup of a CompositePodGroup hierarchy (KEP-6012), filled where the hierarchy is read
    /// (batch_hierarchies.cpp): the root's key, and the preemption unit its bound members belong
    /// to as victims. `unitKey` names the highest group on the path from the root down to this
    /// one (itself included) whose disruptionMode is all, "" when none is; `unitComposite` says
    /// that group is a CompositePodGroup. An `all` ancestor overrides its descendants' `single`
    /// (kubernetes/kubernetes#140634). Such a PodGroup's `priority` is its root's.
    std::string rootKey {};
    std::string unitKey {};
    bool unitComposite = false;
    /// spec.resourceClaims (gate DRAWorkloadResourceClaims, group_claims.h), and what the claims
    /// made for it and reserved for it name: the PodGroup's uid and apiVersion.
    std::vector<api::PodGroupResourceClaim> resourceClaims {};
    std::string uid {};
    std::string apiVersion = "scheduling.k8s.io/v1beta1";
};

struct GroupScheduleResult
{
    /// PlacementFeasible returned Success and at least one pod was placed: the placed members are
    /// bound. Otherwise nothing of the cycle was kept.
    bool scheduled = false;
    int32_t placed = 0;
    /// One per pod given, in that order. A member that fitted in a cycle that was dropped reads
    /// scheduled=false with the group's message.
    std::vector<ScheduleResult> members;
    /// Per member, when the cycle was dropped: whether the member fitted in it (it was assumed,
    /// then forgotten with the rest). Empty when the cycle was kept.
    std::vector<bool> fitted;
    /// The cycle was dropped because members had to preempt first (1.36 without workload-aware
    /// preemption: each member's own PostFilter ran inside the cycle); every member placed or
    /// preempting is nominated, and `members` name their nodes in `preemption`.
    bool waitingOnPreemption = false;
    /// Nominations the dropped cycle took back from members that fitted in it
    /// (GroupPreemption::clearFittedNominations).
    int32_t nominationsCleared = 0;
    /// Why the group was not scheduled, in the scheduler's words
    /// ("minCount (4) cannot be satisfied: 1 scheduled, 2 remaining").
    std::string message;
    /// The placement kept: "key=value" of the topology domain ("" without a constraint).
    std::string domain;
    /// Placements tried (topology domains; 1 without a constraint) and how many of them held.
    int32_t placementsTried = 0;
    int32_t placementsFeasible = 0;
    /// Workload-aware preemption after a failed cycle: the units evicted (their pods, most
    /// important unit first) and the PostFilter status; members that preemption made room for
    /// carry their nominated node in `members`. Unset when it was not tried.
    std::optional<PreemptionResult> preemption;
};

/// PlacementFeasible of the gang scheduling plugin (1.37): `scheduled` members are bound or
/// assumed, `remaining` still to try. Unschedulable when they can no longer reach minCount.
enum class Feasibility { Success, Wait, Unschedulable };
Feasibility placementFeasible(const PodGroupPolicy& group, int32_t scheduled, int32_t remaining);
std::string minCountMessage(const PodGroupPolicy& group, int32_t scheduled, int32_t remaining);

} // namespace drasim::scheduler
