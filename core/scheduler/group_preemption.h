// SPDX-License-Identifier: Apache-2.0
#pragma once

// Workload-aware preemption (KEP-5710, "Preemption algorithm"; 1.36 alpha, 1.37 beta): the
// PostFilter of a PodGroup whose cycle failed. The preemptor is the whole group and the domain is
// the whole cluster: every lower-priority unit (a single pod, or every bound member of a group
// whose disruptionMode is all) is removed in one dry run, the group algorithm runs once, and the
// units are then given back, most important first, wherever they still fit beside the group's
// assumed pods. Private to the scheduler module.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/scheduler/cluster_impl.h"
#include "core/scheduler/group_tree.h"

namespace drasim::scheduler {

struct Cluster::Impl::GroupPreemption
{
    /// What preemption evicts at once: one pod, or the bound members of a disruptionMode all group.
    struct Unit
    {
        std::vector<std::string> pods; ///< keys, in binding order
        int32_t priority = 0; ///< the group's for a group unit, else the pod's
        bool group = false; ///< a whole-group unit (Preemption::unitOf)
        bool composite = false; ///< ... under a CompositePodGroup whose disruptionMode is all
        double start = 0; ///< the earliest start among its pods
        uint64_t seq = 0; ///< the first binding, for ties upstream leaves to its sort
    };

    /// The victims chosen and the dry run whose placements the members are nominated to.
    struct Choice
    {
        GroupScheduleResult dry;
        std::vector<const Unit*> victims; ///< pass order (budget-violating units first)
        int32_t budgetViolations = 0; ///< pods of victims whose eviction violates a budget
    };

    /// After a failed group cycle: evicts what the group needs, nominates its members and fills
    /// `out.preemption` (victims, message) and the members' nominated nodes. `attempt` runs the
    /// group algorithm on the cluster as it stands (inside the dry run). Does nothing with the
    /// gate off; a group that may not preempt (preemptionPolicy Never), waits for its victims,
    /// finds no unit of lower priority or does not fit even without them evicts nothing. The
    /// message is upstream PodGroupPostFilter's, word for word in the cluster's version
    /// ("pod group preemption: ..." in 1.37). Returns whether the PostFilter succeeded: the group
    /// now waits on preemption (a placement was found, or, from 1.37, its earlier victims are
    /// still terminating).
    static bool postFilter(Impl& d, const PodGroupPolicy& group, const std::vector<api::Pod>& pods,
        const std::function<GroupScheduleResult()>& attempt, GroupScheduleResult& out);
    /// After a failed cycle whose PostFilter did not succeed: the members that fitted in it lose
    /// their nomination (submitPodGroupAlgorithmResult hands them to the FailureHandler with
    /// clearNominatedNode), those that did not fit keep theirs (their result nominates nothing,
    /// which the FailureHandler leaves as it is). Returns how many nominations were taken back.
    static int32_t clearFittedNominations(
        Impl& d, const std::vector<api::Pod>& pods, const std::vector<bool>& fitted);
    /// A member of a group nominated to `node` at `priority` (its group's, or its own when it
    /// preempted for itself), as the FailureHandler records a nominatingInfo.
    static void nominateMember(Impl& d, const api::Pod& pod, const std::string& node, int32_t priority);
    /// The same for a CompositePodGroup hierarchy whose root's cycle failed
    /// (hierarchy_preemption.cpp): the root is the preemptor, at its priority; `attempt` runs
    /// the hierarchy's cycle on the cluster as it stands. Fills `out.preemption` and the
    /// nominated members' ScheduleResult::preemption. Returns whether the tree now waits on
    /// preemption, as postFilter does.
    static bool treePostFilter(Impl& d, const GroupTreeNode& root,
        const std::function<GroupTreeResult()>& attempt, GroupTreeResult& out);
    /// clearFittedNominations for a hierarchy's cycle that does not wait on preemption, for each
    /// PodGroup of the tree that ends unscheduled (GroupTreeOutcome::fitted). Returns how many
    /// nominations were taken back.
    static int32_t clearTreeFittedNominations(Impl& d, const GroupTreeNode& root, const GroupTreeResult& out);

    /// The units of lower priority than `below`, leaving out the group `self` and pods already
    /// being deleted, most important first (KEP-5710: priority, a group before a pod, the larger
    /// group first, then the earlier start).
    static std::vector<Unit> lowerUnits(const Impl& d, int32_t below, const std::string& self);
    static bool moreImportant(const Unit& a, const Unit& b);
    /// Upstream's dry run: every unit off its node (claims kept), one group attempt, then the
    /// units back, pass by pass, wherever they still fit. `dry.scheduled` false: the group does
    /// not fit even so (`dry.message` says why, and no unit is chosen).
    static Choice chooseKeepingClaims(Impl& d, const std::vector<Unit>& units,
        const std::vector<const Unit*>& violating, const std::vector<const Unit*>& clean,
        const std::function<GroupScheduleResult()>& attempt);
    /// SchedulerOptions::whatIfDraPreemption: victims' claims released, each unit tried back by a
    /// group attempt without it.
    static Choice chooseReleasingClaims(Impl& d, const std::vector<const Unit*>& violating,
        const std::vector<const Unit*>& clean, const std::function<GroupScheduleResult()>& attempt);
    /// A member of the group is nominated and a lower-priority pod on its node is still being
    /// deleted: the group waits for its earlier preemption instead of preempting again.
    static bool waitingForVictims(const Impl& d, const std::vector<api::Pod>& pods, int32_t priority);

    /// The dry run's removal of a bound pod: off its node, its claims kept allocated (upstream's
    /// DynamicResources keeps a victim's claims in preemption dry runs). Logged, so undone by the
    /// enclosing rollback.
    static PodState vacate(Impl& d, const std::string& key);
    static void restore(Impl& d, PodState ps);
    /// Whether node idx holds more than it has (NodeResourcesFit for the pods already there).
    static bool overcommitted(const Impl& d, uint32_t idx);
};

} // namespace drasim::scheduler
