// SPDX-License-Identifier: Apache-2.0
#pragma once

// Why one device could not serve one (sub)request, in the allocator's check order (§3.5): the
// vocabulary of the allocator's per-device verdicts, which explain reports as counts.

#include <array>
#include <cstddef>
#include <cstdint>

namespace drasim::allocator {

enum class DeviceRejectReason {
    PoolIncomplete,
    PoolInvalid,
    InUse,
    ClassSelectorFalse,
    RequestSelectorFalse,
    SelectorError,
    NodeMismatch,
    CapacityExhausted,
    CountersExhausted,
    TaintNotTolerated,
    ConstraintMismatch,
};
inline constexpr size_t kDeviceRejectReasonCount = 11;

/// Devices rejected per reason, indexed by DeviceRejectReason.
using RejectCounts = std::array<uint32_t, kDeviceRejectReasonCount>;

/// Stable snake_case identifier used in text and JSON ("class_selector_false", ...).
const char* deviceRejectReasonName(DeviceRejectReason reason);

} // namespace drasim::allocator
