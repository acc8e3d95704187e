// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/cluster.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <unordered_map>

#include "core/allocator/allocated_state.h"
#include "core/allocator/allocator.h"
#include "core/allocator/inventory.h"
#include "core/allocator/node_match.h"
#include "core/allocator/selector_cache.h"
#include "core/scheduler/node_filters.h"
#include "core/scheduler/pod_info.h"
#include "core/scheduler/scoring.h"
#include "core/scheduler/share_id.h"

namespace drasim::scheduler {

const char* scoringPolicyName(ScoringPolicy policy)
{
    switch (policy) {
    case ScoringPolicy::Default:
        return "default";
    case ScoringPolicy::MostAllocated:
        return "most-allocated";
    case ScoringPolicy::LeastAllocated:
        return "least-allocated";
    }
    return "default";
}

std::optional<ScoringPolicy> parseScoringPolicy(std::string_view name)
{
    if (name == "default")
        return ScoringPolicy::Default;
    if (name == "most-allocated" || name == "bin-packing")
        return ScoringPolicy::MostAllocated;
    if (name == "least-allocated")
        return ScoringPolicy::LeastAllocated;
    return std::nullopt;
}

namespace {

const char* const kDeleteProtection = "resource.kubernetes.io/delete-protection";

// DynamicResources Filter reasons (upstream wording), indexed by the constants below.
const char* const kDraReasons[] = { "cannot allocate all claims", "resourceclaim not available on the node",
    "invalid resource pools were encountered", "timed out trying to allocate devices" };
constexpr int kCannotAllocate = 0;
constexpr int kNotAvailable = 1;
constexpr int kInvalidPools = 2;
constexpr int kTimedOut = 3;
constexpr int kFatal = 4;

std::string nsOf(const api::ObjectMeta& m)
{
    return m.namespace_.empty() ? std::string("default") : m.namespace_;
}

std::string keyOf(const api::ObjectMeta& m)
{
    return nsOf(m) + "/" + m.name;
}

// kube-scheduler's FitError text: "0/N nodes are available: <count reason>, ... ."
std::string fitErrorMessage(size_t total, const std::map<std::string, int>& histogram)
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

struct Cluster::Impl
{
    struct NodeState
    {
        api::Node node;
        NodeUsage usage;
    };
    struct ClaimState
    {
        api::ResourceClaim claim;
        std::string key;
        bool generated = false;
        std::string ownerPod;
    };
    struct PodState
    {
        BoundPod pub;
        std::string name;
        std::string uid;
        PodRequests req;
        uint64_t seq = 0;
    };
    struct SigKey
    {
        int64_t nzCpu, nzMem, cpu, mem;
        bool needsDevice; ///< only nodes with at least one free device are listed
        bool operator<(const SigKey& o) const
        {
            return std::tie(nzCpu, nzMem, cpu, mem, needsDevice)
                < std::tie(o.nzCpu, o.nzMem, o.cpu, o.mem, o.needsDevice);
        }
    };
    struct SigCache
    {
        PodRequests req;
        bool needsDevice = false;
        std::set<std::pair<int64_t, uint32_t>> order; ///< (−score, node index): best first, ties by name
        std::vector<int64_t> score;
        uint64_t lastUse = 0;
    };
    static constexpr size_t kMaxSigCaches = 8;

    SchedulerOptions options;
    Diagnostics diagnostics { 1000 };
    allocator::DeviceRegistry registry;
    allocator::Inventory inventory { registry };
    allocator::AllocatedState state { registry };
    allocator::SelectorCache selectors;
    std::map<std::string, api::DeviceClass> classes;
    std::map<std::string, api::ResourceSlice> slices;
    std::map<std::string, api::ResourceClaimTemplate> templates;
    std::unique_ptr<allocator::Allocator> alloc;

    std::vector<NodeState> nodes; ///< sorted by name
    std::unordered_map<std::string, uint32_t> nodeIndex;
    size_t preferNoScheduleNodes = 0;

    std::map<uint64_t, ClaimState> claimsBySeq; ///< creation order; map nodes keep addresses stable
    std::unordered_map<std::string, uint64_t> claimSeq;
    uint64_t nextClaimSeq = 0;

    std::unordered_map<std::string, PodState> bound;
    std::map<uint64_t, std::string> bindOrder;
    uint64_t nextBindSeq = 0;
    std::unordered_map<std::string, std::vector<std::string>> generatedFor;

    ShareIdGenerator shareIds;
    double time = 0;
    uint64_t freeEvents = 0;

    std::map<SigKey, SigCache> sigs;
    uint64_t sigClock = 0;

    // Per node index: its device view, and how many of its devices are not dedicated to a claim
    // (-1 = not computed). A node without free devices cannot serve a pod that needs one, which
    // lets a scheduling cycle skip most full nodes without running the allocator.
    std::vector<const allocator::NodeView*> views;
    std::vector<int32_t> freeCount;
    std::vector<int32_t> deviceNode; ///< DeviceId -> index of the node it is local to, -1 otherwise

    explicit Impl(SchedulerOptions o)
        : options(o)
        , shareIds(o.seed)
    {
        alloc = std::make_unique<allocator::Allocator>(inventory, state, selectors, classes,
            allocator::AllocatorOptions { o.searchStepBudget, o.filterTimeoutSeconds });
    }

    ClaimState* findClaim(const std::string& key)
    {
        auto it = claimSeq.find(key);
        return it == claimSeq.end() ? nullptr : &claimsBySeq.at(it->second);
    }

    ClaimState& addClaim(api::ResourceClaim claim, bool generated, const std::string& owner)
    {
        std::string key = keyOf(claim.meta);
        if (auto* existing = findClaim(key)) {
            if (existing->claim.allocation)
                applyAllocation(*existing->claim.allocation, -1);
            existing->claim = std::move(claim);
            existing->generated = generated;
            existing->ownerPod = owner;
            if (existing->claim.allocation)
                applyAllocation(*existing->claim.allocation, +1);
            return *existing;
        }
        uint64_t seq = nextClaimSeq++;
        auto& cs = claimsBySeq[seq];
        cs.claim = std::move(claim);
        cs.key = key;
        cs.generated = generated;
        cs.ownerPod = owner;
        claimSeq[key] = seq;
        if (cs.claim.allocation)
            applyAllocation(*cs.claim.allocation, +1);
        return cs;
    }

    void deleteClaim(const std::string& key)
    {
        auto it = claimSeq.find(key);
        if (it == claimSeq.end())
            return;
        auto& cs = claimsBySeq.at(it->second);
        if (cs.claim.allocation)
            applyAllocation(*cs.claim.allocation, -1);
        claimsBySeq.erase(it->second);
        claimSeq.erase(it);
    }

    void rebuildNodes()
    {
        std::sort(nodes.begin(), nodes.end(),
            [](const NodeState& a, const NodeState& b) { return a.node.meta.name < b.node.meta.name; });
        nodeIndex.clear();
        preferNoScheduleNodes = 0;
        for (uint32_t i = 0; i < nodes.size(); ++i) {
            nodeIndex[nodes[i].node.meta.name] = i;
            for (const auto& t : nodes[i].node.taints)
                if (t.effect == "PreferNoSchedule") {
                    ++preferNoScheduleNodes;
                    break;
                }
        }
        sigs.clear();
        resetDeviceCaches();
    }

    /// changed: slices that were added or replaced (their devices' selector verdicts are
    /// dropped; every other verdict stays valid because a device instance is one slice's device
    /// object, whatever other generation or slice carries a device of the same name).
    void rebuildInventory(const std::vector<const api::ResourceSlice*>& changed = {})
    {
        std::vector<const api::ResourceSlice*> list;
        list.reserve(slices.size());
        for (const auto& [name, s] : slices)
            list.push_back(&s);
        inventory.setSlices(std::move(list));
        std::vector<allocator::DeviceInstance> instances;
        for (const auto* s : changed) {
            auto more = inventory.instancesOf(*s);
            instances.insert(instances.end(), more.begin(), more.end());
        }
        selectors.forget(instances);
        sigs.clear();
        resetDeviceCaches();
    }

    void resetDeviceCaches()
    {
        views.assign(nodes.size(), nullptr);
        freeCount.assign(nodes.size(), -1);
        // A device name local to two nodes (an outdated generation published for another node,
        // or one pool's slices for several nodes reusing names) is treated like a network-attached
        // device: a change of its state recounts every node (kMany).
        constexpr int32_t kUnset = -2;
        constexpr int32_t kMany = -1;
        deviceNode.assign(registry.size(), kUnset);
        for (const auto& e : inventory.allDevices()) {
            const bool perDevice = e.slice->perDeviceNodeSelection.value_or(false);
            const auto& nn = perDevice ? e.device->nodeName : e.slice->nodeName;
            auto it = nn ? nodeIndex.find(*nn) : nodeIndex.end();
            const int32_t n = it == nodeIndex.end() ? kMany : int32_t(it->second);
            auto& slot = deviceNode[e.id];
            slot = (slot == kUnset || slot == n) ? n : kMany;
        }
        for (auto& slot : deviceNode)
            slot = slot == kUnset ? kMany : slot;
    }

    const allocator::NodeView& viewOf(uint32_t idx)
    {
        if (!views[idx])
            views[idx] = &inventory.view(nodes[idx].node);
        return *views[idx];
    }

    int32_t freeOf(uint32_t idx)
    {
        if (freeCount[idx] < 0) {
            int32_t n = 0;
            for (const auto& pool : viewOf(idx).pools)
                for (const auto& e : pool.devices)
                    n += state.dedicated(e.id) ? 0 : 1;
            freeCount[idx] = n;
        }
        return freeCount[idx];
    }

    /// Every change of the allocated state goes through here so the free-device caches follow.
    void applyAllocation(const api::AllocationResult& a, int sign)
    {
        state.apply(a, sign);
        bool all = false;
        std::vector<uint32_t> touched;
        for (const auto& r : a.results) {
            if (r.adminAccess.value_or(false) || r.shareID)
                continue;
            allocator::DeviceId id = registry.find(r.driver, r.pool, r.device);
            int32_t n = id < deviceNode.size() ? deviceNode[id] : -1;
            if (n < 0)
                all = true;
            else if (std::find(touched.begin(), touched.end(), uint32_t(n)) == touched.end())
                touched.push_back(uint32_t(n));
        }
        if (all) {
            // A network-attached device is visible from many nodes: recount everywhere.
            freeCount.assign(nodes.size(), -1);
            for (auto it = sigs.begin(); it != sigs.end();)
                it = it->second.needsDevice ? sigs.erase(it) : std::next(it);
            return;
        }
        for (uint32_t n : touched) {
            freeCount[n] = -1;
            updateNodeScores(n);
        }
    }

    void validateSelectors(const std::vector<api::DeviceSelector>& list, const char* kind,
        const std::string& name, const std::string& field)
    {
        for (size_t i = 0; i < list.size(); ++i) {
            cel::CompileError err;
            if (selectors.compile(list[i].expression, &err))
                continue;
            SourcePos pos = list[i].pos;
            if (pos.line > 0) {
                if (err.line <= 1)
                    pos.column += err.column - 1;
                else {
                    pos.line += err.line - 1;
                    pos.column = err.column;
                }
            }
            diagnostics.error(pos, kind, name, field + "[" + std::to_string(i) + "].cel.expression",
                "compilation failed: " + err.message);
        }
    }

    void validateClaimSpec(const api::ResourceClaimSpec& spec, const char* kind, const std::string& name,
        const std::string& prefix)
    {
        for (size_t i = 0; i < spec.requests.size(); ++i) {
            const auto& r = spec.requests[i];
            std::string base = prefix + "devices.requests[" + std::to_string(i) + "]";
            if (r.exactly)
                validateSelectors(r.exactly->selectors, kind, name, base + ".exactly.selectors");
            for (size_t j = 0; j < r.firstAvailable.size(); ++j)
                validateSelectors(r.firstAvailable[j].spec.selectors, kind, name,
                    base + ".firstAvailable[" + std::to_string(j) + "].selectors");
        }
    }

    /// Claims a pod refers to, resolved the way an already running pod's are (no generation).
    std::vector<std::string> existingPodClaims(const api::Pod& pod)
    {
        std::vector<std::string> out;
        const std::string ns = nsOf(pod.meta);
        for (const auto& e : pod.spec.resourceClaims) {
            std::string name;
            if (e.resourceClaimName) {
                name = *e.resourceClaimName;
            } else if (e.resourceClaimTemplateName) {
                name = pod.meta.name + "-" + e.name;
                for (const auto& st : pod.resourceClaimStatuses)
                    if (st.name == e.name && st.resourceClaimName)
                        name = *st.resourceClaimName;
            } else {
                continue;
            }
            std::string key = ns + "/" + name;
            if (findClaim(key) && std::find(out.begin(), out.end(), key) == out.end())
                out.push_back(key);
        }
        return out;
    }

    void updateNodeScores(uint32_t idx)
    {
        for (auto& [k, sc] : sigs) {
            sc.order.erase({ -sc.score[idx], idx });
            sc.score[idx] = resourceScore(options.scoring, nodes[idx].usage, sc.req);
            if (!sc.needsDevice || freeOf(idx) > 0)
                sc.order.insert({ -sc.score[idx], idx });
        }
    }

    void chargeNode(uint32_t idx, const PodRequests& req, int sign)
    {
        auto& u = nodes[idx].usage;
        u.requested.add(req.requests, sign);
        u.nonZeroMilliCpu += sign * req.nonZeroMilliCpu;
        u.nonZeroMemory += sign * req.nonZeroMemory;
        u.pods += sign;
        updateNodeScores(idx);
    }

    SigCache& sigFor(const PodRequests& req, bool needsDevice)
    {
        SigKey key { req.nonZeroMilliCpu, req.nonZeroMemory, req.requests.milliCpu, req.requests.memory,
            needsDevice };
        auto it = sigs.find(key);
        if (it == sigs.end()) {
            if (sigs.size() >= kMaxSigCaches) {
                auto victim = sigs.begin();
                for (auto jt = sigs.begin(); jt != sigs.end(); ++jt)
                    if (jt->second.lastUse < victim->second.lastUse)
                        victim = jt;
                sigs.erase(victim);
            }
            it = sigs.emplace(key, SigCache {}).first;
            auto& sc = it->second;
            sc.req = req;
            sc.needsDevice = needsDevice;
            sc.score.resize(nodes.size());
            for (uint32_t i = 0; i < nodes.size(); ++i) {
                sc.score[i] = resourceScore(options.scoring, nodes[i].usage, req);
                if (!needsDevice || freeOf(i) > 0)
                    sc.order.insert({ -sc.score[i], i });
            }
        }
        it->second.lastUse = ++sigClock;
        return it->second;
    }

    void bindExisting(const api::Pod& pod)
    {
        PodState ps;
        ps.pub.key = keyOf(pod.meta);
        ps.pub.nodeName = pod.spec.nodeName;
        ps.name = pod.meta.name;
        ps.uid = pod.meta.uid;
        ps.req = computePodRequests(pod.spec);
        ps.pub.claims = existingPodClaims(pod);
        auto ni = nodeIndex.find(pod.spec.nodeName);
        if (ni == nodeIndex.end())
            diagnostics.warning(pod.meta.pos, "Pod", ps.pub.key, "spec.nodeName",
                "node \"" + pod.spec.nodeName + "\" does not exist; the pod uses no node resources");
        else
            chargeNode(ni->second, ps.req, +1);
        ps.seq = nextBindSeq++;
        bindOrder[ps.seq] = ps.pub.key;
        bound[ps.pub.key] = std::move(ps);
    }

    ScheduleResult schedule(const api::Pod& pod, bool explain);
    bool podFinished(const std::string& key);
};

Cluster::Cluster(api::ObjectSet objects, SchedulerOptions options)
    : m_impl(std::make_unique<Impl>(options))
{
    auto& d = *m_impl;
    for (auto& n : objects.nodes) {
        auto dup = std::find_if(d.nodes.begin(), d.nodes.end(),
            [&](const Impl::NodeState& s) { return s.node.meta.name == n.meta.name; });
        if (dup != d.nodes.end()) {
            d.diagnostics.warning(n.meta.pos, "Node", n.meta.name, "metadata.name",
                "duplicate node name; the later definition wins");
            d.nodes.erase(dup);
        }
        Impl::NodeState ns;
        ns.usage = usageFromNode(n);
        ns.node = std::move(n);
        d.nodes.push_back(std::move(ns));
    }
    d.rebuildNodes();
    for (auto& c : objects.deviceClasses) {
        d.validateSelectors(c.selectors, "DeviceClass", c.meta.name, "spec.selectors");
        std::string name = c.meta.name;
        d.classes[name] = std::move(c);
    }
    for (auto& s : objects.resourceSlices) {
        std::string name = s.meta.name;
        if (d.slices.count(name))
            d.diagnostics.warning(s.meta.pos, "ResourceSlice", name, "metadata.name",
                "duplicate slice name; the later definition wins");
        d.slices[name] = std::move(s);
    }
    for (auto& t : objects.resourceClaimTemplates) {
        std::string key = keyOf(t.meta);
        d.validateClaimSpec(t.spec, "ResourceClaimTemplate", key, "spec.spec.");
        d.templates[key] = std::move(t);
    }
    for (auto& c : objects.resourceClaims) {
        std::string key = keyOf(c.meta);
        d.validateClaimSpec(c.spec, "ResourceClaim", key, "spec.");
        d.addClaim(std::move(c), false, "");
    }
    d.rebuildInventory();
    for (const auto& p : objects.pods)
        if (!p.spec.nodeName.empty() && p.phase != "Succeeded" && p.phase != "Failed")
            d.bindExisting(p);
}

Cluster::~Cluster() = default;
Cluster::Cluster(Cluster&&) noexcept = default;
Cluster& Cluster::operator=(Cluster&&) noexcept = default;

const Diagnostics& Cluster::diagnostics() const
{
    return m_impl->diagnostics;
}

const SchedulerOptions& Cluster::options() const
{
    return m_impl->options;
}

ScheduleResult Cluster::schedule(const api::Pod& pod, bool explain)
{
    return m_impl->schedule(pod, explain);
}

ScheduleResult Cluster::Impl::schedule(const api::Pod& pod, bool explain)
{
    ScheduleResult res;
    const std::string ns = nsOf(pod.meta);
    const std::string podKey = ns + "/" + pod.meta.name;
    if (bound.count(podKey)) {
        res.failure = FailureKind::AlreadyBound;
        res.message = "pod " + podKey + " is already bound to node " + bound[podKey].pub.nodeName;
        return res;
    }

    // Claim lookup (§6.1). Template claims are created first, as the resource-claim controller
    // does independently of scheduling.
    std::string lookupError;
    std::vector<ClaimState*> podClaims;
    for (const auto& e : pod.spec.resourceClaims) {
        std::string claimName;
        if (e.resourceClaimName) {
            claimName = *e.resourceClaimName;
        } else if (e.resourceClaimTemplateName) {
            claimName = pod.meta.name + "-" + e.name;
            std::string key = ns + "/" + claimName;
            ClaimState* existing = findClaim(key);
            if (!existing) {
                auto t = templates.find(ns + "/" + *e.resourceClaimTemplateName);
                if (t == templates.end()) {
                    // Upstream's controller only emits an event; name the template like a lister
                    // error, as for missing claims (§6.1).
                    if (lookupError.empty())
                        lookupError = "resourceclaimtemplate.resource.k8s.io \""
                            + *e.resourceClaimTemplateName + "\" not found";
                    continue;
                }
                api::ResourceClaim c;
                c.meta.name = claimName;
                c.meta.namespace_ = ns;
                c.meta.labels = t->second.claimMeta.labels;
                c.meta.annotations = t->second.claimMeta.annotations;
                // The resource-claim controller records which pod claim a generated claim serves.
                c.meta.annotations["resource.kubernetes.io/pod-claim-name"] = e.name;
                c.meta.ownerReferences.push_back(
                    api::OwnerReference { "v1", "Pod", pod.meta.name, pod.meta.uid, true });
                c.spec = t->second.spec;
                addClaim(std::move(c), true, podKey);
                generatedFor[podKey].push_back(key);
            } else {
                bool owned = existing->generated ? existing->ownerPod == podKey : false;
                for (const auto& o : existing->claim.meta.ownerReferences)
                    if (o.controller && o.kind == "Pod" && o.name == pod.meta.name)
                        owned = true;
                if (!owned && lookupError.empty())
                    lookupError = "ResourceClaim " + key + " was not created for pod " + podKey
                        + " (pod is not owner)";
            }
        } else {
            continue;
        }
        ClaimState* c = findClaim(ns + "/" + claimName);
        if (!c) {
            if (lookupError.empty())
                lookupError = "resourceclaim.resource.k8s.io \"" + claimName + "\" not found";
            continue;
        }
        if (c->claim.deleting && lookupError.empty())
            lookupError = "resourceclaim \"" + claimName + "\" is being deleted";
        if (std::find(podClaims.begin(), podClaims.end(), c) == podClaims.end())
            podClaims.push_back(c);
    }
    for (auto* c : podClaims)
        res.claims.push_back(c->key);
    auto fail = [&](FailureKind kind, std::string message) {
        res.failure = kind;
        res.message = std::move(message);
        if (explain) {
            auto d = std::make_shared<PodDiagnosis>();
            d->pod = podKey;
            d->message = res.message;
            res.diagnosis = d;
        }
        return res;
    };
    if (!lookupError.empty())
        return fail(FailureKind::ClaimLookup, lookupError);

    // PreFilter (§6.2): classes of unallocated claims must exist.
    std::vector<ClaimState*> toAllocate;
    std::vector<const api::NodeSelector*> allocatedSelectors;
    for (auto* c : podClaims) {
        if (c->claim.allocation) {
            if (c->claim.allocation->nodeSelector)
                allocatedSelectors.push_back(&*c->claim.allocation->nodeSelector);
            continue;
        }
        toAllocate.push_back(c);
        for (const auto& r : c->claim.spec.requests) {
            auto check = [&](const std::string& name, const api::DeviceRequestSpec& s) {
                if (!classes.count(s.deviceClassName) && lookupError.empty())
                    lookupError
                        = "request " + name + ": device class " + s.deviceClassName + " does not exist";
            };
            if (r.exactly)
                check(r.name, *r.exactly);
            for (const auto& s : r.firstAvailable)
                check(r.name + "/" + s.name, s.spec);
        }
    }
    if (nodes.empty())
        return fail(FailureKind::Unschedulable, "no nodes available to schedule pods");
    if (!lookupError.empty())
        return fail(FailureKind::PreFilter,
            "0/" + std::to_string(nodes.size()) + " nodes are available: " + lookupError + ".");
    std::vector<const api::ResourceClaim*> claimPtrs;
    for (auto* c : toAllocate)
        claimPtrs.push_back(&c->claim);
    std::string prepError;
    if (!alloc->prepare(claimPtrs, &prepError))
        return fail(FailureKind::AllocatorError, "running \"DynamicResources\" filter plugin: " + prepError);

    const PodRequests req = computePodRequests(pod.spec);
    bool hasPreferred = pod.spec.nodeAffinity && !pod.spec.nodeAffinity->preferred.empty();
    const bool lazy = !explain && preferNoScheduleNodes == 0 && !hasPreferred
        && (toAllocate.empty() || !alloc->needsFullEvaluation());
    // A node without free devices gives "cannot allocate all claims" without the allocator
    // evaluating anything (unless admin access or All mode look at in-use devices).
    const bool zeroFreeShortcut = !toAllocate.empty() && alloc->zeroFreeMeansNoSolution();

    std::map<std::string, int> histogram;
    std::array<int, 4> draHistogram {};
    std::vector<std::string> draStatus(explain ? nodes.size() : 0);
    std::vector<std::vector<std::string>> nodeReasons(explain ? nodes.size() : 0);
    std::string fatal;

    // One node through every filter; returns true when feasible.
    auto evaluate = [&](uint32_t idx, allocator::Attempt& attempt) -> bool {
        const auto& ns = nodes[idx];
        std::vector<std::string> reasons;
        if (!passesNodeFilters(ns.node, ns.usage, pod, req, reasons)) {
            for (const auto& r : reasons)
                ++histogram[r];
            if (explain)
                nodeReasons[idx] = reasons;
            return false;
        }
        // DRA reasons are a fixed set: count them in an array instead of a string-keyed map,
        // which matters when a pending pod is retried against thousands of full nodes.
        int dra = -1;
        for (const auto* sel : allocatedSelectors)
            if (!allocator::matchesNodeSelector(*sel, ns.node)) {
                dra = kNotAvailable;
                break;
            }
        if (dra < 0 && zeroFreeShortcut && freeOf(idx) == 0 && !viewOf(idx).anyInvalid) {
            dra = kCannotAllocate;
        } else if (dra < 0 && !toAllocate.empty()) {
            attempt = alloc->allocate(ns.node, viewOf(idx));
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
                fatal = attempt.error;
                dra = kFatal;
                break;
            }
        }
        if (explain)
            draStatus[idx] = dra < 0 ? std::string() : dra == kFatal ? "error: " + fatal : kDraReasons[dra];
        if (dra < 0)
            return true;
        if (dra != kFatal)
            ++draHistogram[size_t(dra)];
        return false;
    };

    int64_t chosen = -1;
    allocator::Attempt chosenAttempt;
    if (lazy) {
        // Scores here depend only on the node's own usage, so the best feasible node is the
        // first feasible one in score order: no need to run the allocator on every node. Nodes
        // without a free device are not even listed when the pod needs one.
        auto& sc = sigFor(req, zeroFreeShortcut);
        for (const auto& [negScore, idx] : sc.order) {
            allocator::Attempt a;
            if (evaluate(idx, a)) {
                chosen = idx;
                chosenAttempt = std::move(a);
                break;
            }
            if (!fatal.empty())
                break;
        }
        // Nothing fits: the message needs every node's reason, which the full pass collects.
        if (chosen < 0 && fatal.empty()) {
            histogram.clear();
            draHistogram.fill(0);
        }
    }
    if (chosen < 0 && fatal.empty()) {
        struct Feasible
        {
            uint32_t idx;
            allocator::Attempt attempt;
        };
        std::vector<Feasible> feasible;
        for (uint32_t idx = 0; idx < nodes.size(); ++idx) {
            allocator::Attempt a;
            if (evaluate(idx, a))
                feasible.push_back(Feasible { idx, std::move(a) });
            else if (!fatal.empty())
                break;
        }
        if (fatal.empty() && !feasible.empty()) {
            int64_t maxTaint = 0, maxAff = 0, maxDra = 0;
            std::vector<int64_t> taint(feasible.size()), aff(feasible.size());
            for (size_t i = 0; i < feasible.size(); ++i) {
                const auto& n = nodes[feasible[i].idx].node;
                taint[i] = intolerablePreferNoSchedule(pod, n);
                aff[i] = preferredAffinityScore(pod, n);
                maxTaint = std::max(maxTaint, taint[i]);
                maxAff = std::max(maxAff, aff[i]);
                maxDra = std::max(maxDra, feasible[i].attempt.plistScore);
            }
            int64_t best = INT64_MIN;
            size_t bestI = 0;
            for (size_t i = 0; i < feasible.size(); ++i) {
                int64_t s = resourceScore(options.scoring, nodes[feasible[i].idx].usage, req)
                    + 3 * normalizeScore(taint[i], maxTaint, true) + 2 * normalizeScore(aff[i], maxAff, false)
                    + normalizeScore(feasible[i].attempt.plistScore, maxDra, false);
                // Nodes are in name order, so a strict comparison breaks ties by name.
                if (s > best) {
                    best = s;
                    bestI = i;
                }
            }
            chosen = feasible[bestI].idx;
            chosenAttempt = std::move(feasible[bestI].attempt);
        }
    }

    std::shared_ptr<PodDiagnosis> diag;
    if (explain) {
        diag = std::make_shared<PodDiagnosis>();
        diag->pod = podKey;
        for (uint32_t idx = 0; idx < nodes.size(); ++idx) {
            const auto& n = nodes[idx].node;
            NodeDiagnosis nd;
            nd.node = n.meta.name;
            nd.nodeReasons = nodeReasons[idx];
            nd.draStatus = draStatus[idx];
            if (nd.nodeReasons.empty() && nd.draStatus.empty() && !fatal.empty() && int64_t(idx) != chosen) {
                std::vector<std::string> r;
                if (!passesNodeFilters(n, nodes[idx].usage, pod, req, r))
                    nd.nodeReasons = r;
                else
                    nd.draStatus = "not evaluated: scheduling cycle aborted";
            }
            for (auto* c : podClaims) {
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
            if (!toAllocate.empty()) {
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
                        rd.rejected = rv.rejected;
                        if (int64_t(rd.eligible) < rd.wanted && rd.request.find('/') == std::string::npos)
                            enough = false;
                        cd.requests.push_back(std::move(rd));
                    }
                    if (enough && cv.hasConstraints && nd.draStatus == "cannot allocate all claims")
                        cd.note
                            = "enough devices pass on their own; a claim constraint would not be satisfied";
                    nd.claims.push_back(std::move(cd));
                }
            }
            diag->nodes.push_back(std::move(nd));
        }
        res.diagnosis = diag;
    }

    if (!fatal.empty()) {
        // kube-scheduler wraps a Filter error this way; upstream reports it with reason
        // SchedulerError, the simulator contract uses Unschedulable for every pending pod.
        res.failure = FailureKind::AllocatorError;
        res.message = "running \"DynamicResources\" filter plugin: " + fatal;
    } else if (chosen < 0) {
        res.failure = FailureKind::Unschedulable;
        for (size_t i = 0; i < draHistogram.size(); ++i)
            if (draHistogram[i])
                histogram[kDraReasons[i]] += draHistogram[i];
        res.message = fitErrorMessage(nodes.size(), histogram);
    }
    if (chosen < 0 || !fatal.empty()) {
        if (diag)
            diag->message = res.message;
        return res;
    }

    // Reserve + PreBind + Bind.
    auto& node = nodes[size_t(chosen)];
    if (!toAllocate.empty()) {
        auto results = alloc->buildResults(
            node.node, chosenAttempt, [&] { return shareIds.next(); }, formatRfc3339(time));
        for (size_t i = 0; i < toAllocate.size(); ++i) {
            auto* c = toAllocate[i];
            c->claim.allocation = std::move(results[i]);
            applyAllocation(*c->claim.allocation, +1);
            auto& fin = c->claim.meta.finalizers;
            if (std::find(fin.begin(), fin.end(), kDeleteProtection) == fin.end())
                fin.push_back(kDeleteProtection);
        }
        for (const auto& p : chosenAttempt.picks) {
            AllocatedDevice ad;
            ad.claim = toAllocate[p.claim]->key;
            const auto& r = toAllocate[p.claim]->claim.allocation->results;
            (void)r;
            const auto& k = registry.key(p.entry.id);
            ad.driver = k.driver;
            ad.pool = k.pool;
            ad.device = k.device;
            const bool perDevice = p.entry.slice->perDeviceNodeSelection.value_or(false);
            const auto& nn = perDevice ? p.entry.device->nodeName : p.entry.slice->nodeName;
            ad.node = nn ? *nn : std::string();
            ad.shared = p.entry.multi;
            res.allocated.push_back(std::move(ad));
        }
        // Request names and admin flags come from the built results, in the same order.
        size_t k = 0;
        for (auto* c : toAllocate)
            for (const auto& r : c->claim.allocation->results) {
                if (k < res.allocated.size() && res.allocated[k].claim == c->key) {
                    res.allocated[k].request = r.request;
                    res.allocated[k].adminAccess = r.adminAccess.value_or(false);
                }
                ++k;
            }
    }
    for (auto* c : podClaims) {
        auto& rf = c->claim.reservedFor;
        bool present = std::any_of(rf.begin(), rf.end(), [&](const api::ResourceClaimConsumerReference& r) {
            return r.resource == "pods" && r.name == pod.meta.name && r.uid == pod.meta.uid;
        });
        if (!present)
            rf.push_back(api::ResourceClaimConsumerReference { "", "pods", pod.meta.name, pod.meta.uid });
    }
    PodState ps;
    ps.pub.key = podKey;
    ps.pub.nodeName = node.node.meta.name;
    ps.pub.claims = res.claims;
    ps.name = pod.meta.name;
    ps.uid = pod.meta.uid;
    ps.req = req;
    ps.seq = nextBindSeq++;
    bindOrder[ps.seq] = podKey;
    bound[podKey] = std::move(ps);
    chargeNode(uint32_t(chosen), req, +1);
    res.scheduled = true;
    res.nodeName = node.node.meta.name;
    if (diag) {
        diag->scheduled = true;
        diag->nodeName = res.nodeName;
    }
    return res;
}

bool Cluster::podFinished(const std::string& podKey)
{
    return m_impl->podFinished(podKey);
}

bool Cluster::Impl::podFinished(const std::string& podKey)
{
    bool known = false;
    auto it = bound.find(podKey);
    if (it != bound.end()) {
        known = true;
        PodState ps = std::move(it->second);
        bound.erase(it);
        bindOrder.erase(ps.seq);
        auto ni = nodeIndex.find(ps.pub.nodeName);
        if (ni != nodeIndex.end())
            chargeNode(ni->second, ps.req, -1);
        for (const auto& ck : ps.pub.claims) {
            ClaimState* c = findClaim(ck);
            if (!c)
                continue;
            auto& rf = c->claim.reservedFor;
            const size_t before = rf.size();
            rf.erase(std::remove_if(rf.begin(), rf.end(),
                         [&](const api::ResourceClaimConsumerReference& r) {
                             return r.resource == "pods" && r.name == ps.name
                                 && (r.uid.empty() || ps.uid.empty() || r.uid == ps.uid);
                         }),
                rf.end());
            // Only a removal that empties reservedFor deallocates (§6.7).
            if (rf.empty() && before > 0 && c->claim.allocation) {
                applyAllocation(*c->claim.allocation, -1);
                c->claim.allocation.reset();
                auto& fin = c->claim.meta.finalizers;
                fin.erase(std::remove(fin.begin(), fin.end(), std::string(kDeleteProtection)), fin.end());
            }
        }
    }
    auto gi = generatedFor.find(podKey);
    if (gi != generatedFor.end()) {
        known = true;
        for (const auto& ck : gi->second)
            deleteClaim(ck);
        generatedFor.erase(gi);
    }
    if (known)
        ++freeEvents;
    return known;
}

void Cluster::addNode(api::Node node, std::vector<api::ResourceSlice> slices)
{
    auto& d = *m_impl;
    const std::string name = node.meta.name;
    auto existing = d.nodeIndex.find(name);
    if (existing != d.nodeIndex.end()) {
        // Replacing a node keeps what is bound to it.
        auto& ns = d.nodes[existing->second];
        NodeUsage fresh = usageFromNode(node);
        fresh.requested = ns.usage.requested;
        fresh.nonZeroMilliCpu = ns.usage.nonZeroMilliCpu;
        fresh.nonZeroMemory = ns.usage.nonZeroMemory;
        fresh.pods = ns.usage.pods;
        ns.node = std::move(node);
        ns.usage = fresh;
    } else {
        Impl::NodeState ns;
        ns.usage = usageFromNode(node);
        ns.node = std::move(node);
        d.nodes.push_back(std::move(ns));
    }
    d.rebuildNodes();
    std::vector<const api::ResourceSlice*> changed;
    for (auto& s : slices) {
        std::string sn = s.meta.name;
        auto& stored = d.slices[sn];
        stored = std::move(s);
        changed.push_back(&stored);
    }
    d.rebuildInventory(changed);
    ++d.freeEvents;
}

std::vector<std::string> Cluster::removeNode(const std::string& name)
{
    auto& d = *m_impl;
    std::vector<std::string> evicted;
    for (const auto& [seq, key] : d.bindOrder)
        if (d.bound[key].pub.nodeName == name)
            evicted.push_back(key);
    for (const auto& k : evicted)
        d.podFinished(k);
    auto it = d.nodeIndex.find(name);
    if (it != d.nodeIndex.end()) {
        d.nodes.erase(d.nodes.begin() + it->second);
        d.rebuildNodes();
    }
    for (auto si = d.slices.begin(); si != d.slices.end();) {
        if (si->second.nodeName && *si->second.nodeName == name)
            si = d.slices.erase(si);
        else
            ++si;
    }
    d.rebuildInventory();
    return evicted;
}

void Cluster::addResourceSlice(api::ResourceSlice slice)
{
    auto& d = *m_impl;
    std::string name = slice.meta.name;
    auto& stored = d.slices[name];
    stored = std::move(slice);
    d.rebuildInventory({ &stored });
    ++d.freeEvents;
}

bool Cluster::removeResourceSlice(const std::string& name)
{
    auto& d = *m_impl;
    if (!d.slices.erase(name))
        return false;
    d.rebuildInventory();
    return true;
}

std::vector<std::string> Cluster::setDeviceTaint(const DeviceRef& ref, const api::DeviceTaint& taint)
{
    auto& d = *m_impl;
    for (auto& [name, s] : d.slices) {
        if (s.driver != ref.driver || s.pool.name != ref.pool)
            continue;
        for (auto& dev : s.devices) {
            if (dev.name != ref.device)
                continue;
            auto it = std::find_if(dev.taints.begin(), dev.taints.end(),
                [&](const api::DeviceTaint& t) { return t.key == taint.key && t.effect == taint.effect; });
            if (it != dev.taints.end())
                *it = taint;
            else
                dev.taints.push_back(taint);
        }
    }
    std::set<std::string> evict;
    if (taint.effect == "NoExecute") {
        for (const auto& [seq, c] : d.claimsBySeq) {
            if (!c.claim.allocation)
                continue;
            bool hit = false;
            for (const auto& r : c.claim.allocation->results)
                if (r.driver == ref.driver && r.pool == ref.pool && r.device == ref.device
                    && !allocator::toleratesTaint(r.tolerations, taint))
                    hit = true;
            if (!hit)
                continue;
            const std::string ns = nsOf(c.claim.meta);
            for (const auto& rf : c.claim.reservedFor)
                if (rf.resource == "pods" && d.bound.count(ns + "/" + rf.name))
                    evict.insert(ns + "/" + rf.name);
        }
    }
    return { evict.begin(), evict.end() };
}

bool Cluster::removeDeviceTaint(const DeviceRef& ref, const std::string& key)
{
    auto& d = *m_impl;
    bool removed = false;
    for (auto& [name, s] : d.slices) {
        if (s.driver != ref.driver || s.pool.name != ref.pool)
            continue;
        for (auto& dev : s.devices) {
            if (dev.name != ref.device)
                continue;
            auto before = dev.taints.size();
            dev.taints.erase(std::remove_if(dev.taints.begin(), dev.taints.end(),
                                 [&](const api::DeviceTaint& t) { return t.key == key; }),
                dev.taints.end());
            removed = removed || dev.taints.size() != before;
        }
    }
    if (removed)
        ++d.freeEvents;
    return removed;
}

void Cluster::setTime(double seconds)
{
    m_impl->time = seconds;
}

uint64_t Cluster::freeEventCount() const
{
    return m_impl->freeEvents;
}

const api::ResourceClaim* Cluster::findClaim(const std::string& key) const
{
    auto* c = m_impl->findClaim(key);
    return c ? &c->claim : nullptr;
}

std::vector<const api::ResourceClaim*> Cluster::claims() const
{
    std::vector<const api::ResourceClaim*> out;
    out.reserve(m_impl->claimsBySeq.size());
    for (const auto& [seq, c] : m_impl->claimsBySeq)
        out.push_back(&c.claim);
    return out;
}

const api::Node* Cluster::findNode(const std::string& name) const
{
    auto it = m_impl->nodeIndex.find(name);
    return it == m_impl->nodeIndex.end() ? nullptr : &m_impl->nodes[it->second].node;
}

std::vector<const api::Node*> Cluster::nodes() const
{
    std::vector<const api::Node*> out;
    for (const auto& n : m_impl->nodes)
        out.push_back(&n.node);
    return out;
}

const BoundPod* Cluster::findBoundPod(const std::string& key) const
{
    auto it = m_impl->bound.find(key);
    return it == m_impl->bound.end() ? nullptr : &it->second.pub;
}

std::vector<BoundPod> Cluster::boundPods() const
{
    std::vector<BoundPod> out;
    for (const auto& [seq, key] : m_impl->bindOrder)
        out.push_back(m_impl->bound.at(key).pub);
    return out;
}

std::vector<DeviceUsage> Cluster::deviceUsage() const
{
    std::map<std::pair<std::string, std::string>, DeviceUsage> acc;
    // Devices of outdated generations no longer exist (addendum 5): count the newest only.
    for (const auto& e : m_impl->inventory.currentDevices()) {
        const bool perDevice = e.slice->perDeviceNodeSelection.value_or(false);
        const auto& nn = perDevice ? e.device->nodeName : e.slice->nodeName;
        std::string node = nn ? *nn : std::string();
        auto& u = acc[{ e.slice->driver, node }];
        u.driver = e.slice->driver;
        u.node = node;
        ++u.total;
        if (m_impl->state.inUse(e.id))
            ++u.allocated;
    }
    std::vector<DeviceUsage> out;
    for (auto& [k, u] : acc)
        out.push_back(std::move(u));
    return out;
}

} // namespace drasim::scheduler
