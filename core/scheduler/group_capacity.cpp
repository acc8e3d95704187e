// SPDX-License-Identifier: Apache-2.0
// Which placements of a group cannot reach minCount whatever its run does, known before running
// it: each member's own claims (made from its templates by its cycle) dedicate at least a fixed
// number of devices, and a node can give no more than its free devices, so the members a
// placement can take are bounded by the sum over its nodes of free devices / that number. A run
// in such a placement ends Unschedulable; the group cycle then skips it, and runs it only when it
// needs its account (no placement fits: the message counts what each held), and then only when
// what it may hold could put it among the placements the message names.
//
// Only the free devices that the members' requests can select count: a device no (sub)request's
// class and selectors accept is never picked for a member (the allocator's eligibility check, §3.5).
// Servers publish more than the devices a job asks for (a DGX H100 its eight GPUs beside its
// ConnectX NICs), and counting those would keep hopeless placements in the run.
#include <algorithm>
#include <limits>
#include <utility>

#include "core/scheduler/group_cycle.h"
#include "core/scheduler/node_tree.h"

namespace drasim::scheduler {

namespace {

constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max();

/// The devices one request dedicates at least: its count in ExactCount mode, the least of its
/// subrequests' with a prioritized list; 0 for All mode and admin access (they dedicate nothing
/// for sure).
int64_t requestMinimum(const api::DeviceRequest& r)
{
    auto ofSpec = [](const api::DeviceRequestSpec& s) -> int64_t {
        if (s.allocationMode != "ExactCount" || s.adminAccess.value_or(false))
            return 0;
        return std::max<int64_t>(s.count, 0);
    };
    if (r.exactly)
        return ofSpec(*r.exactly);
    int64_t least = r.firstAvailable.empty() ? 0 : kUnbounded;
    for (const auto& sub : r.firstAvailable)
        least = std::min(least, ofSpec(sub.spec));
    return least;
}

} // namespace

// The templates a pod's cycle makes new claims from: an entry with a claim made already is not new.
std::vector<const api::ResourceClaimTemplate*> Cluster::Impl::GroupCycle::newTemplates(
    const Impl& d, const api::Pod& pod)
{
    std::vector<const api::ResourceClaimTemplate*> out;
    const std::string ns = nsOf(pod.meta);
    for (const auto& e : pod.spec.resourceClaims) {
        if (!e.resourceClaimTemplateName || d.claimSeq.count(ns + "/" + pod.meta.name + "-" + e.name))
            continue;
        auto t = d.templates.find(ns + "/" + *e.resourceClaimTemplateName);
        if (t != d.templates.end())
            out.push_back(&t->second);
    }
    return out;
}

std::optional<std::vector<uint32_t>> Cluster::Impl::GroupCycle::memberSelectorSets(
    Impl& d, const std::vector<api::Pod>& pods)
{
    std::vector<const api::ResourceClaimTemplate*> seen;
    std::vector<uint32_t> sets;
    bool known = true;
    auto addSpec = [&](const api::DeviceRequestSpec& spec) {
        auto cls = d.classes.find(spec.deviceClassName);
        if (cls == d.classes.end()) {
            known = false; // the cycle fails on its own; no bound is needed for that
            return;
        }
        const uint32_t set = d.selectors.setFor(cls->second, spec.selectors);
        if (std::find(sets.begin(), sets.end(), set) == sets.end())
            sets.push_back(set);
    };
    for (const auto& pod : pods)
        for (const api::ResourceClaimTemplate* t : newTemplates(d, pod)) {
            if (std::find(seen.begin(), seen.end(), t) != seen.end())
                continue;
            seen.push_back(t);
            for (const auto& r : t->spec.requests) {
                if (r.exactly)
                    addSpec(*r.exactly);
                for (const auto& sub : r.firstAvailable)
                    addSpec(sub.spec);
            }
        }
    if (!known)
        return std::nullopt;
    return sets;
}

int32_t Cluster::Impl::GroupCycle::selectableFree(
    Impl& d, uint32_t idx, const std::vector<uint32_t>& sets, const DraVerdictCache::Slot& counts)
{
    // Remembered per node until its devices change: a group cycle looks at every domain of its key,
    // most of them as they were at the last cycle.
    if (auto known = d.draVerdicts.findCount(counts, idx))
        return *known;
    int32_t n = 0;
    for (const auto& pool : d.viewOf(idx).pools)
        for (const auto& e : pool.devices) {
            if (!e.nodeOk || d.state.dedicated(e.id))
                continue;
            // A CEL error counts as selected: the bound must never be below what a run places.
            for (uint32_t set : sets) {
                const allocator::Verdict v = d.selectors.verdict(set, e);
                if (v == allocator::Verdict::True || v == allocator::Verdict::Error) {
                    ++n;
                    break;
                }
            }
        }
    d.draVerdicts.storeCount(counts, idx, n);
    return n;
}

// The claims a pod's cycle makes from its templates (claimFromTemplate): an entry served by an
// existing claim, or by its PodGroup's claims, dedicates nothing new and counts 0.
int64_t Cluster::Impl::GroupCycle::ownDevices(const Impl& d, const api::Pod& pod)
{
    if (pod.spec.schedulingGroup) {
        auto it = d.groupPolicies.find(groupKeyOf(pod));
        if (it != d.groupPolicies.end() && !it->second.resourceClaims.empty())
            return 0;
    }
    int64_t total = 0;
    for (const api::ResourceClaimTemplate* t : newTemplates(d, pod))
        for (const auto& r : t->spec.requests)
            total += requestMinimum(r);
    return total;
}

Cluster::Impl::GroupCycle::Capacity::Capacity(Impl& d, const PodGroupPolicy& group,
    const std::vector<Placement>& placements, const std::vector<api::Pod>& pods, int32_t already)
    : m_d(d)
    , m_group(group)
    , m_placements(placements)
    , m_pods(pods)
    , m_already(already)
    , m_most(placements.size(), -1)
{ }

int64_t Cluster::Impl::GroupCycle::Capacity::perMember() const
{
    const Impl& d = m_d;
    // A nominated pod may be tried first on a node outside the placement, and nominated pods take
    // room from others: no bound then.
    if (m_placements.size() < 2 || m_pods.empty() || d.options.exhaustivePlacements || !d.nominations.empty()
        || !d.nominatedOn.empty())
        return 0;
    int64_t perMember = kUnbounded;
    std::vector<const SchedulerProfile*> profiles;
    for (const auto& pod : m_pods) {
        const SchedulerProfile* profile = profileFor(d.options, pod);
        if (profile && std::find(profiles.begin(), profiles.end(), profile) == profiles.end())
            profiles.push_back(profile);
        perMember = std::min(perMember, ownDevices(d, pod));
    }
    // A skipped run must leave nothing behind: a search that stops early would have moved
    // nextStartNodeIndex, which no transaction restores.
    for (const SchedulerProfile* profile : profiles) {
        uint32_t asked = UINT32_MAX; // domains mostly share a size: each size is asked once in a row
        for (const auto& p : m_placements) {
            const uint32_t size = uint32_t(p.nodes ? p.nodes->size() : d.nodes.size());
            if (size == std::exchange(asked, size))
                continue;
            if (numFeasibleNodesToFind(percentageOfNodesToScore(d.options, *profile), size) < size)
                return 0;
        }
    }
    return std::max<int64_t>(perMember, 0);
}

// Asked before each placement's run: every run before it was rolled back, so the free devices
// are those the cycle began with.
bool Cluster::Impl::GroupCycle::Capacity::hopeless(size_t k)
{
    // What bounds the members is worked out when first needed (nothing asks with one placement).
    if (m_perMember < 0) {
        m_perMember = perMember();
        if (m_perMember > 0)
            m_sets = memberSelectorSets(m_d, m_pods);
        if (m_sets) {
            // The counts' own slot in the verdict cache, named so that no template list or filter
            // key (both begin with a namespace or '|') can take it.
            std::string key = "\x01selectable";
            for (uint32_t set : *m_sets)
                key += ' ' + std::to_string(set);
            m_counts = m_d.draVerdicts.slot(key);
        }
    }
    if (m_perMember == 0)
        return false;
    const auto* nodes = m_placements[k].nodes;
    const size_t count = nodes ? nodes->size() : m_d.nodes.size();
    int64_t takes = 0;
    for (size_t i = 0; i < count && takes < int64_t(m_pods.size()); ++i) {
        const uint32_t idx = nodes ? (*nodes)[i] : uint32_t(i);
        // The node's view and free devices as viewOf and freeOf give them, read in place once known.
        const allocator::NodeView* view = m_d.views[idx];
        const int32_t free = m_d.freeCount[idx] >= 0 ? m_d.freeCount[idx] : m_d.freeOf(idx);
        // A device that takes several allocations is never dedicated: its node is unbounded.
        if ((view ? *view : m_d.viewOf(idx)).anyMulti) {
            takes = kUnbounded;
            break;
        }
        if (free > 0)
            takes += (m_sets ? selectableFree(m_d, idx, *m_sets, m_counts) : free) / m_perMember;
    }
    m_most[k] = int32_t(std::min<int64_t>(takes, int64_t(m_pods.size())));
    // The run's end: every member tried, at most `most` of them placed.
    return m_most[k] == 0
        || placementFeasible(m_group, int32_t(m_already + m_most[k]), 0) == Feasibility::Unschedulable;
}

// The message shows the kShortfallShown placements holding most (ties: the first in order), so a
// skipped placement is run only when the members it may hold (`most`) could put it among them;
// the others keep `already`, which leaves it out all the same. A placement that can take no
// member holds none without running. Every run is rolled back, so the order of the runs does not
// matter.
void Cluster::Impl::GroupCycle::accountSkipped(Impl& d, const PodGroupPolicy& group,
    const std::vector<Placement>& placements, const std::vector<api::Pod>& pods,
    const std::vector<size_t>& order, int32_t already, const std::vector<size_t>& skipped,
    const Capacity& capacity, std::vector<int32_t>& held, PlacementRun& run, PlacementRun& firstRun)
{
    const size_t n = placements.size();
    if (n == 0)
        return; // no domain at all: nothing was skipped and no placement is shown
    const std::vector<uint32_t>* const scope = d.placementNodes;
    std::vector<bool> open(n, false); // skipped, with a count still to learn
    auto runIn = [&](size_t p) {
        d.undo.begin();
        d.placementNodes = placements[p].nodes;
        GroupCycle::run(d, group, pods, order, already, run);
        held[p] += run.placed;
        d.undo.rollback();
        d.placementNodes = scope;
        open[p] = false;
        if (p == 0)
            firstRun = std::move(run);
    };
    for (size_t p : skipped)
        open[p] = capacity.most(p) > 0;
    // The first placement's members give their own reasons.
    if (std::find(skipped.begin(), skipped.end(), size_t(0)) != skipped.end())
        runIn(0);
    auto before = [&](size_t a, size_t b) { return held[a] != held[b] ? held[a] > held[b] : a < b; };
    const size_t shown = std::min(kShortfallShown, n);
    std::vector<size_t> known;
    for (;;) {
        known.clear();
        for (size_t p = 0; p < n; ++p)
            if (!open[p])
                known.push_back(p);
        size_t last = n; // the last placement shown so far; n: fewer are known than are shown
        if (known.size() >= shown) {
            std::nth_element(known.begin(), known.begin() + std::ptrdiff_t(shown - 1), known.end(), before);
            last = known[shown - 1];
        }
        size_t next = n; // the open placement that could come first
        for (size_t q = 0; q < n; ++q) {
            if (!open[q])
                continue;
            const int32_t bound = already + capacity.most(q);
            const bool ahead = last == n || bound > held[last] || (bound == held[last] && q < last);
            if (ahead && (next == n || capacity.most(q) > capacity.most(next)))
                next = q;
        }
        if (next == n)
            return;
        runIn(next);
    }
}

} // namespace drasim::scheduler
