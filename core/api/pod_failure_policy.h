// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>

#include "core/api/core_v1.h"

namespace drasim::api {

/// What the Job controller does with a failed pod: count it against backoffLimit (the default),
/// ignore it (replaced, not counted), or fail the whole Job.
enum class DisruptionAction : uint8_t { Count, Ignore, FailJob };

struct DisruptionMatch
{
    DisruptionAction action = DisruptionAction::Count;
    int32_t rule = -1; ///< index of the rule that decided, -1 when none matched
};

/// matchPodFailurePolicy of the Job controller (pkg/controller/job/pod_failure_policy.go) for the
/// pods the simulation fails: every one of them carries DisruptionTarget=True (the scheduler's
/// preemption, the taint eviction controllers and PodGC set it before deleting a pod) and none
/// has a container exit code, so onExitCodes rules never match. The rules are tried in order;
/// the first whose onPodConditions has a pattern {DisruptionTarget, True} decides. No policy or
/// no matching rule: Count. FailIndex needs backoffLimitPerIndex, which the simulation counts
/// for the whole Job, so it counts like Count.
DisruptionMatch matchDisruption(const std::optional<PodFailurePolicy>& policy);

/// onlyReplaceFailedPods of the Job controller (pkg/controller/job/job_controller.go): with a
/// podFailurePolicy or podReplacementPolicy Failed, a deleted pod is a failure (and replaced) only
/// once it reached phase Failed; otherwise already when it is terminating (isPodFailed counts a
/// pod with a deletionTimestamp).
bool replacesOnlyFailedPods(const PodController& job);

} // namespace drasim::api
