// SPDX-License-Identifier: Apache-2.0
#pragma once

// One-shot scheduling with PodGroups (scheduling.k8s.io, Kubernetes 1.36+), as `drasim allocate`
// does it: the pending pods of a PodGroup take one group cycle together, and the PodGroup's status
// says what that cycle decided, in kube-scheduler's words.

#include <string>
#include <vector>

#include "core/api/scheduling_v1.h"
#include "core/scheduler/batch.h"
#include "core/scheduler/pod_group.h"

namespace drasim::scheduler {

/// As scheduleAll, except that a pod whose spec.schedulingGroup names one of `groups` is scheduled,
/// when its turn comes in input order, in one group cycle with every other pending pod of that
/// group (members already bound count towards minCount). Each group that had a cycle gets the
/// condition setGroupScheduledCondition writes. `topologyAware`: gate
/// TopologyAwareWorkloadScheduling; `workloadAwarePreemption`: whether a group that cannot be
/// placed preempts (workloadAwarePreemptionEnabled of the gates).
/// `composites`: the CompositePodGroups (gate CompositePodGroup); a member of a PodGroup that names
/// a parent is then scheduled with its whole hierarchy (batch_hierarchies.h). Null: none.
BatchResult scheduleAllWithGroups(Cluster& cluster, const std::vector<api::Pod>& pods,
    std::vector<api::PodGroup>& groups, bool topologyAware, bool workloadAwarePreemption = false,
    const std::vector<api::CompositePodGroup>* composites = nullptr);

/// As scheduleAllWithGroups, up to the cycle that decides `explainPod` ("namespace/name"): its
/// own, or its group's. Then explainFound and diagnosis say what scheduleAll's explain says, and
/// for a member of a PodGroup the group decides first: a member its group's cycle left pending
/// gets the group's account in PodDiagnosis::group ("pod group default/train (gang, minCount 3):
/// last group cycle: ...", as a run's explain words it) and its own fit, node by node, on the
/// cluster as that cycle left it; a member the cycle bound reads scheduled on its node.
BatchResult explainWithGroups(Cluster& cluster, const std::vector<api::Pod>& pods,
    std::vector<api::PodGroup>& groups, bool topologyAware, bool workloadAwarePreemption,
    const std::string& explainPod, const std::vector<api::CompositePodGroup>* composites = nullptr);

/// The status condition kube-scheduler writes after a PodGroup's cycle: PodGroupScheduled
/// (v1alpha2, 1.36) or PodGroupInitiallyScheduled (1.37), True with reason Scheduled, or False with
/// reason Unschedulable and the cycle's message, followed by workload-aware preemption's
/// (", pod group preemption: ..."). A True condition is terminal and stays.
void setGroupScheduledCondition(api::PodGroup& group, const GroupScheduleResult& result);

} // namespace drasim::scheduler
