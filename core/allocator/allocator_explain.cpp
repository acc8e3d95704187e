// SPDX-License-Identifier: Apache-2.0
// The slow "why pending" pass: every device judged against every (sub)request on its own, in the
// allocator's check order, so users see which check rejected how many devices.
#include <optional>

#include "core/allocator/allocator.h"

namespace drasim::allocator {

std::vector<ClaimVerdicts> Allocator::explain(const api::Node& node)
{
    const NodeView& view = m_inventory.view(node);
    m_view = &view;
    m_attempt = Attempt {};
    m_consumed.clear();
    m_counters.clear();
    if (m_picked.size() < m_inventory.registry().size())
        m_picked.resize(m_inventory.registry().size(), 0);
    std::vector<ClaimVerdicts> out;
    for (size_t ci = 0; ci < m_claims.size(); ++ci) {
        const auto& claim = m_claims[ci];
        ClaimVerdicts cv;
        cv.claim = claim.key;
        cv.hasConstraints = !claim.constraints.empty();
        for (const auto& req : claim.requests)
            for (const auto& sub : req.subs) {
                RequestVerdicts rv;
                rv.request = sub.resultName;
                rv.deviceClass = sub.spec->deviceClassName;
                rv.mode = sub.all ? "All" : "ExactCount";
                rv.wanted = sub.count;
                for (const auto& pool : view.pools)
                    for (const auto& e : pool.devices) {
                        ++rv.visible;
                        using R = DeviceRejectReason;
                        std::optional<R> reason;
                        if (pool.incomplete)
                            reason = R::PoolIncomplete;
                        else if (pool.invalid)
                            reason = R::PoolInvalid;
                        else if (!sub.admin && m_state.dedicated(e.id))
                            reason = R::InUse;
                        if (!reason) {
                            Verdict v = m_selectors.verdict(sub.selectorSet, e);
                            if (v == Verdict::ClassFalse)
                                reason = R::ClassSelectorFalse;
                            else if (v == Verdict::RequestFalse)
                                reason = R::RequestSelectorFalse;
                            else if (v == Verdict::Error) {
                                reason = R::SelectorError;
                                if (rv.firstError.empty())
                                    rv.firstError = selectorError(ci, sub, e);
                            }
                        }
                        if (!reason && !e.nodeOk)
                            reason = R::NodeMismatch;
                        if (!reason && !capacityFits(sub, e))
                            reason = R::CapacityExhausted;
                        if (!reason && !e.device->consumesCounters.empty()
                            && !(e.multi && m_state.hasShares(e.id))) {
                            if (!countersFit(&pool, *e.device, +1))
                                reason = R::CountersExhausted;
                            else
                                countersFit(&pool, *e.device, -1);
                        }
                        if (!reason && !tolerated(sub, *e.device)) {
                            reason = R::TaintNotTolerated;
                            if (rv.firstRuleTaint.empty())
                                rv.firstRuleTaint = ruleTaintNote(sub, e);
                        }
                        if (reason)
                            ++rv.rejected[size_t(*reason)];
                        else
                            ++rv.eligible;
                    }
                if (sub.all)
                    rv.wanted = rv.eligible + rv.rejected[size_t(DeviceRejectReason::InUse)];
                cv.requests.push_back(std::move(rv));
            }
        out.push_back(std::move(cv));
    }
    return out;
}

} // namespace drasim::allocator
