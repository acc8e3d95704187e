// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the allocator does, step by step, for whoever wants to watch: each node it tries, each
// alternative of a firstAvailable request, each candidate device with the check that turned it
// away or the slot it filled, each pick it takes back, and how the attempt ended. The allocator
// reports to an observer only when one is set (Allocator::setObserver); without one the search
// runs as before, paying one predictable branch on paths that reject or undo.

#include <cstdint>
#include <string>
#include <vector>

#include "core/allocator/inventory.h"
#include "core/allocator/reject_reason.h"

namespace drasim::allocator {

enum class AttemptStatus;

enum class TraceStep : uint8_t {
    Attempt, ///< allocate() started on `node`
    Alternative, ///< a firstAvailable request tries its subrequest `sub`
    Rejected, ///< `device` cannot fill the slot: `reason` (with `detail` for CEL errors, constraints)
    Picked, ///< `device` passed every check and fills slot `slot` of the request
    Backtracked, ///< the pick of `device` is taken back: the search below it found no solution
    Finished, ///< allocate() returned `status` (`detail`: its error)
};

struct TraceEvent
{
    TraceStep step = TraceStep::Attempt;
    std::string node; ///< the node of the attempt (every event)
    uint16_t claim = 0; ///< index in the pod's claims to allocate
    uint16_t request = 0;
    uint16_t sub = 0; ///< subrequest (0 without firstAvailable)
    int64_t slot = 0; ///< which device of the request (0-based)
    int64_t slotCount = 0; ///< devices the request wants (All: the devices it listed)
    std::string claimKey; ///< namespace/name
    std::string requestName; ///< "req" or "req/sub", as in the allocation result
    DeviceId device = kNoDevice;
    std::string deviceName; ///< driver/pool/device
    DeviceRejectReason reason = DeviceRejectReason::InUse; ///< for Rejected
    std::string detail;
    AttemptStatus status {}; ///< for Finished
};

/// Told every step of the search, on the thread that runs it. Must not call back into the allocator.
class AllocationObserver
{
public:
    virtual ~AllocationObserver() = default;
    virtual void onTrace(const TraceEvent& event) = 0;
};

/// Records every step, and answers what a step-through view asks.
class AllocationTrace : public AllocationObserver
{
public:
    void onTrace(const TraceEvent& event) override { m_events.push_back(event); }
    const std::vector<TraceEvent>& events() const { return m_events; }
    void clear() { m_events.clear(); }

    /// Index of the Attempt event that event `i` belongs to.
    size_t attemptOf(size_t i) const;
    /// The picks standing right after event `i`: Picked minus Backtracked since its attempt began,
    /// in pick order (indices of the Picked events).
    std::vector<size_t> picksAfter(size_t i) const;
    /// The last attempt on `node` that ended in success (its Finished event), or npos.
    size_t successOn(const std::string& node) const;

private:
    std::vector<TraceEvent> m_events;
};

/// One step in plain words, e.g. "claim default/train, request gpu (device 1 of 2):
/// gpu.nvidia.com/node-a/gpu-3 rejected: the device class's selector is false".
std::string describeTraceEvent(const TraceEvent& event);
/// What a rejection reason means, for a learner ("already allocated to another claim", ...).
const char* rejectReasonWords(DeviceRejectReason reason);

} // namespace drasim::allocator
