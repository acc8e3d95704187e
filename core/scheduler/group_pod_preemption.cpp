// SPDX-License-Identifier: Apache-2.0
// Kubernetes 1.36 with GenericWorkload and GangScheduling but without the WorkloadAwarePreemption
// gate: a PodGroup's members run their own PostFilter inside the group cycle. In 1.36's
// podGroupSchedulingDefaultAlgorithm (runAllPostFilters) a member that does not fit runs
// DefaultPreemption, whose evaluator actuates at once: its victims are deleted through the API
// (asynchronously) while the cycle goes on, on its one snapshot, with the member assumed on the
// nominated node. After the last member, a group whose quorum holds only with such members
// "requires preemption": nothing binds, and every member placed or preempting goes back to the
// queue nominated, the group waiting (submitPodGroupAlgorithmResult, waitingOnPreemption). A
// group that cannot reach its quorum even so goes back unschedulable and its preempting members
// lose their nomination (clearNominatedNode), but the victims are gone all the same: the
// needless disruption KEP-4671's delayed preemption and KEP-5710 set out to remove.
//
// Here every run of the cycle is a rolled-back transaction, which undoes the members'
// preemptions with the rest; this puts back what upstream did for real. Only the run the cycle
// reports is settled: for a group with a topology constraint (TopologyAwareWorkloadScheduling),
// the members of the first placement tried.
#include "core/scheduler/group_cycle.h"
#include "core/scheduler/group_preemption.h"

namespace drasim::scheduler {

bool Cluster::Impl::GroupCycle::settleMemberPreemption(
    Impl& d, const std::vector<api::Pod>& pods, GroupScheduleResult& out)
{
    if (out.scheduled)
        return false; // a run with a preempting member never binds (GroupCycle::run)
    for (size_t i = 0; i < pods.size() && i < out.members.size(); ++i) {
        auto& preemption = out.members[i].preemption;
        if (!preemption)
            continue;
        for (const auto& victim : preemption->victims)
            d.undo.markTerminating(victim);
        if (out.waitingOnPreemption && !preemption->nominatedNode.empty()) {
            GroupPreemption::nominateMember(
                d, pods[i], preemption->nominatedNode, pods[i].spec.priority.value_or(0));
        } else if (!preemption->victims.empty()) {
            // requiresPreemption && !waitingOnPreemption: the FailureHandler clears the node.
            Nominator::clear(d, keyOf(pods[i].meta));
            preemption->nominatedNode.clear();
        }
    }
    return out.waitingOnPreemption;
}

} // namespace drasim::scheduler
