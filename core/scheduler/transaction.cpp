// SPDX-License-Identifier: Apache-2.0
// Transactions over the cluster state: a group scheduling cycle, a placement tried per topology
// domain, a preemption dry run and `explain` change claims, bound pods and node usage, then keep
// or drop those changes as one. kube-scheduler gets the same effect from its snapshot and the
// assume/forget calls of its cache; here every change passes through a few primitives that log
// their inverse, so a rollback costs as much as the changes it undoes, not a copy of the cluster.
#include <stdexcept>

#include "core/scheduler/cluster_impl.h"

namespace drasim::scheduler {

void Cluster::Impl::Undo::begin()
{
    UndoFrame f;
    f.freeEvents = d.freeEvents;
    f.changes = d.changes.size();
    f.nextClaimSeq = d.nextClaimSeq;
    f.nextBindSeq = d.nextBindSeq;
    f.shareIds = d.shareIds;
    frames.push_back(std::move(f));
}

void Cluster::Impl::Undo::commit()
{
    if (frames.empty())
        throw std::logic_error("commit without an open transaction");
    UndoFrame inner = std::move(frames.back());
    frames.pop_back();
    // A nested commit hands its changes to the enclosing transaction, which may still drop them.
    if (!frames.empty()) {
        auto& outer = frames.back().undo;
        outer.insert(outer.end(), std::make_move_iterator(inner.undo.begin()),
            std::make_move_iterator(inner.undo.end()));
    }
}

void Cluster::Impl::Undo::rollback()
{
    if (frames.empty())
        throw std::logic_error("rollback without an open transaction");
    UndoFrame f = std::move(frames.back());
    frames.pop_back();
    replaying = true;
    for (auto it = f.undo.rbegin(); it != f.undo.rend(); ++it)
        (*it)();
    replaying = false;
    // Counters and the shareID sequence go back too: what follows a rollback is decided exactly
    // as if the transaction had never run.
    d.freeEvents = f.freeEvents;
    d.changes.truncate(f.changes);
    d.nextClaimSeq = f.nextClaimSeq;
    d.nextBindSeq = f.nextBindSeq;
    d.shareIds = f.shareIds;
}

void Cluster::Impl::Undo::claimRestore(const ClaimState& c)
{
    if (!active())
        return;
    // A claim created inside this transaction is erased by its rollback whatever it became (the
    // erase is logged before any change of it): no copy of it to keep. Claims are numbered in
    // creation order, so those made since the transaction began are numbered from its first.
    if (auto it = d.claimSeq.find(c.key); it != d.claimSeq.end() && it->second >= frames.back().nextClaimSeq)
        return;
    log([this, saved = c] {
        ClaimState* cur = d.findClaim(saved.key);
        if (!cur)
            return;
        if (cur->claim.allocation)
            d.applyAllocation(*cur->claim.allocation, -1, cur->deviceIds);
        *cur = saved;
        if (cur->claim.allocation)
            d.applyAllocation(*cur->claim.allocation, +1, cur->deviceIds);
    });
}

void Cluster::Impl::Undo::claimReinsert(uint64_t seq)
{
    log([this, seq, saved = d.claimsBySeq.at(seq)] {
        auto& cs = d.claimsBySeq[seq];
        cs = saved;
        d.claimSeq[cs.key] = seq;
        if (cs.claim.allocation)
            d.applyAllocation(*cs.claim.allocation, +1, cs.deviceIds);
    });
}

void Cluster::Impl::Undo::generatedRestore(const std::string& podKey)
{
    if (!active())
        return;
    auto it = d.generatedFor.find(podKey);
    if (it == d.generatedFor.end()) {
        log([this, podKey] { d.generatedFor.erase(podKey); });
        return;
    }
    log([this, podKey, saved = it->second] { d.generatedFor[podKey] = saved; });
}

void Cluster::Impl::Undo::insertBound(PodState&& ps)
{
    std::string key = ps.pub.key;
    indexBound(d.bound.insert_or_assign(std::move(key), std::move(ps)).first->second);
}

void Cluster::Impl::Undo::insertBound(BoundNode&& node)
{
    auto inserted = d.bound.insert(std::move(node));
    if (!inserted.inserted) // bound already: written over, as insert_or_assign does
        inserted.position->second = std::move(inserted.node.mapped());
    indexBound(inserted.position->second);
}

void Cluster::Impl::Undo::indexBound(PodState& stored)
{
    const uint64_t seq = stored.seq;
    // A new binding's number is the largest: the end is the place, found without walking down the
    // tree (a wrong hint, as when a rollback puts a pod back, only costs the usual search).
    d.bindOrder.insert_or_assign(d.bindOrder.end(), seq, stored.pub.key);
    ++d.boundPriorities[stored.pub.priority];
    d.placementIndex.count(stored.placement.get(), stored.nodeIdx, +1, stored.pub.terminating);
    if (stored.nodeIdx != kNoNode)
        d.podsOnNode[stored.nodeIdx].push_back(&stored);
    // Logged by bind number, which names the pod in bindOrder: no copy of its key per binding.
    if (active())
        log([this, seq] { eraseBound(std::string(d.bindOrder.at(seq))); });
}

bool Cluster::Impl::Undo::markTerminating(const std::string& key)
{
    auto it = d.bound.find(key);
    if (it == d.bound.end())
        return false;
    if (!it->second.pub.terminating) {
        it->second.pub.terminating = true;
        d.placementIndex.terminating(it->second.placement.get(), it->second.nodeIdx, +1);
        log([this, key] {
            PodState& ps = d.bound.at(key);
            ps.pub.terminating = false;
            d.placementIndex.terminating(ps.placement.get(), ps.nodeIdx, -1);
        });
    }
    return true;
}

void Cluster::Impl::PodState::clearForReuse()
{
    pub.key.clear();
    pub.nodeName.clear();
    pub.claims.clear();
    pub.priority = 0;
    pub.terminating = false;
    name.clear();
    uid.clear();
    req = {};
    seq = 0;
    startTime = 0;
    nodeIdx = kNoNode;
    groupKey.clear();
    labels.reset();
    ownerKind.clear();
    ownerName.clear();
    placement.reset();
    ownPlacement = false;
}

Cluster::Impl::PodState Cluster::Impl::Undo::eraseBound(const std::string& key)
{
    return std::move(extractBound(key).mapped());
}

Cluster::Impl::BoundNode Cluster::Impl::Undo::extractBound(const std::string& key)
{
    auto it = d.bound.find(key);
    if (it->second.nodeIdx != kNoNode)
        std::erase(d.podsOnNode[it->second.nodeIdx], &it->second);
    BoundNode node = d.bound.extract(it);
    const PodState& ps = node.mapped();
    d.bindOrder.erase(ps.seq);
    d.placementIndex.count(ps.placement.get(), ps.nodeIdx, -1, ps.pub.terminating);
    if (auto pc = d.boundPriorities.find(ps.pub.priority); pc != d.boundPriorities.end() && --pc->second == 0)
        d.boundPriorities.erase(pc);
    // A rollback replaying an insertion logs nothing: no copy of the pod for it.
    if (active())
        log([this, saved = ps] { insertBound(PodState(saved)); });
    return node;
}

void Cluster::beginTransaction()
{
    m_impl->undo.begin();
}

void Cluster::commitTransaction()
{
    m_impl->undo.commit();
}

void Cluster::rollbackTransaction()
{
    m_impl->undo.rollback();
}

void Cluster::Impl::Undo::requireNone(const char* change) const
{
    if (!frames.empty())
        throw std::logic_error(std::string(change) + " inside a cluster transaction");
}

} // namespace drasim::scheduler
