// SPDX-License-Identifier: Apache-2.0
#pragma once

// DefaultPreemption, kube-scheduler's PostFilter plugin, for one pod that no node could take:
// which node to nominate and which lower-priority pods to evict there. Upstream:
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go (SelectVictimsOnNode,
// filterPodsWithPDBViolation) and pkg/scheduler/framework/preemption/preemption.go (Preempt,
// findCandidates, DryRunPreemption, pickOneNodeForPreemption). Private to the scheduler module.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/disruption_budget.h"
#include "core/scheduler/cluster_impl.h"
#include "core/scheduler/pod_topology.h"

namespace drasim::scheduler {

struct Cluster::Impl::Preemption
{
    /// The pods of one candidate node that preemption would evict.
    struct Candidate
    {
        uint32_t node = 0;
        std::vector<const PodState*> victims; ///< most important first
        int32_t budgetViolations = 0;
    };

    /// The PostFilter step of a cycle that ended Unschedulable. Evaluates on the cluster as the
    /// cycle left it and leaves it exactly so (every dry run is undone).
    static PreemptionResult postFilter(Impl& d, Cycle& cycle);

    /// What `explain` says of the PostFilter: "" when no bound pod has a lower priority than the
    /// pod (preemption was never a possibility), else the nomination and its victims, or why
    /// preemption does not help, with a note when DRA devices are what the pod lacks.
    static std::string explain(
        const Impl& d, const Cycle& cycle, const PreemptionResult& r, bool draRejected);
    /// upstream's calculateNumCandidates: the profile's minCandidateNodesPercentage of the
    /// potential nodes (10 %), at least its minCandidateNodesAbsolute (100), at most all.
    static size_t candidatesWanted(size_t potentialNodes, const SchedulerProfile& profile);
    /// pickOneNodeForPreemption's criteria, in order; ties go to the earlier candidate.
    size_t pickOne(const std::vector<Candidate>& candidates) const;
    /// A lower-priority pod on the node is being deleted (a victim of an earlier preemption).
    static bool terminatingBelow(const Impl& d, const std::string& node, int32_t priority);
    /// util.MoreImportantPod: higher priority (victimPriority), then the earlier start; then
    /// binding order.
    bool moreImportant(const PodState* a, const PodState* b) const;

    /// The priority a bound pod has as a possible victim. A member of a known PodGroup has its
    /// group's: "The priority of the PodGroup is an authorative priority for all pods in the
    /// group during workload-aware preemption events, even when priorities of individual pods
    /// forming this PodGroup differ" (kubernetes.io, workloads/workload-api/disruption-and-priority),
    /// and Kubernetes 1.37's DefaultPreemption "also respects victim PodGroups' priority" (v1.37
    /// release blog; `groupAware`, SchedulerOptions::podGroupUnitsInPreemption). Otherwise the
    /// pod's own.
    static int32_t victimPriority(const Impl& d, const PodState& pod, bool groupAware);
    /// Whether some bound pod has a victimPriority below `priority` (else preemption was never a
    /// possibility).
    static bool anyBelow(const Impl& d, int32_t priority, bool groupAware);

    Preemption(Impl& impl, Cycle& c, int32_t prio)
        : d(impl)
        , cycle(c)
        , priority(prio)
        , groupAware(impl.options.podGroupUnitsInPreemption)
    { }
    int32_t priorityOf(const PodState* pod) const { return victimPriority(d, *pod, groupAware); }

    /// The group whose bound pods preemption evicts at once, named by its key and whether it is a
    /// CompositePodGroup: a disruptionMode all PodGroup, or the highest all group above a member
    /// of a hierarchy (PodGroupPolicy::unitKey). The key lives in the cluster's group policies.
    struct UnitKey
    {
        std::string_view key;
        bool composite = false;
        auto operator<=>(const UnitKey&) const = default;
    };
    /// The unit of a bound pod, nullopt for a pod evicted on its own.
    static std::optional<UnitKey> unitOf(const Impl& d, const PodState& pod);

    /// What preemption evicts together: one pod, or (SchedulerOptions::podGroupUnitsInPreemption)
    /// every pod of its UnitKey's group, its members on other nodes included.
    struct Unit
    {
        std::vector<const PodState*> onNode; ///< most important first
        std::vector<const PodState*> elsewhere;
    };
    /// The units of the node's potential victims (sorted most important first), in that order.
    std::vector<Unit> unitsOf(const std::vector<const PodState*>& potential);
    /// The bound, not terminating members of every PodGroup, in binding order, by group key
    /// (viewing each member's own groupKey): gathered once per preemption attempt, on first use,
    /// rather than once per candidate node and group. The DRA what-if's checks delete and restore
    /// pods, which moves their states: it gathers them again for each node.
    using GroupMembers = std::map<UnitKey, std::vector<const PodState*>>;
    const GroupMembers& membersByGroup();
    std::optional<GroupMembers> members;
    /// The whole-group unit the pod is part of, nullopt when it is evicted alone.
    std::optional<UnitKey> wholeGroupOf(const PodState* pod) const;
    /// filterPodsWithPDBViolation over units: a unit violates when any of its pods does.
    void splitByBudget(const std::vector<Unit>& units, std::vector<const Unit*>& violating,
        std::vector<const Unit*>& clean) const;
    static void addVictims(const Unit& u, bool violatesBudgets, Candidate& out);

    /// SelectVictimsOnNode: false when evicting every lower-priority pod still leaves no room
    /// (status reasons added to `statuses`).
    bool selectVictims(uint32_t idx, std::vector<const PodState*> potential, Candidate& out);
    /// Marks the victims terminating, moves lower-priority nominations off the node and
    /// nominates the preemptor to it.
    void actuate(const PreemptionResult& result);
    /// selectVictims for the DRA what-if: each check deletes the pods it leaves out (their claims
    /// released) inside a transaction that is rolled back.
    bool selectVictimsReleasingClaims(uint32_t idx, std::vector<const PodState*> potential, Candidate& out);
    /// The node filters and DynamicResources for the preemptor on node idx as it stands now.
    bool fits(uint32_t idx);

    /// PodTopologySpread's and InterPodAffinity's PreFilter state in one node's dry run: a copy
    /// of the cycle's, which Filter reads while this lives, with the pods the dry run takes off
    /// the node removed and those it puts back added (SelectVictimsOnNode's removePod and addPod
    /// run the PreFilterExtensions). Nothing is copied when neither plugin filters this cycle.
    class DryRunPlacement
    {
    public:
        DryRunPlacement(Preemption& p, uint32_t idx);
        ~DryRunPlacement();
        DryRunPlacement(const DryRunPlacement&) = delete;
        DryRunPlacement& operator=(const DryRunPlacement&) = delete;
        /// The pod leaves (-1) or comes back to (+1) the node.
        void update(const PodState* pod, int delta);

    private:
        Preemption& p;
        uint32_t idx;
        std::shared_ptr<const PlacementCycle> original;
        std::shared_ptr<PlacementCycle> copy;
    };

    Impl& d;
    Cycle& cycle;
    int32_t priority = 0;
    bool groupAware = false;
    /// status.disruptionsAllowed of each PodDisruptionBudget as the disruption controller would
    /// compute it for the bound pods now (victims being deleted are not healthy).
    static std::vector<int32_t> budgetAllowances(const Impl& d);
    /// Whether evicting the pod violates a budget, taking one disruption from each budget that
    /// covers it in `left` (filterPodsWithPDBViolation).
    static bool violatesBudget(const Impl& d, const PodState* pod, std::vector<int32_t>& left);

    /// Disruptions each budget allows (empty without budgets).
    std::vector<int32_t> allowed;
    /// Node status reasons of the dry run, for the message when no candidate is found.
    std::map<std::string, int> statuses;
    /// For `explain` (only with a diagnosis): what the dry run found on each node it examined.
    std::map<uint32_t, std::string> perNode;
    void note(uint32_t idx, std::string text);
    /// Copies perNode into the diagnosis' nodes, saying why the others have nothing.
    void notePerNode(const std::vector<uint32_t>& potential);
    /// "ns/a (priority 100), ns/b (priority 100)"
    std::string victimList(const std::vector<const PodState*>& victims) const;
};

} // namespace drasim::scheduler
