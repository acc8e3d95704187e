// SPDX-License-Identifier: Apache-2.0
// Workload-aware preemption for a PodGroup (see group_preemption.h). Everything tried happens in
// one transaction that is rolled back; only the outcome is then acted on: victims marked
// terminating, members nominated to the nodes the dry run placed them on.
#include "core/scheduler/group_preemption.h"

#include <algorithm>
#include <map>

#include "core/scheduler/preemption.h"

namespace drasim::scheduler {

namespace {

// PodGroupPostFilter's status in each version's words. 1.37: DefaultPreemption's
// PodGroupPostFilter (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go)
// puts "pod group preemption: " before any non-empty message of the PodGroup evaluator
// (pkg/scheduler/framework/preemption/podgrouppreemption.go), and the pod group cycle appends it
// to the group's status, on success too (applyPodGroupPostFilterResult,
// kubernetes/kubernetes#140311). 1.36 (v1alpha2): the plugin returned the evaluator's status
// unprefixed, the evaluator's success (actuatePodGroupPreemption) carried no message, and
// podGroupCycle appended the status to the group's only when preemption failed
// (schedule_one_podgroup.go, runWorkloadAwarePreemption).
const std::string kGroupLead = "pod group preemption: ";

struct PostFilterWords
{
    bool v137 = true;

    /// The plugin's status for the evaluator's message.
    std::string status(const std::string& evaluator) const
    {
        // An empty status message gets no lead upstream either.
        return v137 && !evaluator.empty() ? kGroupLead + evaluator : evaluator;
    }
    /// preemptorEligibleToPreemptOthers (Unschedulable).
    std::string never() const { return status("not eligible due to preemptionPolicy=Never."); }
    /// A member is nominated to a node where a lower-priority pod is being deleted by
    /// preemption. Since kubernetes/kubernetes#140641 (1.37) isOngoingPreemption makes this a
    /// Success that keeps the members' nominations; 1.36's preemptorEligibleToPreemptOthers
    /// refused with an Unschedulable status.
    std::string ongoing() const
    {
        return status(v137 ? "ongoing preemption on nominated nodes"
                           : "not eligible due to a terminating pod on the nominated node.");
    }
    /// selectVictimsOnDomain with no potential victim (UnschedulableAndUnresolvable).
    std::string noVictims() const { return status("No preemption victims found for incoming preemptor"); }
    /// Preempt's Success once victims are chosen (1.37, kubernetes/kubernetes#140311): the count
    /// is of pods, a disruptionMode all unit counting each of its pods. Upstream says so with no
    /// victim too, when every unit was reprieved, and nominates the members all the same. 1.36's
    /// success said nothing.
    std::string placementFound(size_t victimPods) const
    {
        return v137
            ? status("found a placement for podgroup, preempting " + std::to_string(victimPods) + " victims")
            : std::string();
    }
    /// When the group does not fit even with every potential victim removed, selectVictimsOnDomain
    /// returns the status of that one run of the group algorithm (podGroupSchedulingFunc), so the
    /// message is the dry run's own. drasim's "pod group <key>: " (or "composite pod group
    /// <key>: ") lead on group messages is its own and is left out, as the group's condition
    /// leaves it out.
    std::string dryRunFailed(const std::string& key, std::string message) const
    {
        for (const std::string& lead : { "pod group " + key + ": ", "composite pod group " + key + ": " })
            if (message.starts_with(lead)) {
                message.erase(0, lead.size());
                break;
            }
        return status(message);
    }
};

} // namespace

bool Cluster::Impl::GroupPreemption::moreImportant(const Unit& a, const Unit& b)
{
    if (a.priority != b.priority)
        return a.priority > b.priority;
    // At equal priority a CompositePodGroup before a PodGroup before a single pod
    // (scheduling-eviction/workload-aware-preemption, "Victim importance hierarchy", with
    // kubernetes/kubernetes#140634 for CompositePodGroups).
    if (a.composite != b.composite)
        return a.composite;
    if (a.group != b.group)
        return a.group;
    if (a.pods.size() != b.pods.size())
        return a.pods.size() > b.pods.size();
    if (a.start != b.start)
        return a.start < b.start;
    return a.seq < b.seq;
}

std::vector<Cluster::Impl::GroupPreemption::Unit> Cluster::Impl::GroupPreemption::lowerUnits(
    const Impl& d, int32_t below, const std::string& self)
{
    std::vector<Unit> units;
    std::map<Preemption::UnitKey, size_t> groupUnit; // whole-group units: key -> index in units
    for (const auto& [seq, key] : d.bindOrder) {
        const PodState& ps = d.bound.at(key);
        if (ps.pub.terminating)
            continue;
        auto policy = ps.groupKey.empty() ? d.groupPolicies.end() : d.groupPolicies.find(ps.groupKey);
        // The preemptor's own pods: its group's, or every PodGroup's of its hierarchy.
        if (!ps.groupKey.empty()
            && (ps.groupKey == self || (policy != d.groupPolicies.end() && policy->second.rootKey == self)))
            continue;
        // A member's priority is its group's, whatever its own (Preemption::victimPriority), in
        // either disruption mode.
        const int32_t priority = Preemption::victimPriority(d, ps, true);
        if (priority >= below)
            continue;
        const std::optional<Preemption::UnitKey> whole = Preemption::unitOf(d, ps);
        if (whole) {
            auto [it, fresh] = groupUnit.emplace(*whole, units.size());
            if (!fresh) {
                Unit& u = units[it->second];
                u.pods.push_back(key);
                u.start = std::min(u.start, ps.startTime);
                continue;
            }
        }
        units.push_back(
            Unit { { key }, priority, bool(whole), whole && whole->composite, ps.startTime, seq });
    }
    std::sort(units.begin(), units.end(), moreImportant);
    return units;
}

bool Cluster::Impl::GroupPreemption::waitingForVictims(
    const Impl& d, const std::vector<api::Pod>& pods, int32_t priority)
{
    for (const auto& pod : pods) {
        auto n = d.nominations.find(keyOf(pod.meta));
        if (n != d.nominations.end() && Preemption::terminatingBelow(d, n->second.node, priority))
            return true;
    }
    return false;
}

Cluster::Impl::PodState Cluster::Impl::GroupPreemption::vacate(Impl& d, const std::string& key)
{
    PodState ps = d.undo.eraseBound(key);
    if (ps.nodeIdx != kNoNode)
        d.chargeNode(ps.nodeIdx, ps.req, -1);
    return ps;
}

void Cluster::Impl::GroupPreemption::restore(Impl& d, PodState ps)
{
    const uint32_t idx = ps.nodeIdx;
    const PodRequests req = ps.req;
    d.undo.insertBound(std::move(ps));
    if (idx != kNoNode)
        d.chargeNode(idx, req, +1);
}

bool Cluster::Impl::GroupPreemption::overcommitted(const Impl& d, uint32_t idx)
{
    const NodeUsage& u = d.nodes[idx].usage;
    const Resources& a = u.allocatable;
    const Resources& r = u.requested;
    if (u.pods > u.maxPods || r.milliCpu > a.milliCpu || r.memory > a.memory
        || r.ephemeralStorage > a.ephemeralStorage)
        return true;
    for (const auto& [name, v] : r.scalar) {
        auto ai = a.scalar.find(name);
        if (v > 0 && v > (ai == a.scalar.end() ? 0 : ai->second))
            return true;
    }
    return false;
}

Cluster::Impl::GroupPreemption::Choice Cluster::Impl::GroupPreemption::chooseKeepingClaims(Impl& d,
    const std::vector<Unit>& units, const std::vector<const Unit*>& violating,
    const std::vector<const Unit*>& clean, const std::function<GroupScheduleResult()>& attempt)
{
    d.undo.begin();
    std::map<std::string, PodState> removed;
    for (const auto& u : units)
        for (const auto& key : u.pods)
            removed.emplace(key, vacate(d, key));
    Choice c;
    c.dry = attempt();
    if (!c.dry.scheduled) {
        d.undo.rollback();
        return c;
    }
    // A unit stays if every pod of it still fits on its node beside the group's assumed pods; a
    // group unit stays or goes as a whole.
    for (const auto* pass : { &violating, &clean })
        for (const Unit* u : *pass) {
            for (const auto& key : u->pods)
                restore(d, removed.at(key));
            bool fits = true;
            for (const auto& key : u->pods) {
                const uint32_t idx = d.bound.at(key).nodeIdx;
                fits = fits && (idx == kNoNode || !overcommitted(d, idx));
            }
            if (fits)
                continue;
            for (const auto& key : u->pods)
                vacate(d, key);
            c.victims.push_back(u);
            c.budgetViolations += pass == &violating ? int32_t(u->pods.size()) : 0;
        }
    d.undo.rollback();
    return c;
}

// NOT UPSTREAM, the KEP-5690 what-if: a victim's deletion releases its claims, so a unit can only
// be tried back by running the group algorithm again without it (as 1.36's reprieve did for
// every unit).
Cluster::Impl::GroupPreemption::Choice Cluster::Impl::GroupPreemption::chooseReleasingClaims(Impl& d,
    const std::vector<const Unit*>& violating, const std::vector<const Unit*>& clean,
    const std::function<GroupScheduleResult()>& attempt)
{
    auto without = [&](const std::vector<const Unit*>& gone) {
        d.undo.begin();
        for (const Unit* u : gone)
            for (const auto& key : u->pods)
                d.podFinished(key);
        GroupScheduleResult r = attempt();
        d.undo.rollback();
        return r;
    };
    std::vector<const Unit*> gone = violating;
    gone.insert(gone.end(), clean.begin(), clean.end());
    Choice c;
    c.dry = without(gone);
    if (!c.dry.scheduled)
        return c;
    for (const auto* pass : { &violating, &clean })
        for (const Unit* u : *pass) {
            std::vector<const Unit*> rest;
            for (const Unit* g : gone)
                if (g != u)
                    rest.push_back(g);
            GroupScheduleResult r = without(rest);
            if (!r.scheduled)
                continue;
            gone = std::move(rest);
            c.dry = std::move(r);
        }
    c.victims = gone;
    for (const Unit* u : gone)
        if (std::find(violating.begin(), violating.end(), u) != violating.end())
            c.budgetViolations += int32_t(u->pods.size());
    return c;
}

bool Cluster::Impl::GroupPreemption::postFilter(Impl& d, const PodGroupPolicy& group,
    const std::vector<api::Pod>& pods, const std::function<GroupScheduleResult()>& attempt,
    GroupScheduleResult& out)
{
    if (!group.workloadAwarePreemption)
        return false; // no PodGroupPostFilter without the gates
    const PostFilterWords words { d.options.kubernetesVersion >= api::KubernetesVersion::V1_37 };
    // Upstream checks the preemptor's eligibility (preemptorEligibleToPreemptOthers) before it
    // looks for victims: a group that may not preempt says so even where nothing runs below it.
    PreemptionResult result;
    if (group.preemptionNever) {
        result.message = words.never();
        out.preemption = result;
        return false;
    }
    if (waitingForVictims(d, pods, group.priority)) {
        result.message = words.ongoing();
        out.preemption = result;
        return words.v137;
    }
    if (!Preemption::anyBelow(d, group.priority, true)) {
        result.message = words.noVictims(); // the common case, answered without listing units
        out.preemption = result;
        return false;
    }
    const std::vector<Unit> units = lowerUnits(d, group.priority, group.key);
    if (units.empty()) {
        result.message = words.noVictims();
        out.preemption = result;
        return false;
    }
    // Pass 1 gives back the units whose eviction would violate a PodDisruptionBudget, pass 2 the
    // others (KEP-5710 step 4), each most important first.
    std::vector<const Unit*> violating, clean;
    std::vector<int32_t> left = d.budgets.empty() ? std::vector<int32_t>() : Preemption::budgetAllowances(d);
    for (const auto& u : units) {
        bool violates = false;
        for (const auto& key : u.pods)
            violates = Preemption::violatesBudget(d, &d.bound.at(key), left) || violates;
        (violates ? violating : clean).push_back(&u);
    }

    const Choice choice = d.options.whatIfDraPreemption
        ? chooseReleasingClaims(d, violating, clean, attempt)
        : chooseKeepingClaims(d, units, violating, clean, attempt);
    const GroupScheduleResult& dry = choice.dry;
    if (!dry.scheduled) {
        result.message = words.dryRunFailed(group.key, dry.message);
        out.preemption = result;
        return false;
    }
    std::vector<const Unit*> victims = choice.victims;
    result.budgetViolations = choice.budgetViolations;
    // Every unit may have been reprieved: upstream actuates all the same (Preempt hands
    // ActuatePodGroupPreemption a candidate with no victim) and nominates the members to the dry
    // run's nodes, since selectVictimsOnDomain builds the nominations from every valid assignment
    // whatever the victims; the group then waits, nominated, like any preemptor.
    std::stable_sort(
        victims.begin(), victims.end(), [](const Unit* a, const Unit* b) { return moreImportant(*a, *b); });
    for (const Unit* u : victims)
        for (const auto& key : u->pods) {
            d.undo.markTerminating(key);
            result.victims.push_back(key);
        }
    result.message = words.placementFound(result.victims.size());
    for (size_t i = 0; i < pods.size() && i < dry.members.size() && i < out.members.size(); ++i) {
        if (!dry.members[i].scheduled)
            continue;
        const std::string& node = dry.members[i].nodeName;
        nominateMember(d, pods[i], node, group.priority);
        PreemptionResult mine;
        mine.nominatedNode = node;
        out.members[i].preemption = mine;
    }
    out.preemption = result;
    return true;
}

int32_t Cluster::Impl::GroupPreemption::clearFittedNominations(
    Impl& d, const std::vector<api::Pod>& pods, const std::vector<bool>& fitted)
{
    int32_t cleared = 0;
    // Most failed cycles follow no preemption: nothing nominated, no member's key to make.
    if (d.nominations.empty())
        return cleared;
    for (size_t i = 0; i < pods.size() && i < fitted.size(); ++i) {
        if (!fitted[i])
            continue;
        const std::string key = keyOf(pods[i].meta);
        if (!d.nominations.contains(key))
            continue;
        Nominator::clear(d, key);
        ++cleared;
    }
    return cleared;
}

void Cluster::Impl::GroupPreemption::nominateMember(
    Impl& d, const api::Pod& pod, const std::string& node, int32_t priority)
{
    Nominator::set(d, keyOf(pod.meta),
        Nomination { node, priority, computePodRequests(pod.spec),
            std::make_shared<const PlacementPod>(placementPodOf(pod)) });
}

} // namespace drasim::scheduler
