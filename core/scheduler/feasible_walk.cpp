// SPDX-License-Identifier: Apache-2.0
// The search of a cycle that stops after numFeasibleNodesToFind feasible nodes (node_tree.h), when
// the profile's scores follow node usage: walk the nodes in the node tree's order, keep the best
// by usage score, and remember each node's whole Filter verdict for pods that filter alike, so
// that the next such pod passes the hundreds of nodes it must count without filtering them again.
// A remembered verdict is valid while its node's stamp is unchanged: a pod bound or gone, a
// device allocated or freed on it (DraVerdictCache::touch), or anything larger (reset).
#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <utility>

#include "core/api/key_text.h"
#include "core/scheduler/cluster_impl.h"

namespace drasim::scheduler {

namespace {

void put(std::string& out, const std::string& s)
{
    api::appendKeyField(out, s);
}

// A number as its eight bytes: fixed width needs no separator, and the key is only compared,
// never shown, so no decimal text is made for every cycle.
void putNumber(std::string& out, int64_t v)
{
    char bytes[sizeof v];
    std::memcpy(bytes, &v, sizeof v);
    out.append(bytes, sizeof v);
}

void putSelector(std::string& out, const api::NodeSelector& selector)
{
    for (const auto& term : selector.terms) {
        api::appendKeyRequirements(out, term.matchExpressions);
        api::appendKeyRequirements(out, term.matchFields);
        out += '/';
    }
}

/// What filterNode's counts looked like before it ran on a node, to tell what it added.
struct CountsBefore
{
    std::array<int, 4> dra;
    size_t resolvable;
    template <class Cycle>
    explicit CountsBefore(const Cycle& cycle)
        : dra(cycle.draHistogram)
        , resolvable(cycle.resolvable.size())
    { }
};

/// The whole verdict to remember for a node filterNode just ran on: -1 when it fits, else the
/// failure's verdict (what the node added to the counts). Nothing when it is not to be kept: a
/// reason that depends on the clock, or a rejection these counts do not tell.
template <class Cycle>
std::optional<int> wholeVerdict(
    DraVerdictCache& cache, const Cycle& cycle, bool fits, const CountsBefore& before)
{
    if (fits)
        return -1;
    FilterFailure failure;
    failure.reasons = cycle.nodeFilterReasons;
    for (size_t i = 0; i < before.dra.size(); ++i)
        if (cycle.draHistogram[i] != before.dra[i])
            failure.dra = int(i);
    if (failure.dra == int(kDraTimedOutIndex) || failure.reasons.empty() == (failure.dra < 0))
        return std::nullopt;
    failure.resolvable = cycle.resolvable.size() > before.resolvable;
    return cache.failureVerdict(failure);
}

/// The failures one walk read from remembered verdicts, counted per verdict and added to the
/// cycle's reason counts once at the end rather than node by node.
class RememberedFailures
{
public:
    void add(int verdict, int count = 1)
    {
        // Runs of nodes failing alike are the rule.
        if (!m_counts.empty() && m_counts.back().first == verdict) {
            m_counts.back().second += count;
            return;
        }
        for (auto& [v, n] : m_counts)
            if (v == verdict) {
                n += count;
                return;
            }
        m_counts.emplace_back(verdict, count);
    }
    void clear() { m_counts.clear(); }
    /// Whether `pred` holds for a verdict counted.
    template <class Pred> bool any(Pred&& pred) const
    {
        return std::any_of(m_counts.begin(), m_counts.end(), [&](const auto& c) { return pred(c.first); });
    }
    template <class Cycle> void addTo(Cycle& cycle, const DraVerdictCache& cache) const
    {
        for (const auto& [v, n] : m_counts) {
            const FilterFailure& f = cache.failure(v);
            for (const auto& r : f.reasons)
                cycle.histogram[r] += n;
            if (f.dra >= 0)
                cycle.draHistogram[size_t(f.dra)] += n;
        }
    }

private:
    std::vector<std::pair<int, int>> m_counts;
};

/// DraVerdictCache::unknownWhereNoneFits over the node tree's order, 64 places at a time from the
/// slot's bits: the nodes without a valid verdict (in that order), when none with one fits and at
/// most `limit` lack one.
template <class Impl>
std::optional<std::vector<uint32_t>> unknownByPlace(const Impl& d, DraVerdictCache::Slot whole, size_t limit)
{
    const uint32_t m = uint32_t(d.scanOrder.size());
    std::vector<uint32_t> unknown;
    for (uint32_t w = 0; w * 64 < m; ++w) {
        const uint32_t len = std::min<uint32_t>(64, m - w * 64);
        const uint64_t places = len == 64 ? ~uint64_t(0) : (uint64_t(1) << len) - 1;
        if (d.draVerdicts.fitsWord(whole, w) & places)
            return std::nullopt;
        for (uint64_t u = ~d.draVerdicts.knownWord(whole, w) & places; u; u &= u - 1) {
            if (unknown.size() == limit)
                return std::nullopt;
            unknown.push_back(d.scanOrder[w * 64 + uint32_t(__builtin_ctzll(u))]);
        }
    }
    return unknown;
}

/// The walk over every node of a pod that most likely fits nowhere: when no remembered verdict
/// fits and only a few nodes changed since theirs were kept, those few are filtered, and then
/// every node's failure is read from its verdict at the cost of an array access. False, with the
/// cycle's counts as they were, when that is not so (a node fits, a verdict cannot be kept, an
/// error): the node-by-node walk then decides. The nodes are counted in index order, or, with
/// `order` (all the nodes, as the node tree's order is), from its place `start` on and around:
/// the nodes where preemption may help are then listed as the node-by-node walk lists them.
template <class Impl, class Cycle>
bool walkWhereNothingFits(Impl& d, Cycle& cycle, DraVerdictCache::Slot whole, uint32_t candidates,
    const std::vector<uint32_t>* order = nullptr, uint32_t start = 0)
{
    const size_t limit = std::max<size_t>(8, candidates / 8);
    const auto unknown = order ? unknownByPlace(d, whole, limit)
                               : d.draVerdicts.unknownWhereNoneFits(whole, candidates, limit);
    if (!unknown)
        return false;
    const auto histogram = cycle.histogram;
    const auto draHistogram = cycle.draHistogram;
    const size_t resolvable = cycle.resolvable.size();
    // The few changed nodes are filtered for their verdicts only: every node is counted below.
    bool allFail = true;
    for (const uint32_t idx : *unknown) {
        allocator::Attempt a;
        const CountsBefore before(cycle);
        const bool fits = d.filterNode(cycle, idx, a);
        const auto verdict
            = cycle.fatal.empty() ? wholeVerdict(d.draVerdicts, cycle, fits, before) : std::nullopt;
        if (!verdict || *verdict < 0) {
            allFail = false;
            break;
        }
        d.draVerdicts.store(whole, idx, *verdict);
    }
    cycle.histogram = histogram;
    cycle.draHistogram = draHistogram;
    cycle.resolvable.resize(resolvable);
    if (!allFail) {
        cycle.fatal.clear();
        return false;
    }
    // The counts do not depend on the order (`order` holds every node): index order, the
    // verdicts' own. Only the nodes where preemption may help are listed in the walk's order.
    RememberedFailures remembered;
    if (candidates == d.draVerdicts.nodeCount()) {
        // Every node: the slot keeps the counts per verdict as its verdicts are stored.
        const auto& counts = d.draVerdicts.failureCounts(whole);
        for (size_t v = 0; v < counts.size(); ++v)
            if (counts[v] > 0)
                remembered.add(int(v), counts[v]);
    } else {
        int run = -1; // the verdict of the nodes just counted, and how many in a row
        int length = 0;
        for (uint32_t idx = 0; idx < candidates; ++idx) {
            const int verdict = d.draVerdicts.knownVerdict(whole, idx);
            if (verdict == run) {
                ++length;
                continue;
            }
            if (length > 0)
                remembered.add(run, length);
            run = verdict;
            length = 1;
        }
        if (length > 0)
            remembered.add(run, length);
    }
    if (remembered.any([&](int verdict) { return d.draVerdicts.failure(verdict).resolvable; })) {
        auto list = [&](uint32_t idx) {
            if (d.draVerdicts.failure(d.draVerdicts.knownVerdict(whole, idx)).resolvable)
                cycle.resolvable.push_back(idx);
        };
        for (uint32_t pos = order ? start : 0; pos < candidates; ++pos)
            list(order ? (*order)[pos] : pos);
        for (uint32_t pos = 0; order && pos < start; ++pos)
            list((*order)[pos]);
    }
    remembered.addTo(cycle, d.draVerdicts);
    cycle.examinedCount = candidates;
    cycle.feasibleCount = 0;
    return true;
}

} // namespace

std::string Cluster::Impl::Verdicts::filterKeyOf(const Impl& d, const Cycle& cycle, const std::string& draKey)
{
    // Pods nominated to a node take room there from some pods and not others (by priority):
    // verdicts are not shared while any nomination stands.
    if (!d.nominatedOn.empty() || cycle.dryRunUsage || !cycle.backed.empty())
        return {};
    // Spread and inter-pod verdicts depend on the pods running elsewhere: never remembered.
    if (cycle.placement && (cycle.placement->filterSpread || cycle.placement->filterAffinity))
        return {};
    if (!cycle.podClaims.empty() && draKey.empty())
        return {};
    // Made for every cycle that walks by usage: room for the usual key at once, not by doubling.
    std::string key;
    key.reserve(draKey.size() + 96);
    if (!cycle.podClaims.empty())
        key = draKey;
    // What passesNodeFilters reads of the pod: tolerations, node selector, required node
    // affinity, and the requests.
    const api::PodSpec& spec = cycle.pod.spec;
    key += "|tol";
    api::appendKeyTolerations(key, spec.tolerations);
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
    putNumber(key, r.milliCpu);
    putNumber(key, r.memory);
    putNumber(key, r.ephemeralStorage);
    for (const auto& [name, v] : r.scalar) {
        put(key, name);
        putNumber(key, v);
    }
    return key;
}

std::optional<uint32_t> Cluster::Impl::Verdicts::walkByWords(
    Impl& d, Cycle& cycle, DraVerdictCache::Slot whole, uint32_t start)
{
    const SigCache& sc = *cycle.usageOrder;
    const uint32_t m = uint32_t(d.scanOrder.size());
    const uint32_t toFind = cycle.nodesToFind;
    auto low = [](uint32_t n) { return n >= 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1; };
    // The window: places from `start` until the toFind-th that fits. A place not listed (no free
    // device for a pod that needs one) does not fit; a listed one without a remembered verdict
    // is filtered now and remembered.
    uint32_t examined = 0, found = 0;
    bool everyListedFits = true;
    while (examined < m && found < toFind) {
        const uint32_t pos = (start + examined) % m;
        const uint32_t w = pos / 64, shift = pos % 64;
        const uint32_t len = std::min({ 64 - shift, m - pos, m - examined });
        const uint64_t listedW = (sc.listed[w] >> shift) & low(len);
        for (uint64_t unknown = listedW & ~(d.draVerdicts.knownWord(whole, w) >> shift); unknown;
             unknown &= unknown - 1) {
            const uint32_t idx = d.scanOrder[pos + uint32_t(__builtin_ctzll(unknown))];
            allocator::Attempt a;
            const CountsBefore before(cycle);
            cycle.verdictRemembered = false;
            const bool fits = d.filterNode(cycle, idx, a);
            if (!cycle.fatal.empty()
                || cycle.draHistogram[kDraTimedOutIndex] != before.dra[kDraTimedOutIndex])
                return std::nullopt;
            if (const auto verdict = wholeVerdict(d.draVerdicts, cycle, fits, before)) {
                d.draVerdicts.store(whole, idx, *verdict);
                if (fits && !cycle.verdictRemembered && !cycle.toAllocate.empty())
                    d.draVerdicts.keepDevices(whole, idx, std::move(a));
            }
        }
        const uint64_t fitsW = listedW & (d.draVerdicts.fitsWord(whole, w) >> shift);
        // Most words of a filling cluster hold no fitting place; a build for the baseline x86-64
        // counts bits by a library call, which an empty word does not need.
        const uint32_t count = fitsW ? uint32_t(__builtin_popcountll(fitsW)) : 0;
        if (found + count < toFind) {
            everyListedFits = everyListedFits && (listedW & ~fitsW) == 0;
            found += count;
            examined += len;
            continue;
        }
        // The window ends at the (toFind − found)-th place of this stretch that fits.
        uint64_t rest = fitsW;
        for (uint32_t i = 1; i < toFind - found; ++i)
            rest &= rest - 1;
        const uint32_t last = uint32_t(__builtin_ctzll(rest));
        everyListedFits = everyListedFits && (listedW & ~fitsW & low(last + 1)) == 0;
        examined += last + 1;
        found = toFind;
    }
    // Nothing fits: the message needs every node's own reasons, which the node-by-node walk
    // collects.
    if (found == 0)
        return std::nullopt;
    std::pair<int64_t, uint32_t> best = SigCache::kNoneListed;
    if (everyListedFits) {
        // Every listed node of the window fits: the best of the window is the score order's.
        const uint32_t end = start + examined;
        best = end <= m ? sc.bestIn(start, end) : std::min(sc.bestIn(start, m), sc.bestIn(0, end - m));
    } else {
        for (uint32_t k = 0; k < examined;) {
            const uint32_t pos = (start + k) % m;
            const uint32_t w = pos / 64, shift = pos % 64;
            const uint32_t len = std::min({ 64 - shift, m - pos, examined - k });
            for (uint64_t fitsW = (sc.listed[w] & d.draVerdicts.fitsWord(whole, w)) >> shift & low(len);
                 fitsW; fitsW &= fitsW - 1) {
                const uint32_t idx = d.scanOrder[pos + uint32_t(__builtin_ctzll(fitsW))];
                best = std::min(best, std::make_pair(-sc.score[idx], idx));
            }
            k += len;
        }
    }
    cycle.examinedCount = examined;
    cycle.feasibleCount = found;
    cycle.chosen = best.second;
    // The devices: those kept with the chosen node's verdict, else the allocator once more on the
    // node, in the state its verdict saw (it finds what it found then).
    if (!cycle.toAllocate.empty()) {
        auto kept = d.draVerdicts.takeDevices(whole, best.second);
        cycle.chosenAttempt
            = kept ? std::move(*kept) : d.alloc->allocate(d.nodes[best.second].node, d.viewOf(best.second));
    }
    return examined;
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
    if (whole && list == &d.scanOrder) {
        if (const auto examined = walkByWords(d, cycle, whole, start))
            return *examined;
        // The node-by-node walk counts every reason afresh, most often because nothing fits:
        // then it must pass every node, and mostly reads each one's remembered failure.
        cycle.histogram.clear();
        cycle.draHistogram.fill(0);
        cycle.resolvable.clear();
        cycle.fatal.clear();
        skipUnlisted = false;
        if (candidates == d.scanOrder.size()
            && walkWhereNothingFits(d, cycle, whole, candidates, list, start))
            return candidates;
    }
    if (whole && !list && walkWhereNothingFits(d, cycle, whole, candidates))
        return candidates;
    RememberedFailures remembered;
    // Two passes at most: a walk that finds nothing after skipping nodes walks again without
    // skipping, so that the message counts every node's own reasons (a remembered failure
    // carries them).
    for (;;) {
        int64_t best = -1;
        allocator::Attempt bestAttempt;
        bool bestWithoutAttempt = false;
        uint32_t examined = 0, found = 0;
        // A feasible node: the best so far when its usage score is (ties: the lower index).
        // `attempt` holds its devices, or is null when the verdict was remembered without them.
        auto feasible = [&](uint32_t idx, allocator::Attempt* attempt, bool withoutAttempt) {
            ++found;
            if (best >= 0
                && std::make_pair(-sc.score[idx], idx) >= std::make_pair(-sc.score[best], uint32_t(best)))
                return;
            best = idx;
            bestAttempt = attempt ? std::move(*attempt) : allocator::Attempt {};
            bestWithoutAttempt = needsAttempt && withoutAttempt;
        };
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
            if (const auto known = d.draVerdicts.find(whole, idx)) {
                if (*known < 0) {
                    feasible(idx, nullptr, true);
                } else {
                    remembered.add(*known);
                    if (d.draVerdicts.failure(*known).resolvable)
                        cycle.resolvable.push_back(idx);
                }
                continue;
            }
            allocator::Attempt a;
            const CountsBefore before(cycle);
            cycle.verdictRemembered = false;
            const bool fits = d.filterNode(cycle, idx, a);
            if (!cycle.fatal.empty())
                break;
            if (whole)
                if (const auto verdict = wholeVerdict(d.draVerdicts, cycle, fits, before))
                    d.draVerdicts.store(whole, idx, *verdict);
            if (fits)
                feasible(idx, &a, cycle.verdictRemembered);
        }
        if (found == 0 && skipUnlisted && cycle.fatal.empty()) {
            skipUnlisted = false;
            remembered.clear();
            cycle.histogram.clear();
            cycle.draHistogram.fill(0);
            cycle.resolvable.clear();
            continue;
        }
        remembered.addTo(cycle, d.draVerdicts);
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
