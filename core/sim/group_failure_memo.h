// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/api/core_v1.h"
#include "core/sim/cluster_port.h"

namespace drasim::sim {

/// The last PodGroup cycles that failed, by group signature (groupSchedulingSignature), for the
/// cluster state they failed on (ClusterPort::stateGeneration). When capacity is freed every
/// parked group is tried again, and the groups of one workload are alike: on an unchanged cluster
/// the second and later ones would run the same cycle to the same failure. Their answer is then
/// the first one's, with the group's own key in its messages. The cycle still counts as run: it
/// is the scheduler's work being modelled, only not repeated here.
///
/// Only failures that leave nothing behind and name nothing of their group are kept: nothing
/// was preempted, and after the "pod group KEY: " lead no message mentions the group's key, its
/// name or a member's name. Workload-aware preemption that found no victims may have been tried:
/// it reads the members' nominations, which the caller rules out (a group whose members
/// preemption never nominated, with victims or without, has none), and otherwise only the cluster and the
/// group's priority; it draws nothing from a pod's name, as a single pod's dry run does.
class GroupFailureMemo
{
public:
    /// The answer for a group of `signature` keyed `key`, if an equal group failed on this state.
    std::optional<GroupOutcome> recall(
        const std::string& signature, uint64_t generation, const std::string& key) const;
    /// Remembers `out` (the cycle of group `key` over `pods`, on state `generation`) if it can
    /// stand for an equal group's; forgets what was remembered for an older state.
    void remember(const std::string& signature, uint64_t generation, const std::string& key,
        const std::vector<api::Pod>& pods, const GroupOutcome& out);

private:
    struct Entry
    {
        std::string signature;
        std::string key;
        GroupOutcome outcome;
    };
    uint64_t m_generation = 0;
    std::vector<Entry> m_entries; ///< for m_generation; a handful of workloads at most
};

} // namespace drasim::sim
