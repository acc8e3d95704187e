// SPDX-License-Identifier: Apache-2.0
#pragma once

// Which feature gate each gated field of a ResourceSlice belongs to, as the API server's
// resourceslice strategy clears them on create while the gate is off (dropDisabledFields in
// pkg/registry/resource/resourceslice/strategy.go). One table for both ways a slice comes in: the
// loader skips such a field as it reads it (yamlio's clearedByGate), and slices made in memory
// (those Scenario node pools generate from hardware shapes) go through dropDisabledSliceFields.

#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "core/api/feature_gates.h"
#include "core/api/resource_v1.h"

namespace drasim::api {

/// The gate of a field of a slice's spec (sharedCounters, perDeviceNodeSelection,
/// skipNodeOperations); null for fields no gate clears.
const char* gateOfSliceField(std::string_view field);
/// The gate of a field of a device (consumesCounters, per-device node selection, taints, binding
/// conditions, allowMultipleAllocations); null for the others.
const char* gateOfDeviceField(std::string_view field);
/// The gate of a field of a device capacity (requestPolicy); null for the others.
const char* gateOfCapacityField(std::string_view field);
/// The gate of a field of a consumesCounters entry (compatibilityGroups); null for the others.
const char* gateOfCounterConsumptionField(std::string_view field);

/// A field a gate that is off cleared: the gate, and the field's path in the slice without
/// indices ("spec.sharedCounters", "spec.devices[].consumesCounters").
using ClearedField = std::pair<std::string, std::string>;

/// Clears from `slice` every field of the tables above whose gate is off in `gates`, as the API
/// server would on create; returns the fields it cleared (set ones only).
std::set<ClearedField> dropDisabledSliceFields(ResourceSlice& slice, const FeatureGates& gates);

} // namespace drasim::api
