// SPDX-License-Identifier: Apache-2.0
#pragma once

// One-shot scheduling with Kubernetes 1.35's gangs (gates GenericWorkload and GangScheduling), as
// `drasim allocate` and `explain` do it: a pod whose spec.workloadRef names a gang podGroup of a
// v1alpha1 Workload is scheduled in its own cycle and waits at Permit (permit.h).

#include <string>
#include <vector>

#include "core/api/scheduling_v1.h"
#include "core/scheduler/batch.h"

namespace drasim::scheduler {

/// Whether any pod names a gang through spec.workloadRef (1.35): then scheduleAllWithPermitGangs
/// decides them; otherwise scheduleAll's result is the same.
bool hasWorkloadRefs(const std::vector<api::Pod>& pods);

/// As scheduleAll, in input order, with 1.35's gang plugin:
///  - PreEnqueue: a member of a gang whose Workload is missing, whose podGroup the Workload does not
///    list, or whose (workload, podGroup, replica key) has fewer than minCount pods stays pending
///    with the plugin's message, untried. A basic podGroup's pods are plain pods.
///  - A member that Reserve placed waits at Permit (assumed: it holds its node and devices, later
///    pods cannot use them) until assumed and bound members reach minCount; then all bind.
///  - When every pending pod has had its turn, the 5-minute deadline of each gang still short of
///    quorum passes: its waiting members are rejected and unreserved, and nothing of it binds.
///    The room that frees is then offered again to the pods that failed before (the unreserve is
///    an assigned pod's deletion to the queue), except the members of the gangs that timed out:
///    those wait in the unschedulable queue for the flush, and their next round would repeat this
///    one. Rounds continue while a deadline frees room.
/// With explainPod, the pod's diagnosis is taken on the cluster the rounds leave; for a member of
/// a gang, PodDiagnosis::group says what its gang went through.
BatchResult scheduleAllWithPermitGangs(Cluster& cluster, const std::vector<api::Pod>& pods,
    const std::vector<api::Workload>& workloads, const std::string& explainPod = {});

} // namespace drasim::scheduler
