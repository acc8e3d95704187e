// SPDX-License-Identifier: Apache-2.0
#pragma once

// The one-shot scheduling of a manifest bundle at one Kubernetes version: what `drasim allocate`
// prints, what `drasim explain` explains and what the desktop shows for manifests opened without
// a scenario. One place, so the three cannot schedule differently.

#include <string>
#include <vector>

#include "core/api/feature_gates.h"
#include "core/api/object_set.h"
#include "core/common/data_value.h"
#include "core/scheduler/batch.h"
#include "core/scheduler/cluster.h"

namespace drasim::session {

/// `options` with what the version and gates decide of the scheduler's model: how a pod's
/// preemption treats its victims' PodGroups, the version's DRA rules, extended resources through
/// DRA and device compatibility groups.
scheduler::SchedulerOptions clusterOptionsFor(
    const api::FeatureGates& gates, scheduler::SchedulerOptions options);

/// Every pending pod of `objects` in input order, the pods of a PodGroup in one group cycle at the
/// first one's turn (scheduler::scheduleAllWithGroups with the gates' TopologyAwareWorkloadScheduling
/// and workload-aware preemption). `groups` is set to the PodGroups with the condition each cycle
/// left.
scheduler::BatchResult scheduleManifests(scheduler::Cluster& cluster, const api::ObjectSet& objects,
    const api::FeatureGates& gates, std::vector<api::PodGroup>& groups);

/// What `drasim allocate` prints before the claims and pods: the scheduling.k8s.io objects, each
/// in the API version it was read in (PriorityClasses, Workloads, CompositePodGroups), then the
/// PodGroups with the conditions scheduleManifests left (`groups`).
void appendSchedulingObjects(
    DataValue& items, const api::ObjectSet& objects, const std::vector<api::PodGroup>& groups);

/// As scheduleManifests up to the cycle that decides `podKey` ("namespace/name"), then its
/// explanation (scheduler::explainWithGroups).
scheduler::BatchResult explainManifestPod(scheduler::Cluster& cluster, const api::ObjectSet& objects,
    const api::FeatureGates& gates, const std::string& podKey);

} // namespace drasim::session
