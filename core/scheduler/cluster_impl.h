// SPDX-License-Identifier: Apache-2.0
#pragma once

// The state behind Cluster, private to the scheduler module: cluster.cpp keeps it up to date as
// objects come and go, schedule_cycle.cpp runs one scheduling cycle on it.

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/allocator/allocated_state.h"
#include "core/allocator/allocator.h"
#include "core/allocator/inventory.h"
#include "core/allocator/node_match.h"
#include "core/allocator/selector_cache.h"
#include "core/api/object_key.h"
#include "core/gpushare/share_score_cache.h"
#include "core/scheduler/change_log.h"
#include "core/scheduler/cluster.h"
#include "core/scheduler/dra_verdicts.h"
#include "core/scheduler/extended_resources.h"
#include "core/scheduler/node_filters.h"
#include "core/scheduler/node_tree.h"
#include "core/scheduler/pod_group.h"
#include "core/scheduler/pod_info.h"
#include "core/scheduler/pod_topology.h"
#include "core/scheduler/score_order_cache.h"
#include "core/scheduler/scoring.h"
#include "core/scheduler/share_id.h"
#include "core/scheduler/topology_domain.h"

namespace drasim::scheduler {

inline const std::string kDeleteProtection = "resource.kubernetes.io/delete-protection";

/// DynamicResources Filter reasons (upstream wording), indexed by kCannotAllocate... in
/// schedule_cycle.cpp.
inline const char* const kDraReasons[]
    = { "cannot allocate all claims", "resourceclaim not available on the node",
          "invalid resource pools were encountered", "timed out trying to allocate devices" };
/// The index of the one reason that depends on the clock (a verdict never remembered).
inline constexpr size_t kDraTimedOutIndex = 3;

/// kube-scheduler's FitError text: "0/N nodes are available: <count reason>, ... ." (sorted).
std::string fitErrorMessage(size_t total, const std::map<std::string, int>& histogram);

inline std::string nsOf(const api::ObjectMeta& m)
{
    return m.namespace_.empty() ? std::string("default") : m.namespace_;
}

inline std::string keyOf(const api::ObjectMeta& m)
{
    return api::objectKey(m);
}

/// The key of the PodGroup a pod is a member of (spec.schedulingGroup, in the pod's namespace), ""
/// for a pod of no group.
inline std::string groupKeyOf(const api::Pod& pod)
{
    return api::podGroupKeyOf(pod);
}

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
        uint64_t specId = 0; ///< names its spec for Allocator::prepare: the template's; 0: none
        /// The devices of claim.allocation's results as the cycle that wrote it picked them, for
        /// applyAllocation when it goes (checked against the results' names there); may be empty.
        std::vector<allocator::DeviceId> deviceIds;
    };
    struct PodState
    {
        BoundPod pub;
        std::string name;
        std::string uid;
        PodRequests req;
        uint64_t seq = 0;
        double startTime = 0; ///< when it was bound (status.startTime of a pod loaded bound)
        /// Index of its node in `nodes` (kNoNode when the node does not exist), kept by
        /// rebuildNodes: preemption gathers the pods of candidate nodes without name lookups.
        uint32_t nodeIdx = kNoNode;
        /// The PodGroup it is a member of ("namespace/name" from spec.schedulingGroup), "" for none:
        /// workload-aware preemption evicts the members of a disruptionMode all group together.
        std::string groupKey;
        /// For PodDisruptionBudgets (only when the cluster has any): labels and controller.
        std::shared_ptr<const api::Labels> labels;
        std::string ownerKind, ownerName;
        /// Its namespace, labels and pod affinity terms: what PodTopologySpread and
        /// InterPodAffinity read of a running pod (pod_placement.cpp).
        std::shared_ptr<const PlacementPod> placement;
        bool ownPlacement = false; ///< made by PodPlacement::ofBound for this pod alone
        /// Every field as a new state has it, the strings and lists keeping their buffers: the
        /// state of a pod that finished is written over by the next pod bound (reserveAndBind).
        void clearForReuse();
        /// Keeps what a PodDisruptionBudget needs of the pod, when there are budgets.
        void rememberForBudgets(
            const std::vector<api::PodDisruptionBudget>& budgets, const api::ObjectMeta& meta)
        {
            if (budgets.empty())
                return;
            labels = std::make_shared<const api::Labels>(meta.labels);
            for (const auto& o : meta.ownerReferences)
                if (o.controller) {
                    ownerKind = o.kind;
                    ownerName = o.name;
                }
        }
    };
    static constexpr uint32_t kNoNode = ~uint32_t(0);
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
    using SigCache = ScoreOrderCache;
    static constexpr size_t kMaxSigCaches = 8;

    SchedulerOptions options;
    Diagnostics diagnostics { 1000 };
    allocator::DeviceRegistry registry;
    allocator::Inventory inventory { registry };
    allocator::AllocatedState state { registry };
    allocator::SelectorCache selectors;
    std::map<std::string, api::DeviceClass> classes;
    std::map<std::string, std::string> extendedClasses; ///< extended resource name -> DeviceClass
    std::map<std::string, api::ResourceSlice> slices;
    std::vector<api::DeviceTaintRule> taintRules; ///< merged into every slice (device_taint_rules.h)
    /// NoExecute taints by "driver/pool/device", built on demand; reset whenever slices or taints
    /// change (device_taint_eviction.cpp).
    mutable std::optional<std::unordered_map<std::string, std::vector<api::DeviceTaint>>> noExecuteTaints;
    std::map<std::string, api::ResourceClaimTemplate> templates;
    std::unique_ptr<allocator::Allocator> alloc;

    std::vector<NodeState> nodes; ///< sorted by name
    std::unordered_map<std::string, uint32_t> nodeIndex;
    /// kube-scheduler's node tree (node_tree.h), kept as nodes come and go: nodes loaded together
    /// are added in name order, as an informer's first list returns them.
    NodeTree nodeTree;
    /// The node indices in the order of nodeTree.list() (rebuildNodes), and each node's place in it.
    std::vector<uint32_t> scanOrder;
    std::vector<uint32_t> scanRank;
    /// Where the next cycle starts in that order (schedule_one.go nextStartNodeIndex). As
    /// upstream's, it belongs to no transaction: a cycle that is rolled back still moved it.
    uint32_t nextStartNodeIndex = 0;
    size_t preferNoScheduleNodes = 0;
    PlacementIndex placementIndex; ///< running pods' affinity, for the inter-pod plugins

    std::map<uint64_t, ClaimState> claimsBySeq; ///< creation order; map nodes keep addresses stable
    std::unordered_map<std::string, uint64_t> claimSeq;
    uint64_t nextClaimSeq = 0;
    /// The states of generated claims erased since, kept with their map nodes, strings, maps and
    /// vectors: the next claim made from a template is written over the last one's claim
    /// (schedule_cycle.cpp, reusedClaim), and the next claim added takes its place in the map.
    std::vector<std::map<uint64_t, ClaimState>::node_type> spareClaims;
    /// How many finished objects each spare list (claims, bound entries, allocations) keeps.
    static constexpr size_t kMaxSpares = 16;

    std::unordered_map<std::string, PodState> bound;
    using BoundNode = std::unordered_map<std::string, PodState>::node_type;
    /// The entries of pods that finished since, with their strings and lists: the next pod bound
    /// is written over the last one (reserveAndBind) instead of allocating its own.
    std::vector<BoundNode> spareBound;
    /// Allocations of claims deallocated since, kept (as many) for buildResults to write over.
    std::vector<api::AllocationResult> spareAllocations;
    std::map<uint64_t, std::string> bindOrder;
    /// The bound pods of each node (by index; the map keeps element addresses), kept by
    /// Undo::insertBound/eraseBound and rebuildNodes: preemption reads a candidate node's pods.
    std::vector<std::vector<const PodState*>> podsOnNode;
    /// Each node's place in the seeded order of TieBreak::SeededOrder (share_scoring.h), made on
    /// first use; emptied whenever the nodes change.
    std::vector<uint32_t> seededRank;
    /// GpuShare scores by pod shape and node state (share_score_cache.h); the typical pods are
    /// fixed for the cluster's life, so nothing invalidates it.
    gpushare::ShareScoreCache shareScores;
    /// Each node's GPU-sharing fragment as last measured, with the state it was measured on: a
    /// sample recomputes only the nodes that changed (share_scoring.cpp).
    struct ShareFragmentSlot
    {
        gpushare::ShareNode node;
        double fragment = -1;
    };
    std::vector<ShareFragmentSlot> shareFragmentSlots;
    /// How many bound pods have each priority: a pod can preempt only when the lowest is below
    /// its own, which spares the PostFilter's work for every other unschedulable pod.
    std::map<int32_t, uint32_t> boundPriorities;
    /// Pods nominated to a node by preemption (status.nominatedNodeName), by pod key, and the
    /// keys nominated to each node. The filters count a nominated pod on its node for every pod of
    /// lower or equal priority (RunFilterPluginsWithNominatedPods), so the room its victims free is
    /// kept for it; its own next cycle tries that node first.
    struct Cycle; ///< one scheduling cycle's working state (below)
    struct Nomination
    {
        std::string node;
        int32_t priority = 0;
        PodRequests req;
        std::shared_ptr<const PlacementPod> placement; ///< what spread and affinity read of it
    };
    std::unordered_map<std::string, Nomination> nominations;
    std::vector<api::PodDisruptionBudget> budgets;
    std::vector<api::PodController> controllers; ///< the scale of budgeted pods' owners

    std::map<std::string, std::vector<std::string>> nominatedOn;
    /// Sets (node non-empty) or clears the pod's nomination, undone by a rollback (preemption.cpp).
    struct Nominator
    {
        static void set(Impl& d, const std::string& podKey, const Nomination& n);
        static void clear(Impl& d, const std::string& podKey);
        /// The usage of node idx with the pods nominated there that `podKey` (priority `prio`)
        /// must leave room for; false (out untouched) when there are none.
        static bool usageWithNominated(const Impl& d, const std::string& podKey, int32_t prio, uint32_t idx,
            const NodeUsage& base, NodeUsage& out);
        /// The cycle's spread and affinity state with those same pods added on node idx (their
        /// AddPod); null when neither plugin filters this cycle.
        static std::shared_ptr<const PlacementCycle> placementWithNominated(
            const Impl& d, const Cycle& cycle, uint32_t idx);
        /// The pod's nominated node, tried before any other (nominations.cpp).
        static void tryFirst(Impl& d, Cycle& cycle);
    };
    /// Set while a group cycle runs whose members run no DefaultPreemption one by one.
    bool inGroupCycle = false;
    /// The policies of the PodGroups seen (scheduleGroup, registerPodGroup), by key: how a
    /// group's bound members are evicted (group_preemption.cpp).
    std::map<std::string, PodGroupPolicy> groupPolicies;
    uint64_t nextBindSeq = 0;
    std::unordered_map<std::string, std::vector<std::string>> generatedFor;
    /// The entry of a pod that finished, kept for the next pod's claims (claimFromTemplate).
    std::unordered_map<std::string, std::vector<std::string>>::node_type spareGenerated;

    ShareIdGenerator shareIds;
    double time = 0;
    uint64_t freeEvents = 0;
    ChangeLog changes; ///< for the scheduling queue's hints (queueing_hints.h)

    std::map<SigKey, SigCache> sigs;
    uint64_t sigClock = 0;

    /// Open transactions, innermost last (transaction.cpp). Every change of claims, bound pods
    /// and node usage passes through the primitives below, which log their inverse here.
    struct UndoFrame
    {
        std::vector<std::function<void()>> undo;
        uint64_t freeEvents = 0;
        size_t changes = 0;
        uint64_t nextClaimSeq = 0;
        uint64_t nextBindSeq = 0;
        ShareIdGenerator shareIds;
    };
    /// The open transactions and the primitives that log (transaction.cpp).
    struct Undo
    {
        explicit Undo(Impl& impl)
            : d(impl)
        { }
        Impl& d;
        std::vector<UndoFrame> frames;
        bool replaying = false; ///< a rollback is running its undo entries: log nothing
        bool active() const { return !frames.empty() && !replaying; }
        void log(std::function<void()> f)
        {
            if (active())
                frames.back().undo.push_back(std::move(f));
        }
        void begin();
        void commit();
        void rollback();
        /// Logs putting the claim back as it is now (before an in-place change of it).
        void claimRestore(const ClaimState& c);
        /// Logs re-adding a claim that is about to be deleted, at its place in creation order.
        void claimReinsert(uint64_t seq);
        /// Logs restoring the list of claims generated for a pod (before it changes).
        void generatedRestore(const std::string& podKey);
        void insertBound(PodState&& ps);
        /// The same for a map entry whose key is the pod's.
        void insertBound(BoundNode&& node);
        /// What a bound pod adds beside its entry: bind order, priorities, placement, node list.
        void indexBound(PodState& stored);
        /// Marks a bound pod terminating (a preemption victim); false for an unknown key.
        bool markTerminating(const std::string& key);
        PodState eraseBound(const std::string& key);
        /// The same, handing over the pod's map entry.
        BoundNode extractBound(const std::string& key);
        /// Shape changes (nodes, slices, taints) re-index nodes and devices: never inside one.
        void requireNone(const char* change) const;
    };
    Undo undo { *this };
    /// A group cycle's placement: only these nodes (ascending) are candidates; null: every node.
    const std::vector<uint32_t>* placementNodes = nullptr;
    /// Per topology key, the nodes sharing each of its values, in value order, named "key=value":
    /// built when a group first asks for the key, dropped whenever the nodes change (rebuildNodes).
    std::map<std::string, std::vector<TopologyDomain>> topologyDomains;

    // Per node index: its device view, and how many of its devices are not dedicated to a claim
    // (-1 = not computed). A node without free devices cannot serve a pod that needs one, which
    // lets a scheduling cycle skip most full nodes without running the allocator.
    std::vector<const allocator::NodeView*> views;
    std::vector<int32_t> freeCount;
    std::vector<int32_t> deviceNode; ///< DeviceId -> index of the node it is local to, -1 otherwise
    /// DynamicResources verdicts of pods made from templates, per node (dra_verdicts.h).
    DraVerdictCache draVerdicts;

    explicit Impl(SchedulerOptions o)
        : options(o)
        , shareIds(o.seed)
    {
        alloc = std::make_unique<allocator::Allocator>(inventory, state, selectors, classes,
            allocator::AllocatorOptions { o.searchStepBudget, o.filterTimeoutSeconds, o.kubernetesVersion,
                o.draDeviceCompatibilityGroups, o.draConsumableCapacity, o.draFractionalCapacityRange,
                o.draListTypeAttributes });
    }

    ClaimState* findClaim(const std::string& key)
    {
        auto it = claimSeq.find(key);
        return it == claimSeq.end() ? nullptr : &claimsBySeq.at(it->second);
    }

    /// `newKey`: the claim's namespace/name when the caller has it already and has found no claim
    /// of that name (claimFromTemplate): it is neither made nor looked up again.
    ClaimState& addClaim(api::ResourceClaim&& claim, bool generated, const std::string& owner,
        const std::string* newKey = nullptr)
    {
        std::string made;
        const std::string& key = newKey ? *newKey : (made = keyOf(claim.meta));
        if (auto* existing = newKey ? nullptr : findClaim(key)) {
            undo.claimRestore(*existing);
            if (existing->claim.allocation)
                applyAllocation(*existing->claim.allocation, -1, existing->deviceIds);
            existing->deviceIds.clear();
            existing->claim = std::move(claim);
            existing->specId = 0;
            existing->generated = generated;
            existing->ownerPod = owner;
            if (existing->claim.allocation)
                applyAllocation(*existing->claim.allocation, +1);
            return *existing;
        }
        uint64_t seq = nextClaimSeq++;
        auto where = claimsBySeq.end(); // seq is the largest
        if (spareClaims.empty()) {
            where = claimsBySeq.try_emplace(where, seq);
        } else {
            spareClaims.back().key() = seq;
            where = claimsBySeq.insert(where, std::move(spareClaims.back()));
            spareClaims.pop_back();
        }
        auto& cs = where->second;
        cs.claim = std::move(claim);
        cs.key = key;
        cs.generated = generated;
        cs.ownerPod = owner;
        cs.specId = 0;
        cs.deviceIds.clear();
        claimSeq[key] = seq;
        if (cs.claim.allocation)
            applyAllocation(*cs.claim.allocation, +1);
        if (undo.active()) // by number: an entry without a string fits std::function's own room
            undo.log([this, seq] { eraseClaim(std::string(claimsBySeq.at(seq).key)); });
        return cs;
    }

    void deleteClaim(const std::string& key)
    {
        auto it = claimSeq.find(key);
        if (it == claimSeq.end())
            return;
        if (undo.active())
            undo.claimReinsert(it->second);
        eraseClaim(key);
    }

    /// deleteClaim without logging (also the inverse of adding a claim).
    void eraseClaim(const std::string& key)
    {
        auto it = claimSeq.find(key);
        if (it == claimSeq.end())
            return;
        auto node = claimsBySeq.extract(it->second);
        const ClaimState& cs = node.mapped();
        if (cs.claim.allocation)
            applyAllocation(*cs.claim.allocation, -1, cs.deviceIds);
        if (cs.generated && spareClaims.size() < kMaxSpares)
            spareClaims.push_back(std::move(node));
        claimSeq.erase(it);
    }

    void rebuildNodes()
    {
        std::sort(nodes.begin(), nodes.end(),
            [](const NodeState& a, const NodeState& b) { return a.node.meta.name < b.node.meta.name; });
        nodeIndex.clear();
        topologyDomains.clear();
        preferNoScheduleNodes = 0;
        for (uint32_t i = 0; i < nodes.size(); ++i) {
            nodeIndex[nodes[i].node.meta.name] = i;
            for (const auto& t : nodes[i].node.taints)
                if (t.effect == "PreferNoSchedule") {
                    ++preferNoScheduleNodes;
                    break;
                }
        }
        scanOrder.clear();
        scanRank.assign(nodes.size(), 0);
        for (const auto& name : nodeTree.list()) {
            scanRank[nodeIndex.at(name)] = uint32_t(scanOrder.size());
            scanOrder.push_back(nodeIndex.at(name));
        }
        podsOnNode.assign(nodes.size(), {});
        placementIndex.clearNodes();
        seededRank.clear();
        shareFragmentSlots.clear();
        for (const auto& [seq, key] : bindOrder) {
            PodState& ps = bound.at(key);
            auto ni = nodeIndex.find(ps.pub.nodeName);
            ps.nodeIdx = ni == nodeIndex.end() ? kNoNode : ni->second;
            if (ps.nodeIdx != kNoNode)
                podsOnNode[ps.nodeIdx].push_back(&ps);
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
        noExecuteTaints.reset();
        resetDeviceCaches();
    }

    // Device taint eviction (device_taint_eviction.cpp).
    const std::unordered_map<std::string, std::vector<api::DeviceTaint>>& noExecuteTaintIndex() const;
    std::optional<double> evictionTime(const PodState& pod) const;
    /// Bound pods whose eviction time has come (<= time), sorted by key.
    std::vector<std::string> podsDueForEviction() const;

    void resetDeviceCaches()
    {
        views.assign(nodes.size(), nullptr);
        freeCount.assign(nodes.size(), -1);
        draVerdicts.reset(scanRank);
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
    void applyAllocation(
        const api::AllocationResult& a, int sign, std::span<const allocator::DeviceId> known = {})
    {
        // Every binding and completion passes here: the lists are kept per thread, not made.
        thread_local std::vector<allocator::DeviceId> ids;
        thread_local std::vector<uint32_t> touched;
        ids.clear();
        touched.clear();
        state.apply(a, sign, &ids, known);
        bool all = false;
        for (size_t i = 0; i < a.results.size(); ++i) {
            const auto& r = a.results[i];
            const allocator::DeviceId id
                = ids[i] != allocator::kNoDevice ? ids[i] : registry.find(r.driver, r.pool, r.device);
            int32_t n = id < deviceNode.size() ? deviceNode[id] : -1;
            // Any change of a device's state (a share or an admin access included) makes the
            // verdicts of the nodes that see it stale; only a dedicated one changes free counts.
            if (n < 0)
                draVerdicts.clear();
            else
                draVerdicts.touch(uint32_t(n));
            if (r.adminAccess.value_or(false) || r.shareID)
                continue;
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
        // The claim the scheduler created for its extended resources served through DRA.
        if (pod.extendedResourceClaimStatus) {
            std::string key = ns + "/" + pod.extendedResourceClaimStatus->resourceClaimName;
            if (findClaim(key) && std::find(out.begin(), out.end(), key) == out.end())
                out.push_back(key);
        }
        return out;
    }

    void updateNodeScores(uint32_t idx)
    {
        // Runs on every charge and release of every pod: each cache notes the node, and sigFor
        // brings it up to date when the cache is read next.
        for (auto& [k, sc] : sigs)
            sc.markStale(idx);
    }

    void chargeNode(uint32_t idx, const PodRequests& req, int sign)
    {
        if (undo.active())
            undo.log([this, idx, req, sign] { chargeNode(idx, req, -sign); });
        auto& u = nodes[idx].usage;
        u.requested.add(req.requests, sign);
        u.nonZeroMilliCpu += sign * req.nonZeroMilliCpu;
        u.nonZeroMemory += sign * req.nonZeroMemory;
        u.pods += sign;
        draVerdicts.touch(idx); // the node filters' verdicts read its usage
        updateNodeScores(idx);
    }

    /// The usage order for a pod shape, made on first use and brought up to date since
    /// (usage_order.cpp).
    SigCache& sigFor(const PodRequests& req, bool needsDevice);

    void bindExisting(const api::Pod& pod)
    {
        PodState ps;
        ps.pub.key = keyOf(pod.meta);
        ps.pub.nodeName = pod.spec.nodeName;
        ps.name = pod.meta.name;
        ps.uid = pod.meta.uid;
        ps.req = boundPodRequests(pod, options.draNodeAllocatableResources);
        ps.pub.claims = existingPodClaims(pod);
        ps.pub.priority = pod.spec.priority.value_or(0);
        ps.groupKey = groupKeyOf(pod);
        // Upstream takes a pod without status.startTime as started now (util.GetPodStartTime).
        ps.startTime = pod.startTime ? double(pod.startTime->seconds) : time;
        // The pod owns its extended-resource claim: it goes away with the pod.
        if (pod.extendedResourceClaimStatus) {
            std::string key = nsOf(pod.meta) + "/" + pod.extendedResourceClaimStatus->resourceClaimName;
            if (findClaim(key))
                generatedFor[ps.pub.key].push_back(key);
        }
        auto ni = nodeIndex.find(pod.spec.nodeName);
        if (ni == nodeIndex.end())
            diagnostics.warning(pod.meta.pos, "Pod", ps.pub.key, "spec.nodeName",
                "node \"" + pod.spec.nodeName + "\" does not exist; the pod uses no node resources");
        else
            chargeNode(ni->second, ps.req, +1);
        ps.nodeIdx = ni == nodeIndex.end() ? kNoNode : ni->second;
        ps.rememberForBudgets(budgets, pod.meta);
        ps.placement = std::make_shared<const PlacementPod>(placementPodOf(pod));
        ps.seq = nextBindSeq++;
        undo.insertBound(std::move(ps));
    }

    /// One scheduling cycle's working state, handed from phase to phase (schedule_cycle.cpp).
    struct Cycle
    {
        Cycle(const api::Pod& p, bool e)
            : pod(p)
            , explain(e)
        { }
        const api::Pod& pod;
        bool explain = false;
        const SchedulerProfile* profile = nullptr; ///< the pod's (profileFor), set first
        std::string podKey;
        ScheduleResult res;
        std::vector<ClaimState*> podClaims; ///< pod order, each once
        std::vector<ClaimState*> claimOfEntry; ///< per pod.spec.resourceClaims entry (null: none)
        bool nodeAllocatable = false; ///< NodeAllocatableCycle::active
        std::vector<ClaimState*> toAllocate; ///< the unallocated ones, pod order
        std::vector<const api::NodeSelector*> allocatedSelectors; ///< of the allocated ones
        PodRequests req;
        bool zeroFreeShortcut = false;
        std::map<std::string, int> histogram; ///< node filter reasons
        std::vector<std::string> nodeFilterReasons; ///< the node being filtered, scratch
        std::array<int, 4> draHistogram {}; ///< DRA filter reasons, by index into kDraReasons
        std::vector<std::string> draStatus; ///< per node, explain only
        std::vector<std::vector<std::string>> nodeReasons; ///< per node, explain only
        std::string fatal; ///< a fatal allocator error aborted the cycle
        int64_t chosen = -1;
        allocator::Attempt chosenAttempt;
        std::shared_ptr<PodDiagnosis> diagnosis;
        // Extended resources served through DRA (§6.8, extended_resources.h): the allocator gets
        // the pod's claims plus, on a node that does not advertise some of these resources, a
        // special claim for them, which depends on that set of resources (the node's mask).
        DraBackedResources backed; ///< empty for almost every pod
        std::map<uint64_t, ExtendedResourceClaim> extClaims; ///< by mask; addresses stay stable
        uint64_t preparedMask = 0; ///< the mask the allocator is prepared for
        /// Nodes rejected with status Unschedulable rather than UnschedulableAndUnresolvable (by
        /// NodeResourcesFit, a spread skew or anti-affinity): the only ones where evicting pods may help.
        std::vector<uint32_t> resolvable;
        /// Feasible nodes that end the search (numFeasibleNodesToFind), what it examined (per node: explain).
        uint32_t nodesToFind = 0;
        uint32_t examinedCount = 0;
        uint32_t feasibleCount = 0;
        std::vector<char> examined;
        /// Set when a search that stops early may choose by usage score alone (schedule()).
        const SigCache* usageOrder = nullptr;
        /// The pod's verdicts in draVerdicts, when they may be kept and read (Verdicts::keyOf), and
        /// whether the last node's verdict was read from there (filterNode then leaves no attempt).
        DraVerdictCache::Slot verdicts;
        bool verdictRemembered = false;
        std::string filterKey; ///< Verdicts::filterKeyOf, when the walk may remember whole verdicts
        /// A preemption dry run's view of one node's usage (its victims removed), which Filter
        /// reads instead of the node's own; null outside dry runs.
        const NodeUsage* dryRunUsage = nullptr;
        uint32_t dryRunNode = 0;
        /// PodTopologySpread and InterPodAffinity's state; null when neither has work this cycle.
        std::shared_ptr<const PlacementCycle> placement;
        /// The claims the pod uses through its PodGroup (group_claim_cycle.h): reserved for the
        /// group, not for the pod; `group` is then the pod's PodGroup.
        std::vector<const ClaimState*> groupClaims;
        const PodGroupPolicy* group = nullptr;
    };

    ScheduleResult schedule(const api::Pod& pod, bool explain);
    GroupScheduleResult scheduleGroup(const PodGroupPolicy& group, const std::vector<api::Pod>& pods,
        const std::vector<std::string>& boundMembers, bool topologyAware);
    /// The DynamicResources Filter steps that keep or read draVerdicts (schedule_cycle.cpp).
    struct Verdicts
    {
        /// The key of the pod's verdicts: its namespace and templates in pod order, when every
        /// claim of the pod is one this scheduler generated from a template and none is allocated
        /// yet (its requests are then exactly the templates'); "" otherwise.
        static std::string keyOf(const Cycle& cycle);
        /// The allocator on node idx: -1 when the claims fit (attempt holds the devices), else the
        /// DynamicResources reason, kept in cycle.verdicts unless it depends on the clock.
        static int allocateOn(Impl& d, Cycle& cycle, uint32_t idx, allocator::Attempt& attempt);
        /// The key of the pod's whole Filter verdicts: keyOf (`draKey`, made by the caller;
        /// nothing for a pod without claims) and everything of the pod the node filters read; ""
        /// when not remembered.
        static std::string filterKeyOf(const Impl& d, const Cycle& cycle, const std::string& draKey);
        /// The search of a cycle whose scores follow node usage (cycle.usageOrder): from `start`
        /// through `list` (null: node indices in order), until cycle.nodesToFind nodes are
        /// feasible; the best by usage score, ties by name, is chosen. Returns the nodes examined.
        static uint32_t walkByUsage(
            Impl& d, Cycle& cycle, const std::vector<uint32_t>* list, uint32_t start, uint32_t candidates);
        /// walkByUsage over the whole cluster's node tree order, 64 places at a time, reading the
        /// remembered whole verdicts (cycle.filterKey) and the score order's range minimum; the
        /// nodes examined, or nullopt when it cannot decide alone (walkByUsage then walks).
        static std::optional<uint32_t> walkByWords(
            Impl& d, Cycle& cycle, DraVerdictCache::Slot whole, uint32_t start);
    };
    struct GroupCycle; ///< the group cycle's parts (group_cycle.cpp)
    struct CompositeCycle; ///< the CompositePodGroup hierarchy's cycle (composite_cycle.cpp)
    /// PodTopologySpread and InterPodAffinity over the running pods (pod_placement.cpp)
    struct PodPlacement;
    struct Preemption; ///< DefaultPreemption, the PostFilter of a failed cycle (preemption.cpp)
    /// The GPU-sharing score plugins' inputs and the choice among the best nodes (share_scoring.cpp)
    struct NodeChoice;
    /// The claim measure's free devices, and the fgd policy's score of DRA claims (claim_scoring.cpp)
    struct ClaimScoring;
    /// Workload-aware preemption, the PostFilter of a failed group cycle (group_preemption.cpp)
    struct GroupPreemption;
    /// DRA claims shared by a PodGroup within a cycle (group_claim_cycle.cpp)
    struct GroupClaims;
    struct NodeAllocatableCycle; ///< DRANodeAllocatableResources (node_allocatable_cycle.cpp)
    // The phases of one cycle, in order.
    std::string lookupClaims(Cycle& cycle);
    ClaimState* claimFromTemplate(Cycle& cycle, const api::PodResourceClaim& entry,
        const std::string& claimName, std::string& lookupError);
    std::string preFilter(Cycle& cycle);
    bool filterNode(Cycle& cycle, uint32_t idx, allocator::Attempt& attempt);
    void searchInScoreOrder(Cycle& cycle);
    void searchEveryNode(Cycle& cycle);
    void diagnose(Cycle& cycle);
    NodeDiagnosis diagnoseNode(Cycle& cycle, uint32_t idx);
    void reportFailure(Cycle& cycle);
    void reserveAndBind(Cycle& cycle);
    ScheduleResult failEarly(Cycle& cycle, FailureKind kind, std::string message);
    /// PreBind's status update for a claim whose reservedFor is full; "" when every claim takes the pod.
    std::string reservationRefused(const Cycle& cycle) const;
    // Extended resources backed by DRA within a cycle (extended_resource_cycle.cpp).
    /// The resources node idx serves through DRA for this pod. Inline, because Filter asks it for
    /// every node: a pod with no extended resources backed by DRA never needs the special claim,
    /// so its mask is 0 on every node without looking at the node.
    uint64_t draMask(const Cycle& cycle, uint32_t idx) const
    {
        return cycle.backed.empty() ? 0 : servedByDraMask(cycle.backed, nodes[idx].usage);
    }
    PodRequests fitRequests(const Cycle& cycle, uint32_t idx) const;
    bool prepareAllocator(Cycle& cycle, uint64_t mask, std::string* error);
    void createExtendedResourceClaim(Cycle& cycle);

    bool podFinished(const std::string& key);
};

} // namespace drasim::scheduler
