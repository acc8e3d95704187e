// SPDX-License-Identifier: Apache-2.0
// DefaultPreemption as kube-scheduler runs it after a failed Filter (see preemption.h for the
// upstream files). The dry runs change nothing in the cluster (each works on a copy of one node's
// usage); only the chosen candidate is acted on (victims marked, the preemptor nominated).
#include "core/scheduler/preemption.h"

#include <algorithm>
#include <limits>
#include <map>

#include "core/scheduler/pod_placement.h"

namespace drasim::scheduler {

namespace {

const char* const kNoVictims = "No preemption victims found for incoming pod";
const char* const kNotHelpful = "Preemption is not helpful for scheduling";

// The dry run starts at a random node of the potential ones (upstream: rand.Int31n). Here the
// offset is drawn from the seed, the pod and the number of bindings so far: reproducible, and
// untouched by a rolled-back transaction, which restores the binding count.
size_t preemptionOffset(uint64_t seed, const std::string& podKey, uint64_t bindings, size_t n)
{
    uint64_t h = seed ^ (0x9E3779B97F4A7C15ull * (bindings + 1));
    for (unsigned char ch : podKey)
        h = (h ^ ch) * 1099511628211ull;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 27;
    return size_t(h % n);
}

} // namespace

// A lower-priority pod on the node is being deleted (a victim of a preemption).
bool Cluster::Impl::Preemption::terminatingBelow(const Impl& d, const std::string& node, int32_t priority)
{
    auto ni = d.nodeIndex.find(node);
    if (ni == d.nodeIndex.end())
        return false;
    for (const auto* ps : d.podsOnNode[ni->second])
        if (ps->pub.terminating && ps->pub.priority < priority)
            return true;
    return false;
}

size_t Cluster::Impl::Preemption::candidatesWanted(size_t potentialNodes, const SchedulerProfile& profile)
{
    // The percentage rounds down; the configuration's validation keeps both non-negative and not
    // both zero.
    size_t n = potentialNodes * size_t(profile.minCandidateNodesPercentage) / 100;
    n = std::max<size_t>(n, size_t(profile.minCandidateNodesAbsolute));
    return std::min(n, potentialNodes);
}

int32_t Cluster::Impl::Preemption::victimPriority(const Impl& d, const PodState& pod, bool groupAware)
{
    if (!groupAware || pod.groupKey.empty())
        return pod.pub.priority;
    auto it = d.groupPolicies.find(pod.groupKey);
    return it != d.groupPolicies.end() ? it->second.priority : pod.pub.priority;
}

bool Cluster::Impl::Preemption::anyBelow(const Impl& d, int32_t priority, bool groupAware)
{
    if (!groupAware || d.groupPolicies.empty())
        return !d.boundPriorities.empty() && d.boundPriorities.begin()->first < priority;
    for (const auto& [key, ps] : d.bound)
        if (victimPriority(d, ps, true) < priority)
            return true;
    return false;
}

bool Cluster::Impl::Preemption::moreImportant(const PodState* a, const PodState* b) const
{
    const int32_t pa = priorityOf(a), pb = priorityOf(b);
    if (pa != pb)
        return pa > pb;
    // The pod that has run longer is the more important one (util.MoreImportantPod). Upstream's
    // sort is not stable; binding order decides what it leaves to chance.
    if (a->startTime != b->startTime)
        return a->startTime < b->startTime;
    return a->seq < b->seq;
}

size_t Cluster::Impl::Preemption::pickOne(const std::vector<Candidate>& candidates) const
{
    // Each criterion keeps the candidates with the best score; the next one breaks their ties.
    using Score = double;
    auto highest = [this](const Candidate& c) { return priorityOf(c.victims.front()); };
    const std::vector<std::function<Score(const Candidate&)>> criteria = {
        // Fewest PodDisruptionBudget violations.
        [](const Candidate& c) { return -Score(c.budgetViolations); },
        // The lowest priority of the most important victim.
        [&](const Candidate& c) { return -Score(highest(c)); },
        // The smallest sum of priorities, each shifted by 2^31 so that negative priorities do not
        // make more victims look cheaper.
        [this](const Candidate& c) {
            int64_t sum = 0;
            for (const auto* v : c.victims)
                sum += int64_t(priorityOf(v)) + (int64_t(1) << 31);
            return -Score(sum);
        },
        // The fewest victims.
        [](const Candidate& c) { return -Score(c.victims.size()); },
        // The latest start among the victims of the highest priority (GetEarliestPodStartTime).
        [&](const Candidate& c) {
            double earliest = std::numeric_limits<double>::infinity();
            for (const auto* v : c.victims)
                if (priorityOf(v) == highest(c))
                    earliest = std::min(earliest, v->startTime);
            return Score(earliest);
        },
    };
    std::vector<size_t> left(candidates.size());
    for (size_t i = 0; i < left.size(); ++i)
        left[i] = i;
    for (const auto& score : criteria) {
        std::vector<size_t> best;
        Score top = -std::numeric_limits<Score>::infinity();
        for (size_t i : left) {
            const Score s = score(candidates[i]);
            if (s > top) {
                top = s;
                best.clear();
            }
            if (s == top)
                best.push_back(i);
        }
        left = std::move(best);
        if (left.size() == 1)
            break;
    }
    return left.front();
}

bool Cluster::Impl::Preemption::fits(uint32_t idx)
{
    allocator::Attempt attempt;
    const bool ok = d.filterNode(cycle, idx, attempt);
    // The dry run never binds: an allocator error found on the way is this node's status only.
    cycle.fatal.clear();
    return ok;
}

Cluster::Impl::Preemption::DryRunPlacement::DryRunPlacement(Preemption& preemption, uint32_t node)
    : p(preemption)
    , idx(node)
    , original(preemption.cycle.placement)
{
    if (!original || (!original->filterSpread && !original->filterAffinity))
        return;
    // DryRunPreemption clones the cycle state for each node it examines.
    copy = original->clone();
    p.cycle.placement = copy;
}

Cluster::Impl::Preemption::DryRunPlacement::~DryRunPlacement()
{
    p.cycle.placement = original;
}

void Cluster::Impl::Preemption::DryRunPlacement::update(const PodState* pod, int delta)
{
    // A pod loaded without the plugins' view of it has none of their labels or terms to count.
    if (copy && pod->placement)
        copy->updateWithPod(
            *pod->placement, p.cycle.pod, p.d.nodes[idx].node, idx, p.d.placementIndex, delta);
}

std::optional<Cluster::Impl::Preemption::UnitKey> Cluster::Impl::Preemption::unitOf(
    const Impl& d, const PodState& pod)
{
    if (pod.groupKey.empty())
        return std::nullopt;
    auto it = d.groupPolicies.find(pod.groupKey);
    if (it == d.groupPolicies.end())
        return std::nullopt;
    const PodGroupPolicy& p = it->second;
    // A member of a hierarchy goes with the highest disruptionMode all group above it
    // (kubernetes/kubernetes#140634: an all CompositePodGroup's whole subtree is one victim).
    if (!p.unitKey.empty())
        return UnitKey { p.unitKey, p.unitComposite };
    if (p.disruptAll)
        return UnitKey { it->first, false };
    return std::nullopt;
}

std::optional<Cluster::Impl::Preemption::UnitKey> Cluster::Impl::Preemption::wholeGroupOf(
    const PodState* pod) const
{
    if (!d.options.podGroupUnitsInPreemption)
        return std::nullopt;
    return unitOf(d, *pod);
}

const Cluster::Impl::Preemption::GroupMembers& Cluster::Impl::Preemption::membersByGroup()
{
    if (!members) {
        members.emplace();
        for (const auto& [key, ps] : d.bound)
            if (!ps.groupKey.empty() && !ps.pub.terminating)
                if (const auto unit = unitOf(d, ps))
                    (*members)[*unit].push_back(&ps);
        for (auto& [group, list] : *members)
            std::sort(list.begin(), list.end(),
                [](const PodState* a, const PodState* b) { return a->seq < b->seq; });
    }
    return *members;
}

std::vector<Cluster::Impl::Preemption::Unit> Cluster::Impl::Preemption::unitsOf(
    const std::vector<const PodState*>& potential)
{
    std::vector<Unit> units;
    std::map<UnitKey, size_t> byGroup; // whole-group units: key -> index in units
    for (const auto* ps : potential) {
        const std::optional<UnitKey> whole = wholeGroupOf(ps);
        if (!whole) {
            units.push_back(Unit { { ps }, {} });
            continue;
        }
        auto [it, fresh] = byGroup.emplace(*whole, units.size());
        if (!fresh) {
            units[it->second].onNode.push_back(ps);
            continue;
        }
        Unit u { { ps }, {} };
        const auto& groups = membersByGroup();
        if (auto g = groups.find(*whole); g != groups.end())
            for (const PodState* other : g->second)
                if (other->nodeIdx != ps->nodeIdx)
                    u.elsewhere.push_back(other);
        units.push_back(std::move(u));
    }
    return units;
}

void Cluster::Impl::Preemption::splitByBudget(const std::vector<Unit>& units,
    std::vector<const Unit*>& violating, std::vector<const Unit*>& clean) const
{
    std::vector<int32_t> left = allowed;
    for (const auto& u : units) {
        bool violates = false;
        for (const auto* list : { &u.onNode, &u.elsewhere })
            for (const auto* ps : *list)
                violates = violatesBudget(d, ps, left) || violates;
        (violates ? violating : clean).push_back(&u);
    }
}

void Cluster::Impl::Preemption::addVictims(const Unit& u, bool violatesBudgets, Candidate& out)
{
    for (const auto* list : { &u.onNode, &u.elsewhere })
        for (const auto* ps : *list) {
            out.victims.push_back(ps);
            out.budgetViolations += violatesBudgets ? 1 : 0;
        }
}

bool Cluster::Impl::Preemption::selectVictims(
    uint32_t idx, std::vector<const PodState*> potential, Candidate& out)
{
    const auto byImportance = [this](const PodState* a, const PodState* b) { return moreImportant(a, b); };
    // The dry run works on a copy of the node's usage that Filter reads for this node only: no
    // change of the cluster, so nothing to undo and no score cache to update.
    NodeUsage usage = d.nodes[idx].usage;
    auto charge = [&usage](const PodRequests& req, int sign) {
        usage.requested.add(req.requests, sign);
        usage.nonZeroMilliCpu += sign * req.nonZeroMilliCpu;
        usage.nonZeroMemory += sign * req.nonZeroMemory;
        usage.pods += sign;
    };
    DryRunPlacement placement(*this, idx);
    for (const auto* v : potential) {
        charge(v->req, -1);
        placement.update(v, -1);
    }
    cycle.dryRunUsage = &usage;
    cycle.dryRunNode = idx;
    const auto draBefore = cycle.draHistogram;
    if (!fits(idx)) {
        // Not even without these pods does the node take the preemptor: its status says why.
        if (!cycle.nodeFilterReasons.empty() && cycle.draHistogram == draBefore) {
            for (const auto& r : cycle.nodeFilterReasons)
                ++statuses[r];
        } else {
            for (size_t i = 0; i < cycle.draHistogram.size(); ++i)
                if (cycle.draHistogram[i] != draBefore[i])
                    ++statuses[kDraReasons[i]];
        }
        cycle.dryRunUsage = nullptr;
        return false;
    }
    std::sort(potential.begin(), potential.end(), byImportance);
    // Reprieve as many as possible: first the units whose eviction would violate a budget, then
    // the others, each group most important first; each goes back onto the node and stays there
    // if the preemptor still fits. A unit is a pod, or a whole disruptionMode all PodGroup.
    const std::vector<Unit> units = unitsOf(potential);
    std::vector<const Unit*> violating, clean;
    splitByBudget(units, violating, clean);
    out.node = idx;
    bool elsewhere = false;
    for (const auto* group : { &violating, &clean })
        for (const Unit* u : *group) {
            for (const auto* ps : u->onNode) {
                charge(ps->req, +1);
                placement.update(ps, +1);
            }
            if (fits(idx))
                continue;
            for (const auto* ps : u->onNode) {
                charge(ps->req, -1);
                placement.update(ps, -1);
            }
            addVictims(*u, group == &violating, out);
            elsewhere = elsewhere || !u->elsewhere.empty();
        }
    if ((!violating.empty() && !clean.empty()) || elsewhere)
        std::sort(out.victims.begin(), out.victims.end(), byImportance);
    cycle.dryRunUsage = nullptr;
    return true;
}

bool Cluster::Impl::Preemption::selectVictimsReleasingClaims(
    uint32_t idx, std::vector<const PodState*> potential, Candidate& out)
{
    const auto byImportance = [this](const PodState* a, const PodState* b) { return moreImportant(a, b); };
    std::sort(potential.begin(), potential.end(), byImportance);
    members.reset(); // an earlier node's checks may have moved the states it points to
    const std::vector<Unit> units = unitsOf(potential);
    std::vector<const Unit*> violating, clean;
    splitByBudget(units, violating, clean);
    // Deleting a pod moves its state within the cluster: the checks name pods by key, and the
    // victims' states are looked up again once every check is rolled back.
    std::vector<std::vector<std::string>> ordered; // units' pods on this node: violating, then clean
    std::vector<std::vector<std::string>> whole; // each unit's pods, those elsewhere included
    std::vector<bool> breaksBudget;
    for (const auto* group : { &violating, &clean })
        for (const Unit* u : *group) {
            std::vector<std::string> keys;
            for (const auto* ps : u->onNode)
                keys.push_back(ps->pub.key);
            std::vector<std::string> all = keys;
            for (const auto* ps : u->elsewhere)
                all.push_back(ps->pub.key);
            ordered.push_back(std::move(keys));
            whole.push_back(std::move(all));
            breaksBudget.push_back(group == &violating);
        }
    std::vector<bool> kept(ordered.size(), false);
    std::vector<std::string> reasons; // why the last check failed: a node filter's, else DRA's
    auto fitsKeeping = [&](size_t extra) {
        DryRunPlacement placement(*this, idx);
        for (size_t i = 0; i < ordered.size(); ++i)
            if (!kept[i] && i != extra)
                for (const auto& key : ordered[i])
                    placement.update(&d.bound.at(key), -1);
        d.undo.begin();
        for (size_t i = 0; i < ordered.size(); ++i)
            if (!kept[i] && i != extra)
                for (const auto& key : ordered[i])
                    d.podFinished(key);
        const bool ok = fits(idx);
        reasons = cycle.nodeFilterReasons;
        d.undo.rollback();
        return ok;
    };
    if (!fitsKeeping(ordered.size())) {
        if (reasons.empty())
            reasons.push_back(kDraReasons[0]);
        for (const auto& r : reasons)
            ++statuses[r];
        return false;
    }
    std::vector<size_t> victims;
    for (size_t i = 0; i < ordered.size(); ++i) {
        if (fitsKeeping(i))
            kept[i] = true;
        else
            victims.push_back(i);
    }
    // A pod's state may have moved while the checks deleted and restored it: look it up again.
    out.node = idx;
    for (size_t i : victims)
        for (const auto& key : whole[i]) {
            out.victims.push_back(&d.bound.at(key));
            out.budgetViolations += breaksBudget[i] ? 1 : 0;
        }
    std::sort(out.victims.begin(), out.victims.end(), byImportance);
    return true;
}

std::vector<int32_t> Cluster::Impl::Preemption::budgetAllowances(const Impl& d)
{
    std::vector<api::PdbPod> pods;
    pods.reserve(d.bound.size());
    for (const auto& [seq, key] : d.bindOrder) {
        const PodState& ps = d.bound.at(key);
        api::PdbPod p;
        p.name = ps.name;
        p.namespace_ = std::string_view(key).substr(0, key.find('/'));
        p.labels = ps.labels.get();
        p.ownerKind = ps.ownerKind;
        p.ownerName = ps.ownerName;
        p.healthy = !ps.pub.terminating;
        pods.push_back(p);
    }
    return api::disruptionsAllowed(d.budgets, pods, d.controllers);
}

bool Cluster::Impl::Preemption::violatesBudget(const Impl& d, const PodState* pod, std::vector<int32_t>& left)
{
    // A pod without labels matches no budget; a budget with a missing or empty selector matches
    // nothing here (unlike the disruption controller); a pod the API server already counted as
    // disrupted (status.disruptedPods) takes nothing from the budget.
    if (left.empty() || !pod->labels || pod->labels->empty())
        return false;
    const std::string_view ns = std::string_view(pod->pub.key).substr(0, pod->pub.key.find('/'));
    bool violated = false;
    for (size_t i = 0; i < d.budgets.size(); ++i) {
        const auto& b = d.budgets[i];
        const std::string bns = b.meta.namespace_.empty() ? std::string("default") : b.meta.namespace_;
        if (bns != ns || !b.selector || b.selector->empty() || !b.selector->matches(*pod->labels))
            continue;
        if (b.status && b.status->disruptedPods.count(pod->name))
            continue;
        if (--left[i] < 0)
            violated = true;
    }
    return violated;
}

std::string Cluster::Impl::Preemption::victimList(const std::vector<const PodState*>& victims) const
{
    std::string text;
    for (size_t i = 0; i < victims.size(); ++i)
        text += (i ? ", " : "") + victims[i]->pub.key + " (priority " + std::to_string(priorityOf(victims[i]))
            + ")";
    return text;
}

void Cluster::Impl::Preemption::note(uint32_t idx, std::string text)
{
    if (cycle.diagnosis)
        perNode[idx] = std::move(text);
}

// For `explain`: every node gets what the dry run found there; nodes a filter rejected as
// unresolvable were never candidates, and on a large cluster the dry run may stop before it
// reaches every potential node (the candidate sample is big enough).
void Cluster::Impl::Preemption::notePerNode(const std::vector<uint32_t>& potential)
{
    if (!cycle.diagnosis)
        return;
    std::map<std::string, uint32_t> byName;
    for (uint32_t idx = 0; idx < d.nodes.size(); ++idx)
        byName.emplace(d.nodes[idx].node.meta.name, idx);
    for (auto& n : cycle.diagnosis->nodes) {
        auto it = byName.find(n.node);
        if (it == byName.end())
            continue;
        const uint32_t idx = it->second;
        if (auto found = perNode.find(idx); found != perNode.end())
            n.preemption = found->second;
        else if (std::find(potential.begin(), potential.end(), idx) == potential.end())
            n.preemption = "not a candidate: evicting pods does not change what rejects the pod here";
        else
            n.preemption = "not examined: the dry run had found enough candidates";
    }
}

namespace {

// The message of a PostFilter that found no pod of lower priority anywhere: the same for every
// retry of a pod while the node counts stay, so the last one made is kept (per thread: studies
// run simulations on several).
const std::string& noVictimsMessage(size_t total, size_t potential)
{
    thread_local size_t madeTotal = std::numeric_limits<size_t>::max();
    thread_local size_t madePotential = std::numeric_limits<size_t>::max();
    thread_local std::string made;
    if (total != madeTotal || potential != madePotential) {
        std::map<std::string, int> statuses { { kNoVictims, int(potential) } };
        if (total > potential)
            statuses[kNotHelpful] = int(total - potential);
        made = "preemption: " + fitErrorMessage(total, statuses);
        madeTotal = total;
        madePotential = potential;
    }
    return made;
}

} // namespace

PreemptionResult Cluster::Impl::Preemption::postFilter(Impl& d, Cycle& cycle)
{
    PreemptionResult out;
    const int32_t priority = cycle.pod.spec.priority.value_or(0);
    const size_t total = d.nodes.size();
    // The dry runs filter nodes again, which adds to the cycle's node lists: take them first.
    const std::vector<uint32_t> potential = std::move(cycle.resolvable);
    cycle.resolvable.clear();
    // PodEligibleToPreemptOthers: a pod that says Never does not preempt; one already nominated waits while a
    // lower-priority pod on its nominated node is still terminating, unless that node no longer suits it at
    // all.
    if (cycle.pod.spec.preemptionPolicy == api::PreemptionPolicy::Never) {
        out.message = "preemption: not eligible due to preemptionPolicy=Never.";
        return out;
    }
    if (auto nom = d.nominations.find(cycle.podKey); nom != d.nominations.end()) {
        auto ni = d.nodeIndex.find(nom->second.node);
        const bool stillSuits = ni != d.nodeIndex.end()
            && std::find(potential.begin(), potential.end(), ni->second) != potential.end();
        if (stillSuits && terminatingBelow(d, nom->second.node, priority)) {
            out.nominatedNode = nom->second.node;
            out.message = "preemption: not eligible due to a terminating pod on the nominated node.";
            return out;
        }
    }
    if (!anyBelow(d, priority, d.options.podGroupUnitsInPreemption)) {
        // No pod runs below this one: no node has victims. The common case of a pending pod
        // retried after every change, answered without the dry run's state.
        out.message = noVictimsMessage(total, potential.size());
        Nominator::clear(d, cycle.podKey);
        return out;
    }
    Preemption p(d, cycle, priority);
    std::vector<Candidate> clean, violating;
    if (!d.budgets.empty() && !potential.empty())
        p.allowed = budgetAllowances(d);
    if (!potential.empty()) {
        const size_t n = potential.size();
        const size_t wanted = candidatesWanted(n, *cycle.profile);
        const size_t offset = preemptionOffset(d.options.seed, cycle.podKey, d.nextBindSeq, n);
        for (size_t i = 0; i < n; ++i) {
            const uint32_t idx = potential[(offset + i) % n];
            std::vector<const PodState*> lower;
            for (const auto* ps : d.podsOnNode[idx])
                if (p.priorityOf(ps) < priority)
                    lower.push_back(ps);
            if (lower.empty()) {
                ++p.statuses[kNoVictims];
                p.note(idx, "no pod of lower priority runs here");
                continue;
            }
            Candidate c;
            const bool found = d.options.whatIfDraPreemption
                ? p.selectVictimsReleasingClaims(idx, std::move(lower), c)
                : p.selectVictims(idx, std::move(lower), c);
            if (!found) {
                p.note(idx, "evicting every lower-priority pod here would not make room");
                continue;
            }
            p.note(idx, "would evict " + p.victimList(c.victims));
            auto& list = c.budgetViolations == 0 ? clean : violating;
            if (list.size() < wanted)
                list.push_back(std::move(c));
            if (!clean.empty() && clean.size() + violating.size() >= wanted)
                break;
        }
    }
    clean.insert(clean.end(), violating.begin(), violating.end());
    p.notePerNode(potential);
    if (clean.empty()) {
        p.statuses[kNotHelpful] += int(total - potential.size());
        if (p.statuses[kNotHelpful] == 0)
            p.statuses.erase(kNotHelpful);
        out.message = "preemption: " + fitErrorMessage(total, p.statuses);
        // The result nominates "" and so clears an earlier nomination.
        Nominator::clear(d, cycle.podKey);
        return out;
    }
    const Candidate& best = clean[p.pickOne(clean)];
    out.nominatedNode = d.nodes[best.node].node.meta.name;
    for (const auto* v : best.victims)
        out.victims.push_back(v->pub.key);
    out.budgetViolations = best.budgetViolations;
    p.actuate(out);
    return out;
}

std::string Cluster::Impl::Preemption::explain(
    const Impl& d, const Cycle& cycle, const PreemptionResult& r, bool draRejected)
{
    const int32_t priority = cycle.pod.spec.priority.value_or(0);
    const bool groupAware = d.options.podGroupUnitsInPreemption;
    if (!anyBelow(d, priority, groupAware))
        return "";
    std::string text = r.message;
    if (!r.victims.empty()) {
        text = "preemption: nominated node " + r.nominatedNode + ", evicting";
        for (size_t i = 0; i < r.victims.size(); ++i) {
            const PodState& v = d.bound.at(r.victims[i]);
            text += (i ? ", " : " ") + v.pub.key + " (priority "
                + std::to_string(victimPriority(d, v, groupAware)) + ")";
        }
    }
    if (d.options.whatIfDraPreemption)
        text += "\nwhat-if, not upstream: preemption may free DRA devices (KEP-5690)";
    else if (draRejected && r.victims.empty())
        text += "\npreemption cannot free DRA devices in Kubernetes 1.37: DynamicResources rejects a node "
                "as unresolvable, and its dry run keeps a victim's claims allocated (KEP-5690 proposes "
                "to change this)";
    return text;
}

// prepareCandidate: the victims are deleted (each gets DisruptionTarget and its grace period,
// which the caller times), lower-priority pods nominated to the node lose their nomination (they
// may no longer fit there), and the preemptor is nominated.
void Cluster::Impl::Preemption::actuate(const PreemptionResult& result)
{
    for (const auto& key : result.victims)
        d.undo.markTerminating(key);
    if (auto on = d.nominatedOn.find(result.nominatedNode); on != d.nominatedOn.end()) {
        std::vector<std::string> lower;
        for (const auto& key : on->second)
            if (d.nominations.at(key).priority < priority)
                lower.push_back(key);
        for (const auto& key : lower)
            Nominator::clear(d, key);
    }
    Nominator::set(d, cycle.podKey,
        Nomination { result.nominatedNode, priority, cycle.req, PodPlacement::ofBound(cycle) });
}

} // namespace drasim::scheduler
