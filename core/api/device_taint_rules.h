// SPDX-License-Identifier: Apache-2.0
#pragma once

// DeviceTaintRules merged into ResourceSlices, the way kube-scheduler's ResourceSlice tracker
// (k8s.io/dynamic-resource-allocation/resourceslice/tracker) patches the slices it hands to the
// allocator: each matching device gets the rule's taint appended after its own taints.

#include <string>
#include <vector>

#include "core/api/resource_v1.h"

namespace drasim::api {

/// Does the rule select this device of this slice? Every selector field that is set must equal
/// the slice's driver, the slice's pool name, the device's name; an empty selector matches every
/// device and a rule without a selector matches none (the API's documented contract).
bool taintRuleSelects(const DeviceTaintRule& rule, const ResourceSlice& slice, const Device& device);

/// Appends the rule's taint (marked with the rule's name) to every device of the slice it selects.
/// Returns how many devices got it.
size_t applyTaintRule(const DeviceTaintRule& rule, ResourceSlice& slice);

/// Removes the taints a rule added (by rule name). Returns how many were removed.
size_t removeTaintRule(const std::string& ruleName, ResourceSlice& slice);

/// Applies rules in name order: the tracker lists them from an informer cache in no defined order,
/// so drasim fixes one (it only decides the order of taints on a device, never whether a device
/// is usable).
void applyTaintRules(const std::vector<DeviceTaintRule>& rules, ResourceSlice& slice);

} // namespace drasim::api
