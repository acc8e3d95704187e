// SPDX-License-Identifier: Apache-2.0
// The allocator's reports to its observer. Only called when an observer is set, so the search
// itself carries one branch per report site and none of this work. A rejected device is judged
// again here, with the same checks in the same order as the search, to name the check that
// turned it away; the search state is what it was at that moment (a failed add undoes itself).
#include "core/allocator/allocator.h"

namespace drasim::allocator {

namespace {

std::string taintText(const api::DeviceTaint& t)
{
    return "taint " + t.key + (t.value.empty() ? std::string() : "=" + t.value) + ":" + t.effect;
}

} // namespace

TraceEvent Allocator::traceEvent(TraceStep step, size_t ci, size_t ri, size_t si, int64_t slot) const
{
    TraceEvent e;
    e.step = step;
    e.node = m_node ? m_node->meta.name : std::string();
    if (ci >= m_claims.size())
        return e;
    const auto& claim = m_claims[ci];
    const auto& sub = claim.requests[ri].subs[si];
    e.claim = uint16_t(ci);
    e.request = uint16_t(ri);
    e.sub = uint16_t(si);
    e.slot = slot;
    e.slotCount = sub.all ? int64_t(m_allLists[ci][ri * 8 + si].size()) : sub.count;
    e.claimKey = claim.key;
    e.requestName = sub.resultName;
    return e;
}

void Allocator::traceDevice(TraceStep step, size_t ci, size_t ri, size_t si, int64_t slot,
    const DeviceEntry& d, DeviceRejectReason reason)
{
    if (slot < 0) {
        // A pick being taken back: its slot is the number of earlier picks of its request.
        slot = 0;
        for (size_t i = 0; i + 1 < m_attempt.picks.size(); ++i) {
            const auto& p = m_attempt.picks[i];
            slot += p.claim == ci && p.request == ri && p.sub == si ? 1 : 0;
        }
    }
    TraceEvent e = traceEvent(step, ci, ri, si, slot);
    const auto& k = m_inventory.registry().key(d.id);
    e.device = d.id;
    e.deviceName = k.driver + "/" + k.pool + "/" + k.device;
    e.reason = reason;
    if (step == TraceStep::Rejected && reason == DeviceRejectReason::SelectorError)
        e.detail = m_error;
    m_observer->onTrace(e);
}

void Allocator::traceIneligible(size_t ci, size_t ri, size_t si, int64_t slot, const DeviceEntry& e)
{
    // eligible()'s checks, in its order.
    const auto& sub = m_claims[ci].requests[ri].subs[si];
    using R = DeviceRejectReason;
    R reason = R::CapacityExhausted;
    if (inUse(sub, ci, e))
        reason = R::InUse;
    else if (Verdict v = m_selectors.verdict(sub.selectorSet, e); v == Verdict::ClassFalse)
        reason = R::ClassSelectorFalse;
    else if (v == Verdict::RequestFalse)
        reason = R::RequestSelectorFalse;
    else if (v == Verdict::Error) {
        reason = R::SelectorError;
        m_error = selectorError(ci, sub, e);
    } else if (!e.nodeOk)
        reason = R::NodeMismatch;
    traceDevice(TraceStep::Rejected, ci, ri, si, slot, e, reason);
}

void Allocator::traceAddFailed(
    size_t ci, size_t ri, size_t si, int64_t slot, const DeviceEntry& e, AddResult result)
{
    const auto& claim = m_claims[ci];
    const auto& sub = claim.requests[ri].subs[si];
    TraceEvent ev = traceEvent(TraceStep::Rejected, ci, ri, si, slot);
    const auto& k = m_inventory.registry().key(e.id);
    ev.device = e.id;
    ev.deviceName = k.driver + "/" + k.pool + "/" + k.device;
    if (result == AddResult::CountersFail) {
        ev.reason = DeviceRejectReason::CountersExhausted;
    } else if (result == AddResult::CapacityFail) {
        ev.reason = DeviceRejectReason::CapacityExhausted;
    } else if (result == AddResult::TaintFail) {
        ev.reason = DeviceRejectReason::TaintNotTolerated;
        for (const auto& t : e.device->taints)
            if (taintBlocks(t) && !toleratesTaint(sub.spec->tolerations, t)) {
                ev.detail = taintText(t);
                break;
            }
    } else if (result == AddResult::DerivedError) {
        ev.reason = DeviceRejectReason::ConstraintMismatch;
        ev.detail = m_error;
    } else {
        // The first constraint the device breaks, judged against the picks standing now.
        ev.reason = DeviceRejectReason::ConstraintMismatch;
        for (size_t k = 0; k < sub.constraints.size(); ++k) {
            const auto idx = sub.constraints[k];
            const auto& def = claim.constraints[idx];
            const auto& st = m_constraintStates[ci][idx];
            bool failed = false;
            const ConstraintValue value = constraintValue(ci, sub, k, e, failed);
            std::string what = (def.match ? "matchAttribute " : "distinctAttribute ") + def.attribute;
            if (value.present() && !sub.constraintDerived.empty() && sub.constraintDerived[k] >= 0)
                what += " (derived: " + constraintValueText(value) + ")";
            if (!value.present()) {
                ev.detail = what + ": the device does not have this attribute";
                break;
            }
            if (!constraintAccepts(def.match, m_options.listTypeAttributes, st, value)) {
                ev.detail = what
                    + (def.match ? ": differs from the devices picked before"
                                 : ": a device picked before has the same value");
                break;
            }
        }
    }
    m_observer->onTrace(ev);
}

void Allocator::traceAlternative(size_t ci, size_t ri, size_t si)
{
    m_observer->onTrace(traceEvent(TraceStep::Alternative, ci, ri, si, 0));
}

void Allocator::traceAttempt(bool finished)
{
    TraceEvent e = traceEvent(finished ? TraceStep::Finished : TraceStep::Attempt, m_claims.size(), 0, 0, 0);
    if (finished) {
        e.status = m_attempt.status;
        e.detail = m_attempt.error;
    }
    m_observer->onTrace(e);
}

} // namespace drasim::allocator
