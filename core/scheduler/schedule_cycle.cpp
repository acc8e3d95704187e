// SPDX-License-Identifier: Apache-2.0
// One scheduling cycle for one pod, phase by phase as kube-scheduler runs it with the
// DynamicResources plugin (§6): claim lookup, PreFilter, Filter on every node (node filters, then
// the allocator), scoring of the feasible nodes, the explain report, then Reserve, PreBind and Bind.
#include <algorithm>
#include <array>
#include <numeric>
#include <optional>
#include <utility>

#include "core/scheduler/claim_scoring_impl.h"
#include "core/scheduler/cluster_impl.h"
#include "core/scheduler/filter_order.h"
#include "core/scheduler/group_claim_cycle.h"
#include "core/scheduler/node_allocatable_cycle.h"
#include "core/scheduler/pod_placement.h"
#include "core/scheduler/preemption.h"
#include "core/scheduler/share_scoring.h"

namespace drasim::scheduler {

namespace {

constexpr int kCannotAllocate = 0;
constexpr int kNotAvailable = 1;
constexpr int kInvalidPools = 2;
constexpr int kTimedOut = 3;
constexpr int kFatal = 4;

// The node's status is Unschedulable, not UnschedulableAndUnresolvable: evicting pods may resolve
// it (preemption.go nodesWherePreemptionMightHelp). NodeResourcesFit's reasons, and those of
// PodTopologySpread and InterPodAffinity that a victim can change (spread skew, anti-affinity);
// every other plugin returns UnschedulableAndUnresolvable, DynamicResources included.
bool preemptionMayHelp(const std::vector<std::string>& reasons)
{
    return !reasons.empty()
        && (reasons.front() == "Too many pods" || reasons.front().rfind("Insufficient ", 0) == 0
            || placementRejectionResolvable(reasons.front()));
}

/// A new claim that takes over the strings, maps and vectors of `spare`, the claim of the last
/// generated claim erased before (Impl::spareClaims, which keeps its state for the next claim
/// added), else (null) a default one. Only the containers are kept, for the caller to assign over
/// entirely (ownerReferences keeps its elements: resize it); every other field is as a default
/// claim has it.
api::ResourceClaim reusedClaim(api::ResourceClaim* spare)
{
    api::ResourceClaim c;
    if (!spare)
        return c;
    api::ResourceClaim& old = *spare;
    c.meta.name = std::move(old.meta.name);
    c.meta.namespace_ = std::move(old.meta.namespace_);
    c.meta.labels = std::move(old.meta.labels);
    c.meta.annotations = std::move(old.meta.annotations);
    c.meta.ownerReferences = std::move(old.meta.ownerReferences);
    c.spec = std::move(old.spec);
    c.reservedFor = std::move(old.reservedFor);
    c.reservedFor.clear();
    return c;
}

} // namespace

// kube-scheduler's FitError text (also the PostFilter's, preemption.cpp): "0/N nodes are available: <count
// reason>, ... ."
namespace {

std::string composeFitError(size_t total, const std::map<std::string, int>& histogram)
{
    std::vector<std::string> parts;
    for (const auto& [reason, n] : histogram)
        parts.push_back(std::to_string(n) + " " + reason);
    std::sort(parts.begin(), parts.end());
    std::string msg = "0/" + std::to_string(total) + " nodes are available:";
    if (!parts.empty()) {
        msg += " ";
        for (size_t i = 0; i < parts.size(); ++i)
            msg += (i ? ", " : "") + parts[i];
        msg += ".";
    }
    return msg;
}

} // namespace

std::string fitErrorMessage(size_t total, const std::map<std::string, int>& histogram)
{
    // A pod that fits nowhere is tried again after every change and mostly gets a message made
    // before: for the cycle, and for its PostFilter. The last few are kept, per thread (studies
    // run simulations on several).
    struct Made
    {
        size_t total = 0;
        std::map<std::string, int> histogram;
        std::string message;
    };
    thread_local std::array<std::optional<Made>, 4> made;
    thread_local size_t next = 0;
    for (const auto& m : made)
        if (m && m->total == total && m->histogram == histogram)
            return m->message;
    auto& slot = made[next];
    next = (next + 1) % made.size();
    slot = Made { total, histogram, composeFitError(total, histogram) };
    return slot->message;
}

ScheduleResult Cluster::Impl::schedule(const api::Pod& pod, bool explain)
{
    Cycle cycle(pod, explain);
    cycle.podKey = nsOf(pod.meta) + "/" + pod.meta.name;
    if (bound.count(cycle.podKey)) {
        cycle.res.failure = FailureKind::AlreadyBound;
        cycle.res.message
            = "pod " + cycle.podKey + " is already bound to node " + bound[cycle.podKey].pub.nodeName;
        return std::move(cycle.res);
    }
    // A pod whose schedulerName no profile has is another scheduler's: it gets no cycle here.
    cycle.profile = profileFor(options, pod);
    if (!cycle.profile)
        return failEarly(cycle, FailureKind::NoProfile, noProfileMessage(pod));
    std::string error = lookupClaims(cycle);
    if (!error.empty())
        return failEarly(cycle, FailureKind::ClaimLookup, error);
    error = preFilter(cycle);
    if (nodes.empty())
        return failEarly(cycle, FailureKind::Unschedulable, "no nodes available to schedule pods");
    if (!error.empty())
        return failEarly(cycle, FailureKind::PreFilter,
            "0/" + std::to_string((placementNodes ? placementNodes->size() : nodes.size()))
                + " nodes are available: " + error + ".");
    cycle.req = computePodRequests(pod.spec);
    cycle.nodeAllocatable = NodeAllocatableCycle::active(*this, cycle);
    if (options.draExtendedResources)
        cycle.backed = draBackedResources(cycle.req, extendedClasses);
    if (!prepareAllocator(cycle, 0, &error))
        return failEarly(
            cycle, FailureKind::AllocatorError, "running \"DynamicResources\" filter plugin: " + error);

    // The fast path (nodes in usage-score order, the first feasible one chosen) is right when the
    // profile's scores of this pod depend on the node's usage alone (scoring_profile.h) and each
    // node's filter outcome on that node alone. Special claims differ per node, so pods with
    // extended resources backed by DRA filter every node.
    ScoreSpread spread;
    spread.preferNoScheduleTaints = preferNoScheduleNodes > 0;
    spread.preferredAffinity = pod.spec.nodeAffinity && !pod.spec.nodeAffinity->preferred.empty();
    spread.deviceChoice = !cycle.toAllocate.empty() && alloc->hasPrioritizedList();
    // PodTopologySpread and InterPodAffinity: their PreFilter counts the running pods once per
    // cycle; a pod they have no work for keeps every fast path.
    cycle.placement = PodPlacement::preFilter(*this, cycle);
    spread.podSpread = cycle.placement && !cycle.placement->softSpread.empty();
    spread.interPod = cycle.placement && cycle.placement->scoreInterPod;
    // kube-scheduler scores only the first numFeasibleNodesToFind feasible nodes from where the
    // previous cycle stopped (node_tree.h); the score order is right only when that is all of them.
    const uint32_t candidates = placementNodes ? uint32_t(placementNodes->size()) : uint32_t(nodes.size());
    cycle.nodesToFind = numFeasibleNodesToFind(percentageOfNodesToScore(options, *cycle.profile), candidates);
    // The score order breaks ties by name: a seeded tie-break scores every node. The score caches
    // order nodes for one profile: pods of the others score every feasible node.
    // A pod whose claims may add node-allocatable resources filters every node on its own.
    const bool byUsage = !explain && cycle.backed.empty() && !cycle.nodeAllocatable
        && options.tieBreak == TieBreak::NodeName && cycle.profile == &primaryProfile(options)
        && cycle.profile->scoreError.empty() && scoresFollowNodeUsage(cycle.profile->scoring, spread)
        && (cycle.toAllocate.empty() || !alloc->needsFullEvaluation());
    // A node without free devices gives "cannot allocate all claims" without the allocator
    // evaluating anything (unless admin access or All mode look at in-use devices).
    cycle.zeroFreeShortcut = !cycle.toAllocate.empty() && alloc->zeroFreeMeansNoSolution();
    if (explain) {
        cycle.draStatus.resize(nodes.size());
        cycle.nodeReasons.resize(nodes.size());
        cycle.examined.assign(nodes.size(), 0);
    }
    if (!nominations.empty())
        Nominator::tryFirst(*this, cycle);
    // A search that stops early examines nodes in the node tree's order, not in score order; it
    // still needs no scoring pass when the scores follow node usage.
    const bool lazy = byUsage && cycle.nodesToFind >= candidates;
    // The allocator's verdicts on the pod's templates (Verdicts::keyOf), once a search reads them.
    std::string draKey;
    bool keyed = false;
    auto readVerdicts = [&] {
        if (std::exchange(keyed, true))
            return;
        draKey = Verdicts::keyOf(cycle);
        if (!draKey.empty())
            cycle.verdicts = draVerdicts.slot(draKey);
    };
    auto walkByUsage = [&] {
        cycle.usageOrder = &sigFor(cycle.req, cycle.zeroFreeShortcut);
        readVerdicts();
        cycle.filterKey = Verdicts::filterKeyOf(*this, cycle, draKey);
    };
    if (byUsage && !lazy)
        walkByUsage();
    if (lazy && cycle.chosen < 0) {
        // The search reads the verdicts too, and is told at once on each node whose devices have
        // not changed since a pod of the same templates was filtered there. In a packed cluster a
        // new pod passes several nodes whose CPU and memory fit but whose devices do not before
        // it binds; their verdicts stay valid until a pod there ends, and most pods share their
        // templates with many others.
        readVerdicts();
        searchInScoreOrder(cycle);
        // Nothing fits: the pass over every node that says why reads and keeps whole verdicts,
        // so that the next such pod is told without filtering the nodes that have not changed.
        if (cycle.chosen < 0 && cycle.fatal.empty())
            walkByUsage();
    }
    if (cycle.chosen < 0 && cycle.fatal.empty())
        searchEveryNode(cycle);
    if (explain)
        diagnose(cycle);
    if (cycle.chosen < 0 || !cycle.fatal.empty()) {
        reportFailure(cycle);
        if (cycle.res.failure == FailureKind::Unschedulable && !inGroupCycle && cycle.profile->preemption) {
            const bool draRejected = std::any_of(
                cycle.draHistogram.begin(), cycle.draHistogram.end(), [](int n) { return n > 0; });
            cycle.res.preemption = Preemption::postFilter(*this, cycle);
            if (cycle.diagnosis)
                cycle.diagnosis->preemption
                    = Preemption::explain(*this, cycle, *cycle.res.preemption, draRejected);
        }
        return std::move(cycle.res);
    }
    if (std::string refused = reservationRefused(cycle); !refused.empty()) {
        cycle.res.failure = FailureKind::PreBind;
        cycle.res.message = std::move(refused);
        if (cycle.diagnosis)
            cycle.diagnosis->message = cycle.res.message;
        return std::move(cycle.res);
    }
    reserveAndBind(cycle);
    return std::move(cycle.res);
}

ScheduleResult Cluster::Impl::failEarly(Cycle& cycle, FailureKind kind, std::string message)
{
    cycle.res.failure = kind;
    // A missing claim or DeviceClass is DynamicResources' PreEnqueue/PreFilter verdict; a cluster
    // without nodes names no plugin, so any change moves the pod.
    if (kind == FailureKind::ClaimLookup || kind == FailureKind::PreFilter)
        cycle.res.unschedulablePlugins = pluginBit(HintPlugin::DynamicResources);
    cycle.res.message = std::move(message);
    if (cycle.explain) {
        auto d = std::make_shared<PodDiagnosis>();
        d->pod = cycle.podKey;
        d->message = cycle.res.message;
        cycle.res.diagnosis = d;
    }
    return std::move(cycle.res);
}

// Claim lookup (§6.1). Template claims are created first, as the resource-claim controller does
// independently of scheduling; an entry equal to one of the pod's PodGroup uses the group's claim
// (group_claim_cycle.h). Returns the first lookup error, "" when every claim was found.
std::string Cluster::Impl::lookupClaims(Cycle& cycle)
{
    const api::Pod& pod = cycle.pod;
    const std::string ns = nsOf(pod.meta);
    std::string lookupError;
    cycle.claimOfEntry.assign(pod.spec.resourceClaims.size(), nullptr);
    // A pending pod looks its claims up on every retry: the names are written into buffers kept
    // per thread instead of strings made each time.
    thread_local std::string claimName, key;
    auto keyOfClaim = [&]() -> const std::string& { return key.assign(ns).append(1, '/').append(claimName); };
    for (const auto& e : pod.spec.resourceClaims) {
        claimName.clear();
        const GroupClaims::Entry use = GroupClaims::resolve(*this, cycle, e, claimName, lookupError);
        if (use == GroupClaims::Entry::Missing)
            continue;
        ClaimState* c = nullptr;
        if (use == GroupClaims::Entry::Group) {
            // claimName is the PodGroup's claim, made by the controller if it was missing.
            c = findClaim(keyOfClaim());
        } else if (e.resourceClaimName) {
            claimName.assign(*e.resourceClaimName);
            c = findClaim(keyOfClaim());
        } else if (e.resourceClaimTemplateName) {
            claimName.assign(pod.meta.name).append(1, '-').append(e.name);
            c = claimFromTemplate(cycle, e, claimName, lookupError);
            if (!c)
                continue;
        } else {
            continue;
        }
        if (!c) {
            if (lookupError.empty())
                lookupError = "resourceclaim.resource.k8s.io \"" + claimName + "\" not found";
            continue;
        }
        if (c->claim.deleting && lookupError.empty())
            lookupError = "resourceclaim \"" + claimName + "\" is being deleted";
        cycle.claimOfEntry[size_t(&e - pod.spec.resourceClaims.data())] = c;
        if (std::find(cycle.podClaims.begin(), cycle.podClaims.end(), c) == cycle.podClaims.end())
            cycle.podClaims.push_back(c);
        if (use == GroupClaims::Entry::Group && !GroupClaims::ofGroup(cycle, c))
            cycle.groupClaims.push_back(c);
    }
    for (auto* c : cycle.podClaims)
        cycle.res.claims.push_back(c->key);
    return lookupError;
}

// The claim generated for a template entry of the pod: created when missing, checked for
// ownership when present. Null when the template does not exist.
Cluster::Impl::ClaimState* Cluster::Impl::claimFromTemplate(
    Cycle& cycle, const api::PodResourceClaim& e, const std::string& claimName, std::string& lookupError)
{
    const api::Pod& pod = cycle.pod;
    const std::string ns = nsOf(pod.meta);
    thread_local std::string key; // as in lookupClaims: most calls only look the claim up
    key.assign(ns).append(1, '/').append(claimName);
    ClaimState* existing = findClaim(key);
    // Upstream looks at the deletion timestamp before ownership: the caller reports a claim
    // being deleted, whoever owns it.
    if (existing && existing->claim.deleting)
        return existing;
    if (existing) {
        bool owned = existing->generated ? existing->ownerPod == cycle.podKey : false;
        for (const auto& o : existing->claim.meta.ownerReferences)
            if (o.controller && o.kind == "Pod" && o.name == pod.meta.name)
                owned = true;
        if (!owned && lookupError.empty())
            lookupError
                = "ResourceClaim " + key + " was not created for pod " + cycle.podKey + " (pod is not owner)";
        return existing;
    }
    thread_local std::string templateKey;
    auto t = templates.find(templateKey.assign(ns).append(1, '/').append(*e.resourceClaimTemplateName));
    if (t == templates.end()) {
        // Upstream's controller only emits an event; name the template like a lister error, as
        // for missing claims (§6.1).
        if (lookupError.empty())
            lookupError
                = "resourceclaimtemplate.resource.k8s.io \"" + *e.resourceClaimTemplateName + "\" not found";
        return nullptr;
    }
    // Templates are fixed once the cluster is made, so the template's address names the spec of
    // every claim made from it.
    const uint64_t specId = uint64_t(reinterpret_cast<uintptr_t>(&t->second));
    // Assignments over a claim erased before: its buffers and map nodes are reused. One made from
    // the same template has the template's labels, annotations and spec already (nothing changes
    // them once a claim is made).
    ClaimState* spare = spareClaims.empty() ? nullptr : &spareClaims.back().mapped();
    const bool sameTemplate = spare && spare->specId == specId;
    api::ResourceClaim c = reusedClaim(spare ? &spare->claim : nullptr);
    c.meta.name = claimName;
    c.meta.namespace_ = ns;
    if (!sameTemplate) {
        c.meta.labels = t->second.claimMeta.labels;
        c.meta.annotations = t->second.claimMeta.annotations;
        c.spec = t->second.spec;
    }
    // The resource-claim controller records which pod claim a generated claim serves.
    static const std::string kPodClaimName = "resource.kubernetes.io/pod-claim-name";
    c.meta.annotations[kPodClaimName] = e.name;
    c.meta.ownerReferences.resize(1);
    api::OwnerReference& owner = c.meta.ownerReferences.front();
    owner.apiVersion = "v1";
    owner.kind = "Pod";
    owner.name = pod.meta.name;
    owner.uid = pod.meta.uid;
    owner.controller = true;
    ClaimState& created = addClaim(std::move(c), true, cycle.podKey, &key);
    created.specId = specId;
    undo.generatedRestore(cycle.podKey);
    auto generated = generatedFor.find(cycle.podKey);
    if (generated == generatedFor.end() && spareGenerated) {
        // The entry of a pod that finished, with its node and list.
        spareGenerated.key() = cycle.podKey;
        spareGenerated.mapped().clear();
        generated = generatedFor.insert(std::move(spareGenerated)).position;
    } else if (generated == generatedFor.end()) {
        generated = generatedFor.try_emplace(cycle.podKey).first;
    }
    generated->second.push_back(key);
    return &created;
}

// PreFilter (§6.2): allocated claims only restrict the node; the classes of unallocated claims
// must exist. Returns the first error, "" when none.
std::string Cluster::Impl::preFilter(Cycle& cycle)
{
    std::string error;
    for (auto* c : cycle.podClaims) {
        if (c->claim.allocation) {
            if (c->claim.allocation->nodeSelector)
                cycle.allocatedSelectors.push_back(&*c->claim.allocation->nodeSelector);
            continue;
        }
        cycle.toAllocate.push_back(c);
        for (const auto& r : c->claim.spec.requests) {
            auto check = [&](const std::string& name, const api::DeviceRequestSpec& s) {
                if (!classes.count(s.deviceClassName) && error.empty())
                    error = "request " + name + ": device class " + s.deviceClassName + " does not exist";
            };
            if (r.exactly)
                check(r.name, *r.exactly);
            for (const auto& s : r.firstAvailable)
                check(r.name + "/" + s.name, s.spec);
        }
    }
    return error;
}

std::string Cluster::Impl::Verdicts::keyOf(const Cycle& cycle)
{
    if (cycle.toAllocate.empty() || cycle.toAllocate.size() != cycle.podClaims.size())
        return {};
    for (const auto* c : cycle.podClaims)
        if (!c->generated)
            return {};
    std::string key = nsOf(cycle.pod.meta);
    for (const auto& e : cycle.pod.spec.resourceClaims) {
        if (!e.resourceClaimTemplateName)
            return {};
        key += '\0';
        key += *e.resourceClaimTemplateName;
    }
    return key;
}

int Cluster::Impl::Verdicts::allocateOn(Impl& d, Cycle& cycle, uint32_t idx, allocator::Attempt& attempt)
{
    attempt = d.alloc->allocate(d.nodes[idx].node, d.viewOf(idx));
    int dra = -1;
    switch (attempt.status) {
    case allocator::AttemptStatus::Success:
        break;
    case allocator::AttemptStatus::NoSolution:
        dra = kCannotAllocate;
        break;
    case allocator::AttemptStatus::InvalidPools:
        dra = kInvalidPools;
        break;
    case allocator::AttemptStatus::Timeout:
        dra = kTimedOut;
        break;
    case allocator::AttemptStatus::Error:
        cycle.fatal = attempt.error;
        dra = kFatal;
        break;
    }
    if (cycle.verdicts && dra != kTimedOut && dra != kFatal)
        d.draVerdicts.store(cycle.verdicts, idx, dra);
    return dra;
}

// Filter (§6.3): one node through every filter; true when feasible (attempt holds the devices).
bool Cluster::Impl::filterNode(Cycle& cycle, uint32_t idx, allocator::Attempt& attempt)
{
    const auto& ns = nodes[idx];
    // One reason list for the whole cycle, emptied per node, instead of one vector made and
    // destroyed per node: this runs for every node when a pending pod is retried.
    auto& reasons = cycle.nodeFilterReasons;
    reasons.clear();
    // On a node that leaves extended resources to DRA, NodeResourcesFit does not count them. The
    // reduced requests are built only on such a node: a pod with no extended resources backed by
    // DRA (almost every pod) has mask 0 on every node and is checked with its own requests.
    const uint64_t mask = draMask(cycle, idx);
    // Pods nominated here that are at least as important take their room first.
    const NodeUsage& base = cycle.dryRunUsage && cycle.dryRunNode == idx ? *cycle.dryRunUsage : ns.usage;
    NodeUsage withNominated;
    const bool nominated = !nominatedOn.empty()
        && Nominator::usageWithNominated(
            *this, cycle.podKey, cycle.pod.spec.priority.value_or(0), idx, base, withNominated);
    const NodeUsage& usage = nominated ? withNominated : base;
    // The same pods as PodTopologySpread's and InterPodAffinity's AddPod see them; the filters then
    // run a second time without them, as a pod they let in may not need them to be there.
    const auto placed = nominated ? Nominator::placementWithNominated(*this, cycle, idx) : nullptr;
    const PlacementCycle* placement = placed ? placed.get() : cycle.placement.get();
    const FilterSet filters = cycle.profile->filters;
    bool fits = false;
    if (!cycle.profile->filterOrder.empty()) {
        const PodRequests& req = mask ? fitRequests(cycle, idx) : cycle.req;
        fits = passesFiltersInOrder(
            cycle.profile->filterOrder, ns.node, usage, cycle.pod, req, placement, idx, reasons);
        if (fits && placed)
            fits = passesFiltersInOrder(cycle.profile->filterOrder, ns.node, base, cycle.pod, req,
                cycle.placement.get(), idx, reasons);
    } else {
        fits = mask ? passesNodeFilters(ns.node, usage, cycle.pod, fitRequests(cycle, idx), reasons, filters)
                    : passesNodeFilters(ns.node, usage, cycle.pod, cycle.req, reasons, filters);
        // PodTopologySpread and InterPodAffinity come after NodeResourcesFit, before DynamicResources;
        // the node filters before them pass without the nominated pods when they pass with them.
        for (const PlacementCycle* p : { placement, placed ? cycle.placement.get() : nullptr })
            if (fits && p)
                if (const char* why = p->check(idx, ns.node)) {
                    reasons.emplace_back(why);
                    fits = false;
                }
    }
    if (!fits) {
        for (const auto& r : reasons)
            ++cycle.histogram[r];
        if (preemptionMayHelp(reasons))
            cycle.resolvable.push_back(idx);
        if (cycle.explain)
            cycle.nodeReasons[idx] = reasons;
        return false;
    }
    // DRA reasons are a fixed set: count them in an array instead of a string-keyed map, which
    // matters when a pending pod is retried against thousands of full nodes.
    if (cycle.nodeAllocatable && NodeAllocatableCycle::sharingRefused(*this, cycle, idx))
        return false;
    int dra = -1;
    for (const auto* sel : cycle.allocatedSelectors)
        if (!allocator::matchesNodeSelector(*sel, ns.node)) {
            dra = kNotAvailable;
            break;
        }
    if (dra < 0 && cycle.zeroFreeShortcut && freeOf(idx) == 0 && !viewOf(idx).anyInvalid) {
        dra = kCannotAllocate;
    } else if (dra < 0 && mask != cycle.preparedMask && !prepareAllocator(cycle, mask, &cycle.fatal)) {
        dra = kFatal;
    } else if (dra < 0 && (!cycle.toAllocate.empty() || mask)) {
        const std::optional<int> known = draVerdicts.find(cycle.verdicts, idx);
        cycle.verdictRemembered = known.has_value();
        if (known)
            dra = *known;
        else
            dra = Verdicts::allocateOn(*this, cycle, idx, attempt);
    }
    if (dra < 0 && cycle.nodeAllocatable) {
        using V = NodeAllocatableCycle::Verdict;
        const V v = NodeAllocatableCycle::filter(*this, cycle, idx, attempt, usage);
        if (v == V::Rejected)
            return false;
        if (v == V::Error)
            dra = kFatal;
    }
    if (cycle.explain)
        cycle.draStatus[idx] = dra < 0 ? std::string()
            : dra == kFatal            ? "error: " + cycle.fatal
                                       : kDraReasons[dra];
    if (dra < 0)
        return true;
    if (dra != kFatal)
        ++cycle.draHistogram[size_t(dra)];
    if (dra == kCannotAllocate && options.whatIfDraPreemption)
        cycle.resolvable.push_back(idx);
    return false;
}

// Scores here depend only on the node's own usage, so the best feasible node is the first feasible
// one in score order: no need to run the allocator on every node. Nodes without a free device are
// not even listed when the pod needs one.
void Cluster::Impl::searchInScoreOrder(Cycle& cycle)
{
    auto& sc = sigFor(cycle.req, cycle.zeroFreeShortcut);
    // True when the search is over: a node chosen, or an error that ends the cycle.
    auto decided = [&](uint32_t idx) {
        allocator::Attempt a;
        cycle.verdictRemembered = false;
        if (filterNode(cycle, idx, a)) {
            cycle.chosen = idx;
            // A remembered verdict comes without devices: the allocator runs once more on the
            // node, in the state the verdict saw, and finds what it found then.
            cycle.chosenAttempt = cycle.verdictRemembered && !cycle.toAllocate.empty()
                ? alloc->allocate(nodes[idx].node, viewOf(idx))
                : std::move(a);
            return true;
        }
        return !cycle.fatal.empty();
    };
    if (placementNodes) {
        // Inside a group's placement only its nodes are candidates: put them in the order the
        // cache keeps (the same keys, the same listed nodes) rather than walk every node of the
        // cluster past the mask, which made each pod of a rack-constrained group cost O(nodes).
        std::vector<std::pair<int64_t, uint32_t>> inPlacement;
        inPlacement.reserve(placementNodes->size());
        for (uint32_t idx : *placementNodes)
            if (sc.order.count({ -sc.score[idx], idx }))
                inPlacement.emplace_back(-sc.score[idx], idx);
        std::sort(inPlacement.begin(), inPlacement.end());
        for (const auto& entry : inPlacement)
            if (decided(entry.second))
                return;
    } else {
        for (const auto& entry : sc.order)
            if (decided(entry.second))
                return;
    }
    // Nothing fits: the message needs every node's reason, which the full pass collects.
    cycle.histogram.clear();
    cycle.draHistogram.fill(0);
    cycle.resolvable.clear();
}

// Nodes filtered until numFeasibleNodesToFind of them pass (every node on clusters of up to 100),
// the feasible ones scored (§6.5); ties go to the node name sorting first, or to the first in the
// seeded order (SchedulerOptions::tieBreak).
void Cluster::Impl::searchEveryNode(Cycle& cycle)
{
    struct Feasible
    {
        uint32_t idx;
        allocator::Attempt attempt;
    };
    std::vector<Feasible> feasible;
    // Inside a group's placement only its nodes (ascending, so still in name order).
    const uint32_t candidates = placementNodes ? uint32_t(placementNodes->size()) : uint32_t(nodes.size());
    // A search that may stop early walks the node tree's order from where the last one stopped;
    // one that examines every node gives the same result in any order, and walks them by name.
    const bool limited = cycle.nodesToFind < candidates;
    std::vector<uint32_t> order;
    if (limited && placementNodes) {
        order = *placementNodes;
        std::sort(
            order.begin(), order.end(), [this](uint32_t a, uint32_t b) { return scanRank[a] < scanRank[b]; });
    }
    const std::vector<uint32_t>& walk = placementNodes ? order : scanOrder;
    const uint32_t start = limited ? nextStartNodeIndex % candidates : 0;
    if (cycle.usageOrder) {
        // Scores that follow node usage: the best feasible node by usage score wins, and nothing
        // is scored afterwards (feasible_walk.cpp).
        const std::vector<uint32_t>* list = limited ? &walk : placementNodes;
        const uint32_t examined = Verdicts::walkByUsage(*this, cycle, list, start, candidates);
        if (candidates > 0)
            nextStartNodeIndex = uint32_t((uint64_t(nextStartNodeIndex) + examined) % candidates);
        return;
    }
    feasible.reserve(std::min(cycle.nodesToFind, candidates));
    uint32_t examined = 0;
    for (uint32_t k = 0; k < candidates && feasible.size() < cycle.nodesToFind; ++k) {
        const uint32_t idx = limited ? walk[(start + k) % candidates]
            : placementNodes         ? (*placementNodes)[k]
                                     : k;
        ++examined;
        if (cycle.explain)
            cycle.examined[idx] = 1;
        allocator::Attempt a;
        if (filterNode(cycle, idx, a))
            feasible.push_back(Feasible { idx, std::move(a) });
        else if (!cycle.fatal.empty())
            break;
    }
    // Upstream moves the start past every node processed, whatever the outcome; a search of every
    // candidate leaves it where it was.
    if (candidates > 0)
        nextStartNodeIndex = uint32_t((uint64_t(nextStartNodeIndex) + examined) % candidates);
    cycle.examinedCount = examined;
    cycle.feasibleCount = uint32_t(feasible.size());
    if (!cycle.fatal.empty() || feasible.empty())
        return;
    // Scoring fails the cycle with an error (SchedulerProfile::scoreError); one feasible node is
    // taken unscored (schedulePod).
    if (feasible.size() > 1 && !cycle.profile->scoreError.empty()) {
        cycle.res.failure = FailureKind::AllocatorError;
        cycle.res.message = cycle.profile->scoreError;
        return;
    }
    // Scores are normalised over the feasible set in any order; name order keeps ties by name. The
    // order is sorted, not the attempts: moving each node's device picks costs more than the sort.
    std::vector<uint32_t> byName(feasible.size());
    std::iota(byName.begin(), byName.end(), 0u);
    if (limited)
        std::sort(byName.begin(), byName.end(),
            [&](uint32_t a, uint32_t b) { return feasible[a].idx < feasible[b].idx; });
    std::vector<ScoreInputs> inputs;
    std::vector<uint32_t> feasibleNodes;
    inputs.reserve(feasible.size());
    feasibleNodes.reserve(feasible.size());
    for (const uint32_t i : byName) {
        const auto& f = feasible[i];
        const auto& n = nodes[f.idx];
        inputs.push_back(ScoreInputs { &cycle.pod, &cycle.req, &n.node, &n.usage, f.attempt.plistScore });
        feasibleNodes.push_back(f.idx);
    }
    if (cycle.placement)
        PodPlacement::score(*this, cycle, feasibleNodes, inputs);
    const ScoringProfile& profile = cycle.profile->scoring;
    NodeChoice::ShareViews shareViews;
    if (auto share = sharePolicyOf(profile)) {
        NodeChoice::fillShareInputs(*this, cycle, *share, feasibleNodes, shareViews, inputs);
        if (*share == gpushare::SharePolicy::Fgd && options.claimTarget)
            ClaimScoring::fillScores(*this, cycle, feasibleNodes, inputs);
    }
    const auto scores = scoreNodes(profile, inputs);
    const size_t best = NodeChoice::pick(*this, cycle, feasibleNodes, scores);
    cycle.chosen = feasible[byName[best]].idx;
    cycle.chosenAttempt = std::move(feasible[byName[best]].attempt);
}

void Cluster::Impl::diagnose(Cycle& cycle)
{
    cycle.diagnosis = std::make_shared<PodDiagnosis>();
    cycle.diagnosis->pod = cycle.podKey;
    const uint32_t candidates = placementNodes ? uint32_t(placementNodes->size()) : uint32_t(nodes.size());
    const bool stoppedEarly = cycle.examinedCount > 0 && cycle.examinedCount < candidates;
    if (stoppedEarly)
        cycle.diagnosis->search = "examined " + std::to_string(cycle.examinedCount) + " of "
            + std::to_string(candidates) + " nodes: the search stops at " + std::to_string(cycle.nodesToFind)
            + " feasible nodes (percentageOfNodesToScore "
            + percentageOfNodesToScoreText(percentageOfNodesToScore(options, *cycle.profile), candidates)
            + ") and scores only those";
    for (uint32_t idx = 0; idx < nodes.size(); ++idx) {
        if (stoppedEarly && !cycle.examined[idx]) {
            NodeDiagnosis nd;
            nd.node = nodes[idx].node.meta.name;
            nd.examined = false;
            cycle.diagnosis->nodes.push_back(std::move(nd));
            continue;
        }
        cycle.diagnosis->nodes.push_back(diagnoseNode(cycle, idx));
    }
    cycle.res.diagnosis = cycle.diagnosis;
}

// What rejected the node, and per claim and request what rejected each device on its own.
NodeDiagnosis Cluster::Impl::diagnoseNode(Cycle& cycle, uint32_t idx)
{
    const auto& n = nodes[idx].node;
    NodeDiagnosis nd;
    nd.node = n.meta.name;
    nd.nodeReasons = cycle.nodeReasons[idx];
    nd.draStatus = cycle.draStatus[idx];
    if (nd.nodeReasons.empty() && nd.draStatus.empty() && !cycle.fatal.empty()
        && int64_t(idx) != cycle.chosen) {
        std::vector<std::string> r;
        if (!passesNodeFilters(
                n, nodes[idx].usage, cycle.pod, fitRequests(cycle, idx), r, cycle.profile->filters))
            nd.nodeReasons = r;
        else
            nd.draStatus = "not evaluated: scheduling cycle aborted";
    }
    for (auto* c : cycle.podClaims) {
        if (!c->claim.allocation)
            continue;
        ClaimDiagnosis cd;
        cd.claim = c->key;
        cd.allocated = true;
        if (c->claim.allocation->nodeSelector
            && !allocator::matchesNodeSelector(*c->claim.allocation->nodeSelector, n))
            cd.note = "allocated devices are not available on this node";
        nd.claims.push_back(std::move(cd));
    }
    const uint64_t mask = draMask(cycle, idx);
    std::string ignored; // a claim set that fails to prepare was reported by the filter pass
    if ((cycle.toAllocate.empty() && !mask)
        || (mask != cycle.preparedMask && !prepareAllocator(cycle, mask, &ignored)))
        return nd;
    for (auto& cv : alloc->explain(n)) {
        ClaimDiagnosis cd;
        cd.claim = cv.claim;
        bool enough = true;
        for (auto& rv : cv.requests) {
            RequestDiagnosis rd;
            rd.request = rv.request;
            rd.deviceClass = rv.deviceClass;
            rd.mode = rv.mode;
            rd.wanted = rv.wanted;
            rd.visible = rv.visible;
            rd.eligible = rv.eligible;
            rd.firstError = rv.firstError;
            rd.firstRuleTaint = rv.firstRuleTaint;
            rd.rejected = rv.rejected;
            if (int64_t(rd.eligible) < rd.wanted && rd.request.find('/') == std::string::npos)
                enough = false;
            cd.requests.push_back(std::move(rd));
        }
        if (enough && cv.hasConstraints && nd.draStatus == "cannot allocate all claims")
            cd.note = "enough devices pass on their own; a claim constraint would not be satisfied";
        if (mask && cv.claim == keyOf(cycle.extClaims.at(mask).claim.meta))
            cd.note = extendedResourceClaimNote(cycle.backed, mask);
        nd.claims.push_back(std::move(cd));
    }
    return nd;
}

void Cluster::Impl::reportFailure(Cycle& cycle)
{
    auto& res = cycle.res;
    if (cycle.fatal.empty() && res.failure == FailureKind::AllocatorError) {
        // The Score plugins failed (searchEveryNode): the message is theirs.
    } else if (!cycle.fatal.empty()) {
        // kube-scheduler wraps a Filter error this way; upstream reports it with reason
        // SchedulerError, the simulator contract uses Unschedulable for every pending pod.
        res.failure = FailureKind::AllocatorError;
        res.message = "running \"DynamicResources\" filter plugin: " + cycle.fatal;
    } else {
        res.failure = FailureKind::Unschedulable;
        for (size_t i = 0; i < cycle.draHistogram.size(); ++i)
            if (cycle.draHistogram[i])
                cycle.histogram[kDraReasons[i]] += cycle.draHistogram[i];
        res.unschedulablePlugins = pluginsOfReasons(cycle.histogram);
        res.message
            = fitErrorMessage((placementNodes ? placementNodes->size() : nodes.size()), cycle.histogram);
    }
    if (cycle.diagnosis)
        cycle.diagnosis->message = res.message;
}

// PreBind appends the pod to each claim's reservedFor without checking anything; the API server
// refuses a list longer than 256 (§2.4, §3.14), which fails the binding cycle with this error and
// sends the pod back to the queue. Decision: nothing of the cycle is kept, although upstream keeps
// the allocation of a claim that precedes the full one in the pod's list (it is written first).
std::string Cluster::Impl::reservationRefused(const Cycle& cycle) const
{
    constexpr size_t kReservedForMax = 256;
    for (const auto* c : cycle.podClaims) {
        const auto& rf = c->claim.reservedFor;
        // A claim used through the PodGroup takes one entry for the whole group (KEP-5729): only
        // the first member's reservation adds one.
        const bool reserved = GroupClaims::ofGroup(cycle, c)
            ? GroupClaims::reservedForGroup(cycle, *c)
            : std::any_of(rf.begin(), rf.end(), [&](const api::ResourceClaimConsumerReference& r) {
                  return r.resource == "pods" && r.name == cycle.pod.meta.name && r.uid == cycle.pod.meta.uid;
              });
        if (reserved || rf.size() < kReservedForMax)
            continue;
        const std::string name = c->claim.meta.name;
        return "running PreBind plugin \"DynamicResources\": add reservation to claim " + c->key
            + ": ResourceClaim.resource.k8s.io \"" + name
            + "\" is invalid: status.reservedFor: Too many: " + std::to_string(rf.size() + 1)
            + ": must have at most " + std::to_string(kReservedForMax) + " items";
    }
    return "";
}

// Reserve, PreBind and Bind (§6.6): write the allocations, reserve every claim for the pod, bind.
void Cluster::Impl::reserveAndBind(Cycle& cycle)
{
    const api::Pod& pod = cycle.pod;
    auto& res = cycle.res;
    auto& node = nodes[size_t(cycle.chosen)];
    createExtendedResourceClaim(cycle);
    for (const auto* c : cycle.podClaims)
        undo.claimRestore(*c);
    if (!cycle.toAllocate.empty()) {
        auto results = alloc->buildResults(
            node.node, cycle.chosenAttempt, [&] { return shareIds.next(); },
            [&] { return formatRfc3339(time); }, &spareAllocations);
        // Picks come claim by claim in result order: each claim's picks name its devices.
        const auto& picks = cycle.chosenAttempt.picks;
        thread_local std::vector<allocator::DeviceId> known;
        size_t pick = 0;
        for (size_t i = 0; i < cycle.toAllocate.size(); ++i) {
            auto* c = cycle.toAllocate[i];
            c->claim.allocation = std::move(results[i]);
            known.clear();
            for (; pick < picks.size() && picks[pick].claim == i; ++pick)
                known.push_back(picks[pick].entry.id);
            applyAllocation(*c->claim.allocation, +1, known);
            c->deviceIds = known;
            auto& fin = c->claim.meta.finalizers;
            if (std::find(fin.begin(), fin.end(), kDeleteProtection) == fin.end())
                fin.push_back(kDeleteProtection);
        }
        // Picks come claim by claim in result order, so the n-th pick of a claim is its n-th result.
        thread_local std::vector<size_t> nextResult;
        nextResult.assign(cycle.toAllocate.size(), 0);
        for (const auto& p : cycle.chosenAttempt.picks) {
            const auto* c = cycle.toAllocate[p.claim];
            const auto& r = c->claim.allocation->results[nextResult[p.claim]++];
            AllocatedDevice ad;
            ad.claim = c->key;
            ad.request = r.request;
            ad.adminAccess = r.adminAccess.value_or(false);
            const auto& k = registry.key(p.entry.id);
            ad.deviceId = p.entry.id;
            ad.driver = k.driver;
            ad.pool = k.pool;
            ad.device = k.device;
            const bool perDevice = p.entry.slice->perDeviceNodeSelection.value_or(false);
            const auto& nn = perDevice ? p.entry.device->nodeName : p.entry.slice->nodeName;
            ad.node = nn ? *nn : std::string();
            ad.shared = p.entry.multi;
            res.allocated.push_back(std::move(ad));
        }
    }
    for (auto* c : cycle.podClaims) {
        if (GroupClaims::ofGroup(cycle, c)) {
            GroupClaims::reserve(cycle, *c);
            continue;
        }
        auto& rf = c->claim.reservedFor;
        bool present = std::any_of(rf.begin(), rf.end(), [&](const api::ResourceClaimConsumerReference& r) {
            return r.resource == "pods" && r.name == pod.meta.name && r.uid == pod.meta.uid;
        });
        if (!present)
            rf.push_back(api::ResourceClaimConsumerReference { "", "pods", pod.meta.name, pod.meta.uid });
    }
    // What the claims' devices add to the pod's requests (DRANodeAllocatableResources) is written to
    // its status and charged to the node for as long as it runs.
    PodRequests boundReq = cycle.req;
    if (cycle.nodeAllocatable) {
        res.nodeAllocatableResourceClaimStatuses = NodeAllocatableCycle::atBind(*this, cycle);
        if (!res.nodeAllocatableResourceClaimStatuses.empty()) {
            const DraNodeAllocatable dra
                = draNodeAllocatable(pod.spec, res.nodeAllocatableResourceClaimStatuses);
            boundReq = computePodRequests(pod.spec, &dra);
        }
    }
    // Written over the entry of the last pod that finished, when there is one: its strings and
    // lists are reused.
    BoundNode entry;
    if (!spareBound.empty()) {
        entry = std::move(spareBound.back());
        spareBound.pop_back();
    }
    PodState made;
    PodState& ps = entry ? entry.mapped() : made;
    // Its placement too, when it was its own and nothing holds it any more (a change the queue
    // has not read yet may).
    std::shared_ptr<PlacementPod> sparePlacement;
    if (entry && ps.ownPlacement && ps.placement.use_count() == 1)
        sparePlacement = std::const_pointer_cast<PlacementPod>(std::move(ps.placement));
    if (entry)
        ps.clearForReuse();
    ps.pub.key = cycle.podKey;
    ps.pub.nodeName = node.node.meta.name;
    ps.pub.claims = res.claims;
    ps.name = pod.meta.name;
    ps.uid = pod.meta.uid;
    ps.req = boundReq;
    ps.pub.priority = pod.spec.priority.value_or(0);
    ps.groupKey = groupKeyOf(pod);
    ps.startTime = time;
    ps.nodeIdx = uint32_t(cycle.chosen);
    ps.rememberForBudgets(budgets, pod.meta);
    ps.placement = PodPlacement::ofBound(cycle, std::move(sparePlacement));
    ps.ownPlacement = !cycle.placement;
    ps.seq = nextBindSeq++;
    ClusterChange added;
    added.kind = ClusterChange::Kind::AssignedPodAdded;
    added.pod = ps.placement;
    if (entry) {
        entry.key() = cycle.podKey;
        undo.insertBound(std::move(entry));
    } else {
        undo.insertBound(std::move(made));
    }
    if (placementIndex.bindingsMayLetPodsFit)
        ++freeEvents;
    changes.record(std::move(added));
    Nominator::clear(*this, cycle.podKey);
    chargeNode(uint32_t(cycle.chosen), boundReq, +1);
    res.scheduled = true;
    res.nodeName = node.node.meta.name;
    if (cycle.diagnosis) {
        cycle.diagnosis->scheduled = true;
        cycle.diagnosis->nodeName = res.nodeName;
    }
}

} // namespace drasim::scheduler
