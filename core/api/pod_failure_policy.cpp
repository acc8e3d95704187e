// SPDX-License-Identifier: Apache-2.0
#include "core/api/pod_failure_policy.h"

#include <algorithm>

namespace drasim::api {

namespace {

bool matchesDisruptionTarget(const PodFailurePolicyRule& rule)
{
    // matchOnPodConditions: a pattern matches a condition of the same type and status.
    return std::any_of(rule.onPodConditions.begin(), rule.onPodConditions.end(),
        [](const PodFailurePolicyOnPodConditionsPattern& p) {
            return p.type == "DisruptionTarget" && p.status == "True";
        });
}

} // namespace

DisruptionMatch matchDisruption(const std::optional<PodFailurePolicy>& policy)
{
    if (!policy)
        return {};
    for (size_t i = 0; i < policy->rules.size(); ++i) {
        const PodFailurePolicyRule& rule = policy->rules[i];
        if (rule.onExitCodes || !matchesDisruptionTarget(rule))
            continue;
        const int32_t index = int32_t(i);
        if (rule.action == "Ignore")
            return { DisruptionAction::Ignore, index };
        if (rule.action == "FailJob")
            return { DisruptionAction::FailJob, index };
        return { DisruptionAction::Count, index };
    }
    return {};
}

bool replacesOnlyFailedPods(const PodController& job)
{
    return job.podReplacementPolicy == "Failed" || job.podFailurePolicy.has_value();
}

} // namespace drasim::api
