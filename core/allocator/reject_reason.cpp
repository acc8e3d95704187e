// SPDX-License-Identifier: Apache-2.0
#include "core/allocator/reject_reason.h"

namespace drasim::allocator {

const char* deviceRejectReasonName(DeviceRejectReason reason)
{
    switch (reason) {
    case DeviceRejectReason::PoolIncomplete:
        return "pool_incomplete";
    case DeviceRejectReason::PoolInvalid:
        return "pool_invalid";
    case DeviceRejectReason::InUse:
        return "in_use";
    case DeviceRejectReason::ClassSelectorFalse:
        return "class_selector_false";
    case DeviceRejectReason::RequestSelectorFalse:
        return "request_selector_false";
    case DeviceRejectReason::SelectorError:
        return "selector_error";
    case DeviceRejectReason::NodeMismatch:
        return "node_mismatch";
    case DeviceRejectReason::CapacityExhausted:
        return "capacity_exhausted";
    case DeviceRejectReason::CountersExhausted:
        return "counters_exhausted";
    case DeviceRejectReason::TaintNotTolerated:
        return "taint_not_tolerated";
    case DeviceRejectReason::ConstraintMismatch:
        return "constraint_mismatch";
    }
    return "unknown";
}

} // namespace drasim::allocator
