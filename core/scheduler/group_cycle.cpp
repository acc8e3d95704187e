// SPDX-License-Identifier: Apache-2.0
// The PodGroup scheduling cycle of Kubernetes 1.37 (pkg/scheduler/algorithm_podgroup.go): the
// group's unscheduled members are tried one by one on one view of the cluster, each through the
// normal Filter and Score and assumed where it fits; the gang plugin's PlacementFeasible decides
// after each pod whether minCount can still be reached. With a topology constraint the same runs
// once per placement (the nodes sharing one value of the key), the feasible placements are
// scored (PodGroupPodsCount + NodeResourcesFit's bin packing over the placement) and the best one
// is kept. Everything tried is undone through the cluster's transactions.
#include "core/scheduler/group_cycle.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>

#include "core/scheduler/cluster_impl.h"
#include "core/scheduler/group_claim_cycle.h"
#include "core/scheduler/group_preemption.h"
#include "core/scheduler/pod_group.h"

namespace drasim::scheduler {

Feasibility placementFeasible(const PodGroupPolicy& group, int32_t scheduled, int32_t remaining)
{
    // Basic groups count as minCount 1 (gangscheduling.go getMinCount).
    const int32_t minCount = group.gang ? group.minCount : 1;
    if (scheduled + remaining < minCount)
        return Feasibility::Unschedulable;
    if (scheduled < minCount)
        return Feasibility::Wait;
    return Feasibility::Success;
}

std::string minCountMessage(const PodGroupPolicy& group, int32_t scheduled, int32_t remaining)
{
    const int32_t minCount = group.gang ? group.minCount : 1;
    const std::string counts
        = std::to_string(scheduled) + " scheduled, " + std::to_string(remaining) + " remaining";
    if (scheduled + remaining < minCount)
        return "minCount (" + std::to_string(minCount) + ") cannot be satisfied: " + counts;
    return "minCount (" + std::to_string(minCount) + ") is not yet satisfied: " + counts;
}

std::string domainShortfall(const std::string& topologyKey, const std::string& what,
    const std::vector<std::string>& names, const std::vector<int32_t>& held)
{
    std::vector<size_t> order(names.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return held[a] > held[b]; });
    std::string out = "no " + topologyKey + " domain holds " + what + ":";
    const std::string prefix = topologyKey + "=";
    for (size_t k = 0; k < order.size() && k < kShortfallShown; ++k) {
        const std::string& name = names[order[k]];
        out += (k ? ", " : " ") + name.substr(name.rfind(prefix, 0) == 0 ? prefix.size() : 0) + " "
            + std::to_string(held[order[k]]);
    }
    if (order.size() > kShortfallShown)
        out += ", and " + std::to_string(order.size() - kShortfallShown) + " more";
    return out;
}

// podGroupSchedulingDefaultAlgorithm: members in priority order (stable, so first-observed order
// breaks ties), PlacementFeasible before the first pod and after each one.
void Cluster::Impl::GroupCycle::run(Impl& d, const PodGroupPolicy& group, const std::vector<api::Pod>& pods,
    const std::vector<size_t>& order, int32_t alreadyScheduled, PlacementRun& run)
{
    run.placed = 0;
    run.members.clear();
    run.members.resize(pods.size());
    run.tried.assign(pods.size(), false);
    int32_t scheduled = alreadyScheduled;
    int32_t remaining = int32_t(pods.size());
    run.status = placementFeasible(group, scheduled, remaining);
    if (run.status == Feasibility::Unschedulable) {
        run.message = minCountMessage(group, scheduled, remaining);
        return;
    }
    run.preempting = 0;
    run.waiting = false;
    for (size_t i : order) {
        run.members[i] = d.schedule(pods[i], false);
        run.tried[i] = true;
        --remaining;
        const ScheduleResult& m = run.members[i];
        if (m.scheduled) {
            ++scheduled;
            ++run.placed;
        } else if (m.preemption && !m.preemption->victims.empty()) {
            // 1.36's podGroupPodSchedulingAlgorithm assumes a member whose PostFilter nominated a
            // node there, so PlacementFeasible counts it (requiresPreemption). Here it holds the
            // node through its nomination, which the later members' filters count.
            ++scheduled;
            ++run.preempting;
        }
        run.status = placementFeasible(group, scheduled, remaining);
        if (run.status == Feasibility::Unschedulable)
            break;
    }
    // The message of the last check, worded once rather than after every pod.
    run.message = minCountMessage(group, scheduled, remaining);
    if (run.status == Feasibility::Success && run.preempting > 0) {
        // "If any preemption is required, the whole pod group requires it to be feasible":
        // nothing binds, every member goes back nominated (podGroupSchedulingDefaultAlgorithm).
        run.status = Feasibility::Unschedulable;
        run.message = "pod group is waiting for preemption to complete";
        run.waiting = true;
        return;
    }
    // The framework wants at least one pod placed by the cycle itself.
    if (run.status == Feasibility::Success && run.placed == 0) {
        run.status = Feasibility::Unschedulable;
        run.message = "no pods were schedulable";
    }
}

// PlacementGenerate of the TopologyPlacement plugin: one placement per value of the key, in value
// order; nodes without the label are in none. With members bound already, only the placements
// holding all of their nodes are kept. Under a CompositePodGroup the placements are generated
// from the parent's placement (KEP-6012: constraints "resolved in a top-down manner"): each
// domain cut down to the parent's nodes, the empty ones dropped.
std::vector<Cluster::Impl::GroupCycle::Placement> Cluster::Impl::GroupCycle::placements(
    Impl& d, const std::string& key, const std::vector<uint32_t>& boundNodes, const Placement& within)
{
    std::vector<Placement> out;
    auto holds = [&](const std::vector<uint32_t>& nodes) {
        for (uint32_t b : boundNodes)
            if (!std::binary_search(nodes.begin(), nodes.end(), b))
                return false;
        return true;
    };
    if (key.empty()) {
        if (!within.nodes || holds(*within.nodes))
            out.push_back(within);
        return out;
    }
    auto cached = d.topologyDomains.find(key);
    if (cached == d.topologyDomains.end()) {
        std::map<std::string, std::vector<uint32_t>> byValue;
        for (uint32_t i = 0; i < d.nodes.size(); ++i) {
            const auto& labels = d.nodes[i].node.meta.labels;
            if (auto it = labels.find(key); it != labels.end())
                byValue[it->second].push_back(i);
        }
        // Kept under their placement names ("key=value"), which every cycle of the key would
        // otherwise write anew for each of its domains.
        std::vector<TopologyDomain> domains;
        for (auto& [value, nodes] : byValue)
            domains.push_back(TopologyDomain { key + "=" + value, std::move(nodes), {}, 0, false });
        cached = d.topologyDomains.emplace(key, std::move(domains)).first;
    }
    for (const TopologyDomain& domain : cached->second) {
        const auto& nodes = domain.nodes;
        Placement p { domain.name, &nodes, nullptr, &domain };
        if (within.nodes) {
            auto cut = std::make_shared<std::vector<uint32_t>>();
            std::set_intersection(nodes.begin(), nodes.end(), within.nodes->begin(), within.nodes->end(),
                std::back_inserter(*cut));
            if (cut->empty())
                continue;
            p.nodes = cut.get();
            p.owned = std::move(cut);
            p.domain = nullptr; // only part of the domain: its sums are not the placement's
        }
        if (holds(*p.nodes))
            out.push_back(std::move(p));
    }
    return out;
}

// What the placement bin packing reads, summed over the placement's nodes (ephemeral storage
// too, which only a profile's own fit scoring reads). A whole domain of a key keeps its sums until
// one of its nodes changes.
const NodeUsage& Cluster::Impl::GroupCycle::placementSums(const Impl& d, const Placement& p)
{
    if (p.domain && p.domain->summed && !d.draVerdicts.changedSince(p.domain->nodes, p.domain->summedAt))
        return p.domain->sum;
    thread_local NodeUsage scratch;
    NodeUsage& sum = p.domain ? p.domain->sum : scratch;
    sum = NodeUsage {};
    sum.allocatable = {};
    const size_t count = p.nodes ? p.nodes->size() : d.nodes.size();
    for (size_t k = 0; k < count; ++k) {
        const auto& u = d.nodes[p.nodes ? (*p.nodes)[k] : k].usage;
        sum.allocatable.milliCpu += u.allocatable.milliCpu;
        sum.allocatable.memory += u.allocatable.memory;
        sum.nonZeroMilliCpu += u.nonZeroMilliCpu;
        sum.nonZeroMemory += u.nonZeroMemory;
        sum.allocatable.ephemeralStorage += u.allocatable.ephemeralStorage;
        sum.requested.ephemeralStorage += u.requested.ephemeralStorage;
    }
    if (p.domain) {
        p.domain->summedAt = d.draVerdicts.clock();
        p.domain->summed = true;
    }
    return sum;
}

// NodeResourcesFit's placement bin packing: MostAllocated over the sums of the placement's nodes,
// with the group's assumed pods already counted in (they are, inside the transaction), plus `more`.
int64_t Cluster::Impl::GroupCycle::binPacking(
    const Impl& d, const Placement& p, const PodRequests& more, const FitScoring* fit)
{
    const NodeUsage& sum = placementSums(d, p);
    // The placement scorer is NodeResourcesFit's MostAllocated term applied to the placement's sums.
    static const ScoreTerm kPlacementBinPacking { ScorePlugin::NodeResourcesFit, FitStrategy::MostAllocated,
        1, Normalization::None, ScoreInput::NodeUsage };
    const ScoreInputs in { nullptr, &more, nullptr, &sum };
    if (!fit)
        return rawScore(kPlacementBinPacking, in);
    ScoreTerm weighted = kPlacementBinPacking;
    weighted.fit = std::shared_ptr<const FitScoring>(std::shared_ptr<const FitScoring> {}, fit);
    return rawScore(weighted, in);
}

const SchedulerProfile& Cluster::Impl::GroupCycle::profileOf(const Impl& d, const std::vector<api::Pod>& pods)
{
    const SchedulerProfile* p = pods.empty() ? nullptr : profileFor(d.options, pods.front());
    return p ? *p : primaryProfile(d.options);
}

std::vector<int64_t> Cluster::Impl::GroupCycle::packingBounds(const Impl& d,
    const std::vector<Placement>& placements, const std::vector<api::Pod>& pods, const FitScoring* fit)
{
    std::vector<int64_t> bound(placements.size(), 0);
    if (placements.size() < 2)
        return bound;
    PodRequests pending;
    for (const auto& pod : pods) {
        const PodRequests r = computePodRequests(pod.spec);
        pending.nonZeroMilliCpu += r.nonZeroMilliCpu;
        pending.nonZeroMemory += r.nonZeroMemory;
        pending.requests.ephemeralStorage += r.requests.ephemeralStorage;
    }
    for (size_t p = 0; p < placements.size(); ++p)
        bound[p] = binPacking(d, placements[p], pending, fit);
    return bound;
}

void Cluster::Impl::GroupCycle::fillFailure(
    GroupScheduleResult& out, PlacementRun&& run, const std::string& message)
{
    out.scheduled = false;
    out.placed = 0;
    out.message = message;
    out.members = std::move(run.members);
    out.fitted.assign(out.members.size(), false);
    // A group waiting for its members' preemption is nominated where the run placed them.
    out.waitingOnPreemption = run.waiting;
    for (size_t i = 0; i < out.members.size(); ++i) {
        auto& m = out.members[i];
        out.fitted[i] = i < run.tried.size() && run.tried[i] && m.scheduled;
        if (run.waiting && out.fitted[i]) {
            PreemptionResult nominated;
            nominated.nominatedNode = std::move(m.nodeName);
            m = ScheduleResult {};
            m.failure = FailureKind::Unschedulable;
            m.message = message;
            m.preemption = std::move(nominated);
            continue;
        }
        // A member that fitted, or was never tried, waits for the group; one that did not fit
        // keeps its own reason after the group's.
        if (!run.tried[i] || m.scheduled) {
            m = ScheduleResult {};
            m.failure = FailureKind::Unschedulable;
            m.message = message;
        } else {
            m.message = message + "; " + m.message;
        }
        m.scheduled = false;
    }
}

// Why no placement took the group: with a topology key, what each domain held; without one, the
// run's own minCount message.
std::string Cluster::Impl::GroupCycle::noPlacementMessage(const PodGroupPolicy& group,
    const std::vector<Placement>& placements, const std::vector<int32_t>& held, const PlacementRun& firstRun)
{
    std::string message = firstRun.message;
    if (placements.empty()) {
        message = "no node has the label " + group.topologyKey + " of the group's topology constraint";
    } else if (!group.topologyKey.empty()) {
        std::vector<std::string> names;
        for (const auto& p : placements)
            names.emplace_back(p.name);
        message = domainShortfall(group.topologyKey,
            group.gang ? "minCount (" + std::to_string(group.minCount) + ") pods" : std::string("a pod"),
            names, held);
    }
    if (placements.size() > 1 || !group.topologyKey.empty())
        message = "0/" + std::to_string(placements.size()) + " placements are feasible: " + message;
    return message;
}

namespace {

/// Sets a flag for the lifetime of a group cycle and restores it after (nested cycles included).
class GroupCycleFlagScope
{
public:
    GroupCycleFlagScope(bool& flag, bool value)
        : m_flag(flag)
        , m_saved(flag)
    {
        m_flag = value;
    }
    ~GroupCycleFlagScope() { m_flag = m_saved; }
    GroupCycleFlagScope(const GroupCycleFlagScope&) = delete;
    GroupCycleFlagScope& operator=(const GroupCycleFlagScope&) = delete;

private:
    bool& m_flag;
    bool m_saved;
};

} // namespace

GroupScheduleResult Cluster::Impl::scheduleGroup(const PodGroupPolicy& group,
    const std::vector<api::Pod>& pods, const std::vector<std::string>& boundMembers, bool topologyAware)
{
    // With workload-aware preemption the members' own cycles run no DefaultPreemption (upstream
    // disables it for pods of a group: the group preempts as a whole). 1.36 without the
    // WorkloadAwarePreemption gate runs it for each member that does not fit
    // (podGroupPodSchedulingAlgorithm with runAllPostFilters; DefaultPreemption's PostFilter
    // steps aside for a pod of a group only when the gate is on; 1.37 steps aside whenever
    // GenericWorkload is on, which every group cycle needs).
    const bool memberPostFilter
        = !group.workloadAwarePreemption && options.kubernetesVersion == api::KubernetesVersion::V1_36;
    const GroupCycleFlagScope groupFlag(inGroupCycle, !memberPostFilter);
    groupPolicies[group.key] = group;
    GroupClaims::generate(*this, group);
    GroupScheduleResult out
        = GroupCycle::attempt(*this, group, pods, boundMembers, topologyAware, GroupCycle::Placement {});
    // A group confined to a topology domain preempts from 1.37 only. 1.36's runWorkloadAwarePreemption
    // refuses a PodGroup with scheduling constraints ("workload aware preemption is not supported
    // for pod groups with scheduling constraints"); kubernetes/kubernetes#140683 removed that
    // refusal for 1.37 and changed nothing else: the dry run below runs the whole placement search
    // (GroupCycle::attempt) once with every lower-priority unit removed, keeps the best-scored
    // placement as a normal cycle would, and the reprieve then gives back every unit that does not
    // stand in the way of the members assumed there, so victims are taken in that one domain only
    // (a disruptionMode all unit there goes whole, its members elsewhere included).
    // KEP-5710 (beta): "For the alpha support of TAS, we will only assume the best placement";
    // victims are not compared across placements.
    const SchedulerProfile& profile = GroupCycle::profileOf(*this, pods);
    const bool confined = topologyAware && !group.topologyKey.empty() && profile.topologyPlacement
        && options.kubernetesVersion < api::KubernetesVersion::V1_37;
    // Workload-aware preemption is DefaultPreemption at PodGroupPostFilter. 1.36 words its
    // refusal into the group's status before looking for victims: runWorkloadAwarePreemption
    // returns it itself, not the plugin, so it has no "pod group preemption: " lead.
    bool waitingOnPreemption = false;
    if (memberPostFilter)
        waitingOnPreemption = GroupCycle::settleMemberPreemption(*this, pods, out);
    else if (!out.scheduled && confined && profile.groupPreemption && group.workloadAwarePreemption) {
        PreemptionResult refused;
        refused.message
            = "workload aware preemption is not supported for pod groups with scheduling constraints";
        out.preemption = refused;
    } else if (!out.scheduled && !confined && profile.groupPreemption)
        waitingOnPreemption = GroupPreemption::postFilter(
            *this, group, pods,
            [&] {
                return GroupCycle::attempt(
                    *this, group, pods, boundMembers, topologyAware, GroupCycle::Placement {});
            },
            out);
    // A failed cycle not waiting on preemption takes back the nominations of the members it
    // placed (submitPodGroupAlgorithmResult, 1.36 and 1.37).
    if (!out.scheduled && !waitingOnPreemption)
        out.nominationsCleared = GroupPreemption::clearFittedNominations(*this, pods, out.fitted);
    return out;
}

// The placements that hold the nodes of the members bound already (`already` says how many are).
// A member bound to a node that is gone is in no placement of a key.
std::vector<Cluster::Impl::GroupCycle::Placement> Cluster::Impl::GroupCycle::boundPlacements(Impl& d,
    const std::string& key, const std::vector<std::string>& boundMembers, const Placement& within,
    int32_t& already)
{
    std::vector<uint32_t> boundIdx;
    bool gone = false;
    already = 0;
    for (const auto& k : boundMembers) {
        auto it = d.bound.find(k);
        if (it == d.bound.end())
            continue;
        ++already;
        auto ni = d.nodeIndex.find(it->second.pub.nodeName);
        if (ni == d.nodeIndex.end())
            gone = true;
        else
            boundIdx.push_back(ni->second);
    }
    std::sort(boundIdx.begin(), boundIdx.end());
    if (gone && !key.empty())
        return {};
    return placements(d, key, boundIdx, within);
}

GroupScheduleResult Cluster::Impl::GroupCycle::attempt(Impl& d, const PodGroupPolicy& group,
    const std::vector<api::Pod>& pods, const std::vector<std::string>& boundMembers, bool topologyAware,
    const Placement& within)
{
    GroupScheduleResult out;
    std::vector<size_t> order(pods.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return pods[a].spec.priority.value_or(0) > pods[b].spec.priority.value_or(0);
    });
    PodGroupPolicy effective = group;
    const SchedulerProfile& profile = profileOf(d, pods);
    // The constraint is dropped with its gate; only TopologyPlacement acts on it.
    if (!topologyAware || !profile.topologyPlacement)
        effective.topologyKey.clear();
    // The shortcuts below rely on the default weights; a profile that sets others runs every
    // placement, as exhaustivePlacements does.
    const bool exhaustive = d.options.exhaustivePlacements || !profile.defaultPlacementScoring();
    const FitScoring* fit = profile.placementFit.get();
    int32_t already = 0;
    const auto placements = boundPlacements(d, effective.topologyKey, boundMembers, within, already);
    // Cycles inside a placement see only its nodes; outside one, what the caller scoped them to.
    const Placement everyNode { "", d.placementNodes, nullptr };
    auto scopeTo = [&d](const GroupCycle::Placement& p) { d.placementNodes = p.nodes; };
    out.placementsTried = int32_t(placements.size());

    // Each placement is evaluated inside a transaction and rolled back; the best one is then run
    // again for real (runs are deterministic, so it gives the same result), unless the run just
    // made is already known to be the best, which is then kept as it is.
    auto keep = [&](GroupCycle::PlacementRun& run, size_t p) {
        out.scheduled = true;
        out.placed = run.placed;
        out.domain = placements[p].name;
        out.members = std::move(run.members); // on Success every member was tried
        return std::move(out); // the cycle's answer, returned at once: moved, not copied
    };
    // A placement scores PodGroupPodsCount (count * 100 / the largest count) plus its bin packing,
    // which only grows with the pods placed in it: with every pending member counted in, its
    // packing bounds its score from above. Placements are tried in order of that bound, and once
    // one holds every member (the largest count there can be), a placement whose bound cannot
    // beat that one's score (or only tie it from a later position) is not run at all. (A placement
    // that holds every member packs exactly as its bound says, so in this order the first such one
    // found is the best; the rules below do not rely on that, the law tests check both.)
    const size_t n = placements.size();
    const std::vector<int64_t> bound = GroupCycle::packingBounds(d, placements, pods, fit);
    // A placement that cannot hold minCount is not run unless its account is needed (below).
    GroupCycle::Capacity capacity(d, effective, placements, pods, already);
    std::vector<size_t> skipped;
    std::vector<size_t> evalOrder(n);
    for (size_t p = 0; p < n; ++p)
        evalOrder[p] = p;
    std::stable_sort(
        evalOrder.begin(), evalOrder.end(), [&](size_t a, size_t b) { return bound[a] > bound[b]; });
    const int64_t fullCount = already + int64_t(pods.size());
    std::vector<int64_t> podCounts(n, -1);
    std::vector<int64_t> packing(n, 0);
    size_t fullBest = n; // the best-packed placement holding every member, lowest index on ties
    auto cannotWin = [&](size_t q) {
        if (exhaustive || fullBest == n)
            return false;
        return bound[q] < packing[fullBest] || (bound[q] == packing[fullBest] && q > fullBest);
    };
    GroupCycle::PlacementRun firstRun;
    GroupCycle::PlacementRun run; // reused by every run below
    std::vector<int32_t> held(n, already); // members each placement held when it was given up
    bool anyFeasible = false;
    for (size_t k = 0; k < n; ++k) {
        const size_t p = evalOrder[k];
        if (cannotWin(p))
            break; // the order is by bound: no later placement can win either
        if (capacity.hopeless(p)) {
            skipped.push_back(p);
            continue;
        }
        d.undo.begin();
        scopeTo(placements[p]);
        GroupCycle::run(d, effective, pods, order, already, run);
        held[p] += run.placed;
        if (run.status == Feasibility::Success) {
            podCounts[p] = already + run.placed;
            packing[p] = n > 1 ? GroupCycle::binPacking(d, placements[p], {}, fit) : 0;
            ++out.placementsFeasible;
            const bool full = podCounts[p] == fullCount;
            if (full
                && (fullBest == n || packing[p] > packing[fullBest]
                    || (packing[p] == packing[fullBest] && p < fullBest)))
                fullBest = p;
            // The first feasible placement, holding every member, that no other can beat: kept.
            bool settled = n == 1 || (full && !anyFeasible && !exhaustive);
            for (size_t j = k + 1; settled && j < n; ++j)
                settled = cannotWin(evalOrder[j]);
            if (settled) {
                scopeTo(everyNode);
                d.undo.commit();
                return keep(run, p);
            }
            anyFeasible = true;
        }
        d.undo.rollback();
        scopeTo(everyNode);
        if (p == 0)
            firstRun = std::move(run);
    }
    int64_t maxCount = 0;
    for (int64_t c : podCounts)
        maxCount = std::max(maxCount, c);
    int64_t bestScore = -1;
    size_t best = n;
    for (size_t p = 0; p < n; ++p) {
        if (podCounts[p] < 0)
            continue;
        const int64_t score = GroupCycle::placementScore(profile, podCounts[p], maxCount, packing[p]);
        if (score > bestScore) {
            bestScore = score;
            best = p;
        }
    }
    if (best == n) {
        // The placements skipped run now, each rolled back, for what they held (and the first
        // one's members' own reasons): the account is as if every placement had been run.
        GroupCycle::accountSkipped(
            d, effective, placements, pods, order, already, skipped, capacity, held, run, firstRun);
        const std::string message = GroupCycle::noPlacementMessage(effective, placements, held, firstRun);
        if (placements.empty()) {
            // No run took place: every member given still gets its answer (none was tried).
            firstRun.members.resize(pods.size());
            firstRun.tried.assign(pods.size(), false);
        }
        GroupCycle::fillFailure(out, std::move(firstRun), "pod group " + group.key + ": " + message);
        return out;
    }
    d.undo.begin();
    scopeTo(placements[best]);
    GroupCycle::run(d, effective, pods, order, already, run);
    scopeTo(everyNode);
    d.undo.commit();
    return keep(run, best);
}

GroupScheduleResult Cluster::scheduleGroup(const PodGroupPolicy& group, const std::vector<api::Pod>& pods,
    const std::vector<std::string>& boundMembers, bool topologyAware)
{
    return m_impl->scheduleGroup(group, pods, boundMembers, topologyAware);
}

void Cluster::registerPodGroup(const PodGroupPolicy& group)
{
    m_impl->groupPolicies[group.key] = group;
    Impl::GroupClaims::generate(*m_impl, group);
}

} // namespace drasim::scheduler
