// SPDX-License-Identifier: Apache-2.0
#pragma once

// The queueing hints of PodTopologySpread and InterPodAffinity (Kubernetes 1.37): which assigned
// pods added or deleted, and which nodes added, updated or deleted, may make a pod those plugins
// rejected schedulable. They compare the changed object with the pending pod's constraints and
// terms, worked out once per pod (PlacementHintPod) for all the changes it is asked about.

#include <vector>

#include "core/api/core_v1.h"
#include "core/scheduler/pod_topology.h"

namespace drasim::scheduler {

struct ClusterChange;

/// What the two plugins' hints read of the pending pod.
struct PlacementHintPod
{
    explicit PlacementHintPod(const api::Pod& pod);
    /// Its namespace, labels and affinity terms (framework.GetAffinityTerms: no namespace
    /// selector resolved, as the hints match terms without namespace labels).
    PlacementPod self;
    /// PodTopologySpread.getConstraints: the DoNotSchedule constraints with matchLabelKeys
    /// merged (the system defaults are ScheduleAnyway, so a pod without constraints has none).
    std::vector<SpreadConstraint> hardSpread;
};

/// PodTopologySpread.isSchedulableAfterPodChange for an assigned pod added or deleted.
bool spreadQueuesAfterPodChange(const ClusterChange& change, const PlacementHintPod& pending);
/// PodTopologySpread.isSchedulableAfterNodeChange for a node added, updated or deleted.
bool spreadQueuesAfterNodeChange(const ClusterChange& change, const PlacementHintPod& pending);
/// InterPodAffinity.isSchedulableAfterNodeChange for a node added or with labels updated: the node
/// has the topology key of one of the pod's required affinity or anti-affinity terms
/// (interpodaffinity/plugin.go); a pod turned away only by running pods' anti-affinity is not
/// queued.
bool affinityQueuesAfterNodeChange(const ClusterChange& change, const PlacementHintPod& pending);
/// InterPodAffinity.isSchedulableAfterPodChange for an assigned pod added or deleted.
bool affinityQueuesAfterPodChange(const ClusterChange& change, const PlacementHintPod& pending);

} // namespace drasim::scheduler
