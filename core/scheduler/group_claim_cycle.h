// SPDX-License-Identifier: Apache-2.0
#pragma once

// The scheduling cycle's side of claims shared by a PodGroup (group_claims.h): which of a
// member's entries use the group's claim, the claims the ResourceClaim controller makes for the
// group, and the one reservedFor entry for the group. Private to the scheduler module.

#include <string>

#include "core/scheduler/cluster_impl.h"
#include "core/scheduler/pod_group.h"

namespace drasim::scheduler {

struct Cluster::Impl::GroupClaims
{
    enum class Entry {
        Ordinary, ///< not a group entry (or the gate makes it an ordinary one): the usual lookup
        Group, ///< the group's claim, named in `claimName` (generated when it was missing)
        Missing, ///< no claim to use: the reason is in `lookupError` (unless an earlier one is)
    };
    /// A member's entry `e`: whether it uses its PodGroup's claim. Sets cycle.group for a Group entry.
    static Entry resolve(Impl& d, Cycle& cycle, const api::PodResourceClaim& e, std::string& claimName,
        std::string& lookupError);
    /// The ResourceClaim controller's part: a claim for each template entry of the group that has
    /// none yet, made when the PodGroup is seen (before and whatever its cycles do), unallocated.
    static void generate(Impl& d, const PodGroupPolicy& group);
    /// Whether the cycle uses `c` through its PodGroup.
    static bool ofGroup(const Cycle& cycle, const ClaimState* c);
    /// Whether the claim's reservedFor holds the cycle's PodGroup.
    static bool reservedForGroup(const Cycle& cycle, const ClaimState& c);
    /// PreBind's reservation of a group claim: the PodGroup once, whatever member comes.
    static void reserve(const Cycle& cycle, ClaimState& c);

private:
    /// The claim generated for template entry `entry` of `group`; null when its template is missing.
    static ClaimState* fromTemplate(
        Impl& d, const PodGroupPolicy& group, const api::PodGroupResourceClaim& entry);
};

} // namespace drasim::scheduler
