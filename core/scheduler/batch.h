// SPDX-License-Identifier: Apache-2.0
#pragma once

// One-shot scheduling of a manifest bundle, as `drasim allocate` does it: every pod without
// spec.nodeName, one at a time, in input order.

#include <memory>
#include <string>
#include <vector>

#include "core/api/object_set.h"
#include "core/scheduler/cluster.h"
#include "core/scheduler/preemptor_kind.h"

namespace drasim::scheduler {

struct BatchResult
{
    /// Every input pod, updated: spec.nodeName when scheduled, a PodScheduled=False condition
    /// (reason Unschedulable) with the scheduler's message when not, and resourceClaimStatuses
    /// for claims generated from templates.
    std::vector<api::Pod> pods;
    size_t scheduled = 0;
    size_t pending = 0;
    /// Only when explainPod named a pod: its diagnosis (the pods before it were scheduled first).
    std::shared_ptr<const PodDiagnosis> diagnosis;
    bool explainFound = false;
};

/// A preemption that nominated a node: each victim gets the DisruptionTarget condition (reason
/// PreemptionByScheduler) among `pods` (the cluster marked it terminating), naming the kind of
/// preemptor; `preemptor` is the pod, or a member of the preempting group.
void recordPreemption(
    const api::Pod& preemptor, PreemptorKind kind, const PreemptionResult& p, std::vector<api::Pod>& pods);

/// Schedules pods in order. With explainPod ("namespace/name"), stops after that pod and
/// returns its diagnosis.
BatchResult scheduleAll(
    Cluster& cluster, const std::vector<api::Pod>& pods, const std::string& explainPod = {});

/// What one cycle did to `pod` in a batch: spec.nodeName or a PodScheduled=False condition, the
/// claims generated from its templates in its status, and the counts in `out`.
void recordResult(Cluster& cluster, api::Pod& pod, const ScheduleResult& r, BatchResult& out);

/// Schedules the pods before `podKey` as scheduleAll does, then that pod with `observer` told
/// every step of the allocator's search for it. False when no pod with that key needs scheduling.
bool tracePod(Cluster& cluster, const std::vector<api::Pod>& pods, const std::string& podKey,
    allocator::AllocationObserver& observer, ScheduleResult* result = nullptr);

/// Whether the pod takes part in one-shot scheduling: no nodeName and not finished.
bool needsScheduling(const api::Pod& pod);

} // namespace drasim::scheduler
