// SPDX-License-Identifier: Apache-2.0
#include "core/allocator/allocation_trace.h"

#include "core/allocator/allocator.h"

namespace drasim::allocator {

size_t AllocationTrace::attemptOf(size_t i) const
{
    for (size_t j = std::min(i, m_events.size() - 1) + 1; j-- > 0;)
        if (m_events[j].step == TraceStep::Attempt)
            return j;
    return 0;
}

std::vector<size_t> AllocationTrace::picksAfter(size_t i) const
{
    std::vector<size_t> stack;
    if (m_events.empty())
        return stack;
    i = std::min(i, m_events.size() - 1);
    for (size_t j = attemptOf(i); j <= i; ++j) {
        if (m_events[j].step == TraceStep::Picked)
            stack.push_back(j);
        else if (m_events[j].step == TraceStep::Backtracked && !stack.empty())
            stack.pop_back(); // the allocator only ever takes back its newest pick
    }
    return stack;
}

size_t AllocationTrace::successOn(const std::string& node) const
{
    for (size_t j = m_events.size(); j-- > 0;)
        if (m_events[j].step == TraceStep::Finished && m_events[j].node == node
            && m_events[j].status == AttemptStatus::Success)
            return j;
    return std::string::npos;
}

const char* rejectReasonWords(DeviceRejectReason reason)
{
    switch (reason) {
    case DeviceRejectReason::PoolIncomplete:
        return "its pool is being updated (not all slices published)";
    case DeviceRejectReason::PoolInvalid:
        return "its pool is invalid";
    case DeviceRejectReason::InUse:
        return "it is already allocated (to another claim, or earlier in this search)";
    case DeviceRejectReason::ClassSelectorFalse:
        return "the device class's selector is false for it";
    case DeviceRejectReason::RequestSelectorFalse:
        return "the request's own selector is false for it";
    case DeviceRejectReason::SelectorError:
        return "a selector failed to evaluate on it";
    case DeviceRejectReason::NodeMismatch:
        return "it is not available on this node";
    case DeviceRejectReason::CapacityExhausted:
        return "not enough of its capacity is left";
    case DeviceRejectReason::CountersExhausted:
        return "its pool's shared counters are used up";
    case DeviceRejectReason::TaintNotTolerated:
        return "it has a taint the request does not tolerate";
    case DeviceRejectReason::ConstraintMismatch:
        return "a claim constraint would not hold with it";
    }
    return "rejected";
}

namespace {

const char* statusWords(AttemptStatus status)
{
    switch (status) {
    case AttemptStatus::Success:
        return "every claim has its devices";
    case AttemptStatus::NoSolution:
        return "no way to allocate all claims on this node";
    case AttemptStatus::InvalidPools:
        return "no solution, and an invalid pool was encountered";
    case AttemptStatus::Timeout:
        return "gave up: the search took too long";
    case AttemptStatus::Error:
        return "error";
    }
    return "";
}

std::string where(const TraceEvent& e)
{
    return "claim " + e.claimKey + ", request " + e.requestName + " (device " + std::to_string(e.slot + 1)
        + " of " + std::to_string(e.slotCount) + ")";
}

} // namespace

std::string describeTraceEvent(const TraceEvent& e)
{
    switch (e.step) {
    case TraceStep::Attempt:
        return "try node " + e.node;
    case TraceStep::Alternative:
        return "claim " + e.claimKey + ": try alternative " + std::to_string(e.sub + 1) + " of request "
            + e.requestName.substr(0, e.requestName.find('/')) + ": " + e.requestName;
    case TraceStep::Rejected: {
        std::string s = where(e) + ": " + e.deviceName + " rejected: " + rejectReasonWords(e.reason);
        if (!e.detail.empty())
            s += " (" + e.detail + ")";
        return s;
    }
    case TraceStep::Picked:
        return where(e) + ": pick " + e.deviceName;
    case TraceStep::Backtracked:
        return where(e) + ": take back " + e.deviceName + " (nothing works after it)";
    case TraceStep::Finished: {
        std::string s = "node " + e.node + ": " + statusWords(e.status);
        if (!e.detail.empty())
            s += ": " + e.detail;
        return s;
    }
    }
    return {};
}

} // namespace drasim::allocator
