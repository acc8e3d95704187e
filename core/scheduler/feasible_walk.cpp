// SPDX-License-Identifier: Apache-2.0
// The search of a cycle that stops after numFeasibleNodesToFind feasible nodes (node_tree.h), when
// the profile's scores follow node usage: walk the nodes in the node tree's order, keep the best
// by usage score, and remember each node's whole Filter verdict for pods that filter alike, so
// that the next such pod passes the hundreds of nodes it must count without filtering them again.
// A remembered verdict is valid while its node's stamp is unchanged: a pod bound or gone, a
// device allocated or freed on it (DraVerdictCache::touch), or anything larger (reset).
#include <algorithm>
#include <utility>

#include "core/scheduler/cluster_impl.h"

namespace drasim::scheduler {

namespace {

void put(std::string& out, const std::string& s)
{
    // Length-prefixed, so that no content can imitate a separator.
    out += std::to_string(s.size());
    out += ':';
    out += s;
}

void putSelector(std::string& out, const api::NodeSelector& selector)
{
    for (const auto& term : selector.terms) {
        for (const auto* reqs : { &term.matchExpressions, &term.matchFields }) {
            for (const auto& r : *reqs) {
                put(out, r.key);
                put(out, r.op);
                for (const auto& v : r.values)
                    put(out, v);
                out += ';';
            }
            out += ']';
        }
        out += '/';
    }
}

} // namespace

std::string Cluster::Impl::Verdicts::filterKeyOf(const Impl& d, const Cycle& cycle)
{
    // Pods nominated to a node take room there from some pods and not others (by priority):
    // verdicts are not shared while any nomination stands.
    if (!d.nominatedOn.empty() || cycle.dryRunUsage || !cycle.backed.empty())
        return {};
    std::string key;
    if (!cycle.podClaims.empty()) {
        key = keyOf(cycle);
        if (key.empty())
            return {};
    }
    // What passesNodeFilters reads of the pod: tolerations, node selector, required node
    // affinity, and the requests.
    const api::PodSpec& spec = cycle.pod.spec;
    key += "|tol";
    for (const auto& t : spec.tolerations) {
        put(key, t.key);
        put(key, t.op);
        put(key, t.value);
        put(key, t.effect);
    }
    key += "|sel";
    for (const auto& [k, v] : spec.nodeSelector) {
        put(key, k);
        put(key, v);
    }
    key += "|aff";
    if (spec.nodeAffinity && spec.nodeAffinity->required)
        putSelector(key, *spec.nodeAffinity->required);
    const Resources& r = cycle.req.requests;
    key += "|req";
    put(key, std::to_string(r.milliCpu));
    put(key, std::to_string(r.memory));
    put(key, std::to_string(r.ephemeralStorage));
    for (const auto& [name, v] : r.scalar) {
        put(key, name);
        put(key, std::to_string(v));
    }
    return key;
}

uint32_t Cluster::Impl::Verdicts::walkByUsage(
    Impl& d, Cycle& cycle, const std::vector<uint32_t>* list, uint32_t start, uint32_t candidates)
{
    const SigCache& sc = *cycle.usageOrder;
    const bool needsAttempt = !cycle.toAllocate.empty();
    DraVerdictCache::Slot whole;
    if (!cycle.filterKey.empty())
        whole = d.draVerdicts.slot(cycle.filterKey);
    bool skipUnlisted = cycle.zeroFreeShortcut && list == &d.scanOrder;
    // Two passes at most: a walk that finds nothing with remembered verdicts or skipped nodes
    // walks again without them, so that the message counts every node's own reasons.
    for (;;) {
        int64_t best = -1;
        allocator::Attempt bestAttempt;
        bool bestWithoutAttempt = false, usedRemembered = false;
        uint32_t examined = 0, found = 0;
        while (examined < candidates && found < cycle.nodesToFind) {
            const uint32_t pos = (start + examined) % candidates;
            // In the node tree's order, a node without a free device for a pod that needs one
            // cannot fit (the zero-free shortcut of filterNode): pass every such node up to the
            // next that has one, or to the end of the list, at once. Not when nothing fits:
            // the message then needs each node's reason.
            if (skipUnlisted && !sc.isListed(pos)) {
                examined += std::min(sc.nextListed(pos, candidates) - pos, candidates - examined);
                continue;
            }
            const uint32_t idx = list ? (*list)[pos] : pos;
            ++examined;
            allocator::Attempt a;
            bool feasible = false, withoutAttempt = false;
            if (const auto known = d.draVerdicts.find(whole, idx)) {
                feasible = *known < 0;
                withoutAttempt = true;
                usedRemembered = true;
            } else {
                const int timedOut = cycle.draHistogram[kDraTimedOutIndex];
                cycle.verdictRemembered = false;
                feasible = d.filterNode(cycle, idx, a);
                if (!cycle.fatal.empty())
                    break;
                withoutAttempt = cycle.verdictRemembered;
                if (whole && cycle.draHistogram[kDraTimedOutIndex] == timedOut)
                    d.draVerdicts.store(whole, idx, feasible ? -1 : 0);
            }
            if (!feasible)
                continue;
            ++found;
            if (best < 0
                || std::make_pair(-sc.score[idx], idx) < std::make_pair(-sc.score[best], uint32_t(best))) {
                best = idx;
                bestAttempt = std::move(a);
                bestWithoutAttempt = needsAttempt && withoutAttempt;
            }
        }
        if (found == 0 && (usedRemembered || skipUnlisted) && cycle.fatal.empty()) {
            whole = {};
            skipUnlisted = false;
            cycle.histogram.clear();
            cycle.draHistogram.fill(0);
            cycle.resolvable.clear();
            continue;
        }
        cycle.examinedCount = examined;
        cycle.feasibleCount = found;
        if (best >= 0 && cycle.fatal.empty()) {
            cycle.chosen = best;
            // A remembered verdict comes without devices: the allocator runs once more on the
            // chosen node, in the same state, and finds what it found when the verdict was kept.
            cycle.chosenAttempt = bestWithoutAttempt
                ? d.alloc->allocate(d.nodes[size_t(best)].node, d.viewOf(uint32_t(best)))
                : std::move(bestAttempt);
        }
        return examined;
    }
}

} // namespace drasim::scheduler
