// SPDX-License-Identifier: Apache-2.0
#pragma once

// The PodGroup cycle's parts (group_cycle.cpp), shared with the CompositePodGroup cycle
// (composite_cycle.cpp), which runs them for each leaf PodGroup inside its parent's placement.
// Private to the scheduler module.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/scheduler/cluster_impl.h"

namespace drasim::scheduler {

/// Why no domain of a topology key takes a group: how many of `what` each domain held, most first
/// (the first four, then how many more), e.g. "no topology.kubernetes.io/rack domain holds
/// minCount (4) pods: rack-b 3, rack-a 2". `names` are "key=value" or bare values.
/// How many domains domainShortfall names; the others are counted.
inline constexpr size_t kShortfallShown = 4;

std::string domainShortfall(const std::string& topologyKey, const std::string& what,
    const std::vector<std::string>& names, const std::vector<int32_t>& held);

struct Cluster::Impl::GroupCycle
{
    /// One run of the default group algorithm inside one placement.
    struct PlacementRun
    {
        Feasibility status = Feasibility::Unschedulable;
        std::string message;
        int32_t placed = 0;
        std::vector<ScheduleResult> members; ///< by input index; untried members stay default
        std::vector<bool> tried;
        /// Members whose own PostFilter evicted pods for them (1.36 without workload-aware
        /// preemption): counted as placed on their nominated node for PlacementFeasible.
        int32_t preempting = 0;
        /// PlacementFeasible held only with those members counted: the group waits for its
        /// members' preemption instead of binding (status Unschedulable).
        bool waiting = false;
    };
    /// A set of candidate nodes: a domain of a topology key, possibly inside a parent's domain.
    struct Placement
    {
        /// "key=value", "" for all nodes (or all of the parent's); held by the cluster's cache of
        /// topology domains (Impl::topologyDomains), which stays as it is while a cycle runs.
        std::string_view name;
        const std::vector<uint32_t>* nodes = nullptr; ///< ascending; null: every node
        /// The nodes when they are not a cached domain (a domain cut down to a parent's nodes).
        std::shared_ptr<const std::vector<uint32_t>> owned;
        /// The cached domain whose nodes these are, all of them; null otherwise.
        const TopologyDomain* domain = nullptr;
    };
    /// Fills `run` anew; its vectors keep their storage from the previous run, so trying one
    /// placement after another allocates the members' results once (a group's are several KiB).
    static void run(Impl& d, const PodGroupPolicy& group, const std::vector<api::Pod>& pods,
        const std::vector<size_t>& order, int32_t alreadyScheduled, PlacementRun& run);
    /// The placements of `key` inside `within` (null nodes: every node) that hold every node of
    /// `boundNodes` (node indices); "" keeps `within` itself as the one placement.
    static std::vector<Placement> placements(
        Impl& d, const std::string& key, const std::vector<uint32_t>& boundNodes, const Placement& within);
    static std::vector<Placement> boundPlacements(Impl& d, const std::string& key,
        const std::vector<std::string>& boundMembers, const Placement& within, int32_t& already);
    /// The usage sums binPacking reads, over the placement's nodes.
    static const NodeUsage& placementSums(const Impl& d, const Placement& p);
    /// NodeResourcesFit's placement score: MostAllocated over the placement's sums, with the
    /// profile's resource weights (null fit: cpu and memory, 1 each).
    static int64_t binPacking(
        const Impl& d, const Placement& p, const PodRequests& more = {}, const FitScoring* fit = nullptr);
    /// Each placement's bin packing with every pending member counted in: what its score can
    /// reach at most (all zero with a single placement, which is never compared).
    static std::vector<int64_t> packingBounds(const Impl& d, const std::vector<Placement>& placements,
        const std::vector<api::Pod>& pods, const FitScoring* fit);
    /// The profile the group's members name (the default one when they name none drasim has).
    static const SchedulerProfile& profileOf(const Impl& d, const std::vector<api::Pod>& pods);
    /// A placement's score: PodGroupPodsCount (its members, 0..100 of the most any placement
    /// holds) and NodeResourcesFit's packing, each times its placementScore weight.
    static int64_t placementScore(
        const SchedulerProfile& profile, int64_t members, int64_t most, int64_t packing)
    {
        return profile.placementPodsCountWeight * (most > 0 ? members * kMaxNodeScore / most : 0)
            + profile.placementFitWeight * packing;
    }
    /// The devices a pod's own new claims dedicate at least (group_capacity.cpp); 0: unknown.
    static int64_t ownDevices(const Impl& d, const api::Pod& pod);
    /// The templates whose claims a member's cycle makes anew (its entries without a claim yet).
    static std::vector<const api::ResourceClaimTemplate*> newTemplates(const Impl& d, const api::Pod& pod);
    /// The selector sets (SelectorCache) of every (sub)request of the members' new claims; nothing
    /// when a request names a DeviceClass the cluster does not have.
    static std::optional<std::vector<uint32_t>> memberSelectorSets(
        Impl& d, const std::vector<api::Pod>& pods);
    /// Node idx's free devices that one of `sets` selects (or fails to judge), remembered in
    /// `counts` (the slot of those sets) until the node's devices change.
    static int32_t selectableFree(
        Impl& d, uint32_t idx, const std::vector<uint32_t>& sets, const DraVerdictCache::Slot& counts);
    /// Which placements cannot reach the group's minCount (with `already` bound), by the devices
    /// their members' claims must dedicate: a run there ends Unschedulable (group_capacity.cpp).
    /// A placement is looked at when the cycle comes to it, as most cycles keep the first they run.
    class Capacity
    {
    public:
        Capacity(Impl& d, const PodGroupPolicy& group, const std::vector<Placement>& placements,
            const std::vector<api::Pod>& pods, int32_t already);
        bool hopeless(size_t p);
        /// How many members a run in placement p can place at most, once hopeless(p) said so.
        int32_t most(size_t p) const { return m_most[p]; }

    private:
        /// The fewest devices a member's own claims dedicate; 0 when nothing bounds the members.
        int64_t perMember() const;
        Impl& m_d;
        const PodGroupPolicy& m_group;
        const std::vector<Placement>& m_placements;
        const std::vector<api::Pod>& m_pods;
        int32_t m_already;
        int64_t m_perMember = -1; ///< perMember(), -1 until needed
        /// memberSelectorSets(), once perMember() found a bound; nothing: every free device counts.
        std::optional<std::vector<uint32_t>> m_sets;
        DraVerdictCache::Slot m_counts; ///< where selectableFree keeps its counts for m_sets
        std::vector<int32_t> m_most; ///< by placement, -1 until looked at
    };
    /// When no placement took the group: what the skipped placements held, as far as the message
    /// shows it (noPlacementMessage, domainShortfall), each counted by a run rolled back, and
    /// `firstRun` when the first placement is among them (group_capacity.cpp).
    static void accountSkipped(Impl& d, const PodGroupPolicy& group, const std::vector<Placement>& placements,
        const std::vector<api::Pod>& pods, const std::vector<size_t>& order, int32_t already,
        const std::vector<size_t>& skipped, const Capacity& capacity, std::vector<int32_t>& held,
        PlacementRun& run, PlacementRun& firstRun);
    /// After a cycle whose members ran their own PostFilter (1.36 with the WorkloadAwarePreemption
    /// gate off, group_pod_preemption.cpp): what upstream's preemption did outside the cycle's
    /// rolled-back view is done again for real. Victims are deleted whatever became of the group;
    /// a waiting group's members are nominated, the others' preemptors lose their nomination.
    /// Returns whether the group waits on preemption.
    static bool settleMemberPreemption(Impl& d, const std::vector<api::Pod>& pods, GroupScheduleResult& out);
    /// Takes the run's member results (the run is not read again).
    static void fillFailure(GroupScheduleResult& out, PlacementRun&& run, const std::string& message);
    static std::string noPlacementMessage(const PodGroupPolicy& group,
        const std::vector<Placement>& placements, const std::vector<int32_t>& held,
        const PlacementRun& firstRun);
    /// The group algorithm over every placement inside `within`: the best one is kept (committed
    /// into the enclosing transaction, if any), or nothing.
    static GroupScheduleResult attempt(Impl& d, const PodGroupPolicy& group,
        const std::vector<api::Pod>& pods, const std::vector<std::string>& boundMembers, bool topologyAware,
        const Placement& within);
};

} // namespace drasim::scheduler
