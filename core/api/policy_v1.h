// SPDX-License-Identifier: Apache-2.0
#pragma once

// policy/v1 PodDisruptionBudget: how many of the pods a selector picks must stay available while
// pods are disrupted on purpose (evictions, preemption).

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/api/label_selector.h"
#include "core/api/meta.h"

namespace drasim::api {

/// intstr.IntOrString: an integer, or a string such as "50%".
struct IntOrString
{
    bool isString = false;
    int32_t intValue = 0;
    std::string stringValue;
    bool operator==(const IntOrString&) const = default;

    static IntOrString ofInt(int32_t v) { return IntOrString { false, v, {} }; }
    static IntOrString ofString(std::string s) { return IntOrString { true, 0, std::move(s) }; }
    /// "5" or "50%", as intstr's String() shows it.
    std::string text() const { return isString ? stringValue : std::to_string(intValue); }
};

/// status as the disruption controller last wrote it (kept as loaded, written back).
struct PodDisruptionBudgetStatus
{
    int32_t disruptionsAllowed = 0;
    int32_t currentHealthy = 0;
    int32_t desiredHealthy = 0;
    int32_t expectedPods = 0;
    /// disruptedPods: pod name → when the eviction was allowed (RFC 3339, as written).
    std::map<std::string, std::string> disruptedPods;
    bool operator==(const PodDisruptionBudgetStatus&) const = default;
};

struct PodDisruptionBudget
{
    ObjectMeta meta;
    std::optional<IntOrString> minAvailable;
    std::optional<IntOrString> maxUnavailable;
    /// policy/v1: an empty selector ({}) selects every pod of the namespace, a missing one none.
    std::optional<LabelSelector> selector;
    std::string unhealthyPodEvictionPolicy; ///< IfHealthyBudget, AlwaysAllow; "" when absent
    std::optional<PodDisruptionBudgetStatus> status;
};

} // namespace drasim::api
